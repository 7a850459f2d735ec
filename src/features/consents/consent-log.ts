import type { EntityManager } from '@mikro-orm/postgresql';
import { stringify } from 'csv-stringify/sync';
import { MAX_ITEMS } from '../../kernel/contract/fields.ts';
import {
  type ConsentCursor,
  type ConsentDayCount,
  type ConsentListQuery,
  type ConsentRange,
  type ConsentRecord,
  type ConsentRecordPage,
  encodeConsentCursor,
} from './consent-log.contract.ts';

/**
 * Reads of the consent log (table `consent_record`, written by consent-records.ts), in SQL: the
 * table is no entity. Every read names the domain and, where it can, a range of `received_at`, so
 * PostgreSQL reads only the months (partitions) concerned. Pages are keyset pages, newest first by
 * (received_at, id): no OFFSET, and records sharing an instant are neither repeated nor skipped.
 * Instants travel as text with microseconds (a JS Date has only milliseconds).
 */

/** `received_at` as ISO 8601 UTC text, to the microsecond. */
const RECEIVED_AT = `to_char("received_at" at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

const RECORD_COLUMNS = `"id", "consent_id" as "consentId", ${RECEIVED_AT} as "receivedAt", "choice", "categories", "services", "revision", "locale", "origin", "path", "address", "origin_matches" as "originMatches", "signal", "manipulation_prevention" as "manipulationPrevention", "tc_string" as "tcString", "ac_string" as "acString", "gpp_string" as "gppString"`;

/**
 * Up to `limit` records of the range after `after`, newest first. The position is compared as
 * the primary key's tuple, and also bounds `received_at` from above, so that the months after
 * the cursor are not read.
 */
async function recordsAfter(
  em: EntityManager,
  domainId: string,
  { from, to }: ConsentRange,
  after: ConsentCursor | undefined,
  limit: number,
): Promise<ConsentRecord[]> {
  const position = after
    ? `and "received_at" <= ?::timestamptz and ("domain_id", "received_at", "id") < (?::uuid, ?::timestamptz, ?::uuid)`
    : '';
  return em.getConnection().execute<ConsentRecord[]>(
    `select ${RECORD_COLUMNS}
     from "consent_record"
     where "domain_id" = ? and "received_at" >= ?::timestamptz and "received_at" < ?::timestamptz ${position}
     order by "received_at" desc, "id" desc
     limit ?`,
    [domainId, from, to, ...(after ? [after.receivedAt, domainId, after.receivedAt, after.id] : []), limit],
  );
}

const cursorAfter = (record: ConsentRecord): string => encodeConsentCursor({ receivedAt: record.receivedAt, id: record.id });

/** A page of the domain's records in the range, newest first; `nextCursor` null on the last page. */
export async function listConsentRecords(em: EntityManager, domainId: string, query: ConsentListQuery): Promise<ConsentRecordPage> {
  // One more than the page: whether there is a next page, without a count.
  const records = await recordsAfter(em, domainId, query, query.after, query.limit + 1);
  const more = records.length > query.limit;
  if (more) records.length = query.limit;
  return { records, nextCursor: more ? cursorAfter(records.at(-1)!) : null };
}

/**
 * The domain's records per UTC day and choice: every day the range touches, oldest first, days
 * without records included with zeros (a chart needs no gaps filled). An empty range has no days.
 */
export async function countConsentsPerDay(em: EntityManager, domainId: string, { from, to }: ConsentRange): Promise<ConsentDayCount[]> {
  return em.getConnection().execute<ConsentDayCount[]>(
    `with "days" as (
       select generate_series(
         date_trunc('day', ?::timestamptz at time zone 'UTC'),
         date_trunc('day', (?::timestamptz - interval '1 microsecond') at time zone 'UTC'),
         interval '1 day') as "day"
       where ?::timestamptz < ?::timestamptz
     ), "counts" as (
       select date_trunc('day', "received_at" at time zone 'UTC') as "day",
         count(*) filter (where "choice" = 'all') as "all",
         count(*) filter (where "choice" = 'necessary') as "necessary",
         count(*) filter (where "choice" = 'custom') as "custom",
         count(*) as "total"
       from "consent_record"
       where "domain_id" = ? and "received_at" >= ?::timestamptz and "received_at" < ?::timestamptz
       group by 1
     )
     select to_char(d."day", 'YYYY-MM-DD') as "day",
       coalesce(c."all", 0)::int as "all", coalesce(c."necessary", 0)::int as "necessary",
       coalesce(c."custom", 0)::int as "custom", coalesce(c."total", 0)::int as "total"
     from "days" d left join "counts" c on c."day" = d."day"
     order by d."day"`,
    [from, to, from, to, domainId, from, to],
  );
}

/** The most records `consentHistory` returns: the first one and the newest others. */
export const MAX_HISTORY = MAX_ITEMS;

/**
 * Every record of one consent id in the domain (a visitor who changed their mind has several),
 * newest first; at most MAX_HISTORY: the newest, and always the first (records come
 * unauthenticated, so a flood of later ones must not push the original choice out of view). Over
 * every month kept: through the (domain_id, consent_id) index of each.
 */
export async function consentHistory(em: EntityManager, domainId: string, consentId: string): Promise<ConsentRecord[]> {
  const rows = await em.getConnection().execute<ConsentRecord[]>(
    `(select ${RECORD_COLUMNS} from "consent_record" where "domain_id" = ? and "consent_id" = ?::uuid
      order by "received_at" desc, "id" desc limit ?)
     union all
     (select ${RECORD_COLUMNS} from "consent_record" where "domain_id" = ? and "consent_id" = ?::uuid
      order by "received_at", "id" limit 1)`,
    [domainId, consentId, MAX_HISTORY - 1, domainId, consentId],
  );
  // The first record is also among the newest when there are few: listed once.
  const first = rows.at(-1);
  if (first && rows.findIndex((row) => row.id === first.id) < rows.length - 1) rows.pop();
  return rows;
}

/** The columns of the export, in order. */
export const CSV_COLUMNS = [
  'received_at',
  'consent_id',
  'choice',
  'categories',
  'services',
  'revision',
  'locale',
  'origin',
  'path',
  'address',
  'id',
  'origin_matches',
  'signal',
  'manipulation_prevention',
  'tc_string',
  'ac_string',
  'gpp_string',
] as const;

/**
 * A cell a spreadsheet would not take for a formula: text starting with `=`, `+`, `-`, `@` (or a
 * tab or carriage return, which some read past) gets a leading `'` (OWASP's advice). Origins and
 * paths come from visitors' pages.
 */
