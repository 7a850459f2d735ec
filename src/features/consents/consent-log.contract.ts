import { z } from 'zod';
import { consentIntake, privacySignal } from './consent.contract.ts';

/**
 * The consent log as operators read it (consent-log.ts): the records the banner sent for a
 * domain (consent.contract.ts), a page of them, their counts per day, and the queries of the
 * listing, the counts and the CSV export. Query parameters arrive as strings; the schemas coerce.
 */

// ── what is sent ────────────────────────────────────────────────────────────

export const consentRecord = z
  .strictObject({
    id: z.uuid().meta({ description: "The record's own id." }),
    consentId: z.uuid().meta({ description: 'The id the banner keeps with the choice; the same for every later change of it.' }),
    receivedAt: z.iso
      .datetime()
      .meta({ description: 'When the service stored the record: ISO 8601 in UTC, to the microsecond (`2026-11-24T09:30:15.123456Z`).' }),
    choice: consentIntake.shape.choice,
    categories: z.array(consentIntake.shape.categories.element).meta({ description: 'The accepted categories.' }),
    services: z.array(z.uuid()).meta({ description: 'The accepted services (embedding ids).' }),
    revision: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .meta({ description: 'The content revision of the configuration the visitor was shown (64 hex digits).' }),
    locale: z.string().meta({ description: 'The locale the banner spoke.' }),
    origin: z.string().meta({ description: 'The origin of the page the choice was made on (`https://www.example.org`).' }),
    path: z.string().meta({ description: 'The path of that page, without query or fragment.' }),
    address: z.string().meta({ description: "The visitor's network: IPv4 to its /24, IPv6 to its /48; empty if unknown." }),
    originMatches: z
      .boolean()
      .nullable()
      .meta({
        description:
          "Whether the page's host is the domain's host or one of its `consentSharingDomains` (or a subdomain of either), as the revision the record names published them. " +
          'false: a foreign page; such a record is kept, flagged, not refused. null: stored before the service checked (older records).',
      }),
    signal: privacySignal
      .nullable()
      .meta({
        description:
          "The choice was the browser's privacy signal, not a click: `gpc` (Global Privacy Control) or `dnt` (Do Not Track), answered with only what is necessary. null: the visitor chose.",
      }),
    manipulationPrevention: z.boolean().meta({
      description:
        "Whether the banner had the theme's `manipulationPrevention` on when the choice was made (simulated clicks could not consent), as the banner told it. false also for records of banners that did not tell.",
    }),
    tcString: z
      .string()
      .nullable()
      .meta({ description: 'The TC string of IAB TCF 2.2 the banner wrote with the choice (the evidence decodes it). null: the banner did not speak TCF.' }),
    acString: z
      .string()
      .nullable()
      .meta({ description: "Google's Additional Consent string written with the TC string (`2~<consented ids>~dv.<disclosed ids>`). null: none." }),
    gppString: z
      .string()
      .nullable()
      .meta({ description: 'The string of the IAB Global Privacy Platform the banner wrote with the choice (the evidence decodes it). null: the banner did not speak GPP.' }),
  })
  .meta({
    id: 'ConsentRecord',
    description:
      "One choice of one visitor, as the banner sent it. The visitor's browser sends it without credentials: the service checked that it names a revision the domain published and only that revision's services and categories, not who sent it.",
  });

export const consentRecordPage = z
  .strictObject({
    records: z.array(consentRecord).meta({ description: 'Newest first.' }),
    nextCursor: z
      .string()
      .nullable()
      .meta({ description: 'Pass it as `after` for the next page, with the same `from` and `to`; null: this is the last page.' }),
  })
  .meta({ id: 'ConsentRecordPage', description: 'A page of consent records, newest first.' });

export const consentDayCount = z
  .strictObject({
    day: z.iso.date().meta({ description: 'The day, in UTC (`YYYY-MM-DD`).' }),
    all: z.int().min(0).meta({ description: 'Records that accepted all.' }),
    necessary: z.int().min(0).meta({ description: 'Records that accepted only what is necessary.' }),
    custom: z.int().min(0).meta({ description: 'Records with a choice of categories and services.' }),
    total: z.int().min(0).meta({ description: 'All records of the day.' }),
  })
  .meta({ id: 'ConsentDayCount', description: "One UTC day's consent records, by choice." });

/** Every UTC day of the range, oldest first, days without records included (with zeros). */
export const consentDayCounts = z.array(consentDayCount);

export type ConsentRecord = z.output<typeof consentRecord>;
export type ConsentRecordPage = z.output<typeof consentRecordPage>;
export type ConsentDayCount = z.output<typeof consentDayCount>;

// ── the cursor ──────────────────────────────────────────────────────────────

/** Where a page ended: the last record's `received_at` (to the microsecond, UTC) and id. */
export type ConsentCursor = { receivedAt: string; id: string };