export const safeCell = (text: string): string => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);

const csvRow = (record: ConsentRecord): string[] =>
  [
    record.receivedAt,
    record.consentId,
    record.choice,
    record.categories.join(' '),
    record.services.join(' '),
    record.revision,
    record.locale,
    record.origin,
    record.path,
    record.address,
    record.id,
    record.originMatches === null ? '' : String(record.originMatches),
    record.signal ?? '',
    String(record.manipulationPrevention),
    record.tcString ?? '',
    record.acString ?? '',
    record.gppString ?? '',
  ].map(safeCell);

/** Rows one statement of the export reads. */
export const EXPORT_BATCH = 5_000;

/**
 * The domain's records in the range as CSV (RFC 4180, CRLF line ends), newest first: the header
 * line, then one chunk per batch of `batchSize` records, each read by keyset after the last, so
 * the export never holds more than one batch. Nothing is read before the first chunk is asked for.
 */
export async function* exportConsentCsv(
  em: EntityManager,
  domainId: string,
  range: ConsentRange,
  { batchSize = EXPORT_BATCH }: { batchSize?: number } = {},
): AsyncIterable<string> {
  yield stringify([[...CSV_COLUMNS]], { record_delimiter: 'windows' });
  let after: ConsentCursor | undefined;
  for (;;) {
    const records = await recordsAfter(em, domainId, range, after, batchSize);
    if (records.length === 0) return;
    yield stringify(records.map(csvRow), { record_delimiter: 'windows' });
    if (records.length < batchSize) return;
    const last = records.at(-1)!;
    after = { receivedAt: last.receivedAt, id: last.id };
  }
}