const CURSOR_TEXT = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z) ([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

/** The opaque `nextCursor` of a page: base64url of the position, so nobody is tempted to build one. */
export const encodeConsentCursor = ({ receivedAt, id }: ConsentCursor): string =>
  Buffer.from(`${receivedAt} ${id}`).toString('base64url');

/** The position a cursor encodes; undefined for anything a page did not give. */
export function decodeConsentCursor(cursor: string): ConsentCursor | undefined {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) return undefined;
  const match = CURSOR_TEXT.exec(Buffer.from(cursor, 'base64url').toString('latin1'));
  if (!match) return undefined;
  const [, receivedAt, id] = match as unknown as [string, string, string];
  // A real instant: the milliseconds survive a round trip through Date.
  const millis = `${receivedAt.slice(0, 23)}Z`;
  if (Number.isNaN(Date.parse(millis)) || new Date(millis).toISOString() !== millis) return undefined;
  return { receivedAt, id };
}

// ── queries ─────────────────────────────────────────────────────────────────

/** The range a listing covers when the query names neither end. */
export const DEFAULT_RANGE_DAYS = 30;
/** The longest range the day counts take. */
export const MAX_COUNT_DAYS = 400;
/** The most records one page holds. */
export const MAX_PAGE_SIZE = 1000;
const DAY_MS = 86_400_000;

const INSTANT_RULE =
  'must be an ISO 8601 date-time with its offset (2026-11-24T09:30:00Z, 2026-11-24T10:30:00+01:00) or a date (2026-11-24: its midnight in UTC)';
const isoDateTime = z.iso.datetime({ offset: true });
const isoDate = z.iso.date();

/**
 * A bound of a range, as an ISO 8601 date-time with an explicit offset that PostgreSQL reads
 * exactly (to the microsecond). A space before the offset stands for `+`: a `+` not encoded as
 * `%2B` in a query string arrives as one.
 */
const instant = (description: string) =>
  z
    .string()
    .transform((given, ctx) => {
      const text = given.replace(/^(\d{4}-\d{2}-\d{2}T[\d:.]+) (\d{2}:\d{2})$/, '$1+$2');
      const value = isoDate.safeParse(text).success ? `${text}T00:00:00Z` : isoDateTime.safeParse(text).success ? text : undefined;
      if (value === undefined || value.startsWith('0000')) {
        ctx.addIssue({ code: 'custom', message: INSTANT_RULE });
        return z.NEVER;
      }
      return value;
    })
    .optional()
    .meta({ description });

const rangeShape = {
  from: instant(`The first instant of the range (inclusive): an ISO 8601 date-time or date (UTC midnight). Default: ${DEFAULT_RANGE_DAYS} days before \`to\`.`),
  to: instant('The end of the range (exclusive): an ISO 8601 date-time or date (UTC midnight). Default: now.'),
};

const cursor = z
  .string()
  .transform((given, ctx) => {
    const position = decodeConsentCursor(given);
    if (!position) {
      ctx.addIssue({ code: 'custom', message: 'must be the nextCursor of a page of this listing' });
      return z.NEVER;
    }
    return position;
  })
  .optional()
  .meta({ description: 'The `nextCursor` of the previous page; absent for the first page.' });

const pageSize = z.coerce
  .number({ error: `must be a whole number from 1 to ${MAX_PAGE_SIZE}` })
  .int(`must be a whole number from 1 to ${MAX_PAGE_SIZE}`)
  .min(1, `must be a whole number from 1 to ${MAX_PAGE_SIZE}`)
  .max(MAX_PAGE_SIZE, `must be a whole number from 1 to ${MAX_PAGE_SIZE}`)
  .default(100)
  .meta({ description: `How many records a page holds: 1 to ${MAX_PAGE_SIZE}. Default 100.` });

/** A range, its defaults filled in: ISO 8601 date-times, `from` inclusive, `to` exclusive. */
export type ConsentRange = { from: string; to: string };

/** The defaults filled in, and `to` before `from` (or a range over `maxDays`) refused, naming `to`. */
function resolvedRange(given: { from?: string | undefined; to?: string | undefined }, ctx: z.RefinementCtx, maxDays?: number): ConsentRange {
  const to = given.to ?? new Date().toISOString();
  const from = given.from ?? new Date(Date.parse(to) - DEFAULT_RANGE_DAYS * DAY_MS).toISOString();
  const span = Date.parse(to) - Date.parse(from);
  if (span < 0) ctx.addIssue({ code: 'custom', path: ['to'], message: 'must not be before from' });
  else if (maxDays !== undefined && span > maxDays * DAY_MS) {
    ctx.addIssue({ code: 'custom', path: ['to'], message: `must be at most ${maxDays} days after from` });
  }
  return { from, to };
}

/** The query of the listing: a range and a page of it. */
export type ConsentListQuery = ConsentRange & { after?: ConsentCursor | undefined; limit: number };

/** GET …/consent: `from`, `to`, `after`, `limit`. */
export const consentListQuery = z
  .strictObject({ ...rangeShape, after: cursor, limit: pageSize })
  .transform(({ from, to, after, limit }, ctx): ConsentListQuery => ({ ...resolvedRange({ from, to }, ctx), after, limit }));

/** The same for GraphQL's `consents(from, to, after, first)`: the page size is `first` there. */
export const consentListArgs = z
  .strictObject({ ...rangeShape, after: cursor, first: pageSize })
  .transform(({ from, to, after, first }, ctx): ConsentListQuery => ({ ...resolvedRange({ from, to }, ctx), after, limit: first }));

/** GET …/consent/counts: `from`, `to`, at most MAX_COUNT_DAYS apart. */
export const consentCountQuery = z
  .strictObject(rangeShape)
  .transform((given, ctx): ConsentRange => resolvedRange(given, ctx, MAX_COUNT_DAYS));

/** GET …/consent/export: `from`, `to`. */
export const consentExportQuery = z.strictObject(rangeShape).transform((given, ctx): ConsentRange => resolvedRange(given, ctx));
