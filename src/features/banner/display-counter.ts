import { createHmac, randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { MikroORM } from '@mikro-orm/postgresql';
import { visitorNetwork } from './visitor-network.ts';
import { requestAddress, type TrustProxy } from './load-address.ts';
import { createSeenVisitors } from './seen-visitors.ts';

/**
 * Counts banners shown (`widgetDisplayCount`, per calendar month in UTC): a domain's banner counts
 * once per visitor and UTC day, a visitor being an address (IPv4) or a /64 network (IPv6), read
 * behind the proxies TRUST_PROXY trusts. So a loop of loads from one address moves a month's count
 * by at most one a day, however many processes serve it.
 *
 * A process drops repeated loads in memory (seen-visitors.ts) and writes the first sightings every
 * `flushEveryMs` in one statement for all clients, and once more on close. The database keeps each
 * day's sightings as a hash of domain and visitor under a salt of the day that every process shares
 * (so a visitor seen by two processes counts once) and counts only the new ones; salts and
 * sightings older than yesterday are deleted, so no hash outlives its second day. A crash loses at
 * most the sightings of one interval. A batch that fails is kept and tried again with the next;
 * sightings of a client deleted meanwhile are dropped.
 */
export type DisplayCounter = {
  /** A load of the domain's banner by `request`'s visitor. */
  count(clientId: string, domainId: string, request: IncomingMessage): void;
  /** Writes what has been counted (tests and shutdown). */
  flush(): Promise<void>;
  close(): Promise<void>;
};

export type DisplayCounterOptions = {
  flushEveryMs?: number;
  onError?: (error: unknown) => void;
  /** Which proxies to believe about a visitor's address (TRUST_PROXY); default: none. */
  trustProxy?: TrustProxy;
  /** The time in ms (tests move it to the next day); default Date.now. */
  now?: () => number;
};

/** Sightings one process remembers a day before it starts over, and keeps while the database is away. */
const MAX_SIGHTINGS = 200_000;
const DAY_MS = 86_400_000;

/** A first load seen by this process: the address is kept until the next write hashes it. */
type Sighting = { day: number; clientId: string; domainId: string; network: string };
/** What is written: the visitor as a hash under the day's shared salt. */
type Row = { day: string; client_id: string; domain_id: string; visitor: string };

/** The last banner a connection was counted for, kept on its socket. */
type CountedConnection = { day: number; domainId: string };
const COUNTED = Symbol('banner load counted');
type CountedSocket = IncomingMessage['socket'] & { [COUNTED]?: CountedConnection };

const isoDay = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

export function createDisplayCounter(
  orm: MikroORM,
  { flushEveryMs = 2_000, onError = () => {}, trustProxy = false, now = Date.now }: DisplayCounterOptions = {},
): DisplayCounter {
  const addressOf = requestAddress(trustProxy);
  const oneVisitorPerConnection = trustProxy === false || trustProxy === 0;
  const seen = createSeenVisitors({ now, max: MAX_SIGHTINGS });
  const salts = new Map<string, Buffer>();
  let sightings: Sighting[] = [];
  let unwritten: Row[] = [];
  let writing: Promise<void> = Promise.resolve();
  const connection = () => orm.em.fork().getConnection();

  /** The salts of `days`, made by whichever process needs one first; the older ones are deleted then. */
  const loadSalts = async (days: number[]) => {
    const wanted = days.map((day) => ({ day: isoDay(day), salt: randomBytes(16).toString('base64') }));
    const yesterday = Math.max(...days) - 1;
    const rows = await connection().execute<{ day: string; salt: string }[]>(
      `with wanted as (select * from jsonb_to_recordset(?::jsonb) as x(day date, salt text)),
            made as (insert into "widget_display_salt" ("day", "salt") select day, decode(salt, 'base64') from wanted
                     on conflict do nothing returning "day", "salt"),
            old_salts as (delete from "widget_display_salt" where "day" < ?::date),
            old_sightings as (delete from "widget_display_visitor" where "day" < ?::date)
       select to_char("day", 'YYYY-MM-DD') as day, encode("salt", 'base64') as salt from made
       union all
       select to_char(s."day", 'YYYY-MM-DD'), encode(s."salt", 'base64') from "widget_display_salt" s join wanted w on w.day = s."day"`,
      [JSON.stringify(wanted), isoDay(yesterday), isoDay(yesterday)],
    );
    for (const day of salts.keys()) if (day < isoDay(yesterday)) salts.delete(day);
    for (const row of rows) salts.set(row.day, Buffer.from(row.salt, 'base64'));
  };

  /** Turns the sightings into rows: the visitor's network becomes a hash under its day's salt. */
  const hashSightings = async () => {
    if (sightings.length === 0) return;
    const missing = [...new Set(sightings.map((sighting) => sighting.day))].filter((day) => !salts.has(isoDay(day)));
    if (missing.length > 0) await loadSalts(missing);
    const waiting: Sighting[] = [];
    for (const sighting of sightings) {
      const day = isoDay(sighting.day);
      const salt = salts.get(day);
      // Another process was making the salt at the same moment: the next write reads it.
      if (!salt) waiting.push(sighting);
      else unwritten.push({ day, client_id: sighting.clientId, domain_id: sighting.domainId, visitor: visitorHash(salt, sighting) });
    }
    sightings = waiting;
  };

  const write = async () => {
    try {
      await hashSightings();
    } catch (error) {
      onError(error);
    }
    if (unwritten.length === 0) return;
    const batch = unwritten;
    unwritten = [];
    try {
      // The sightings not yet known to the database count; the month is the sighting's.
      await connection().execute(
        `with sighting as (
           select distinct x.client_id, x.domain_id, x.day, x.visitor
           from jsonb_to_recordset(?::jsonb) as x(client_id uuid, domain_id uuid, day date, visitor bigint) join "client" c on c.id = x.client_id
         ), fresh as (
           insert into "widget_display_visitor" ("day", "domain_id", "visitor") select day, domain_id, visitor from sighting
           on conflict do nothing returning "day", "domain_id", "visitor"
         )
         insert into "widget_display" ("client_id", "domain_id", "month", "count")
         select s.client_id, s.domain_id, to_char(s.day, 'YYYY-MM'), count(*)
         from fresh f join sighting s on s.day = f.day and s.domain_id = f.domain_id and s.visitor = f.visitor
         group by s.client_id, s.domain_id, to_char(s.day, 'YYYY-MM')
         on conflict ("client_id", "domain_id", "month") do update set "count" = "widget_display"."count" + excluded."count"`,
        [JSON.stringify(batch)],
      );
    } catch (error) {
      unwritten = batch.concat(unwritten).slice(0, MAX_SIGHTINGS);
      onError(error);
    }
  };
  // One write at a time, in order.
  const flush = () => (writing = writing.then(write));

  const timer = setInterval(() => void flush(), flushEveryMs);
  timer.unref();

  return {
    count(clientId, domainId, request) {
      // A kept-alive connection is one visitor when no proxy speaks for others over it: its
      // repeated loads of one banner on one day are known without reading the address again.
      if (oneVisitorPerConnection) {
        const today = Math.floor(now() / DAY_MS);
        const last = ((request.socket as CountedSocket)[COUNTED] ??= { day: -1, domainId: '' });
        if (last.day === today && last.domainId === domainId) return;
        last.day = today;
        last.domainId = domainId;
      }
      const network = visitorNetwork(addressOf(request));
      const day = seen.firstToday(domainId, network);
      if (day !== undefined && sightings.length < MAX_SIGHTINGS) sightings.push({ day, clientId, domainId, network });
    },
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}

/** The visitor of a domain's banner as the database keeps them a day: 64 bits of a keyed hash. */
function visitorHash(salt: Buffer, { domainId, network }: Sighting): string {
  return createHmac('sha256', salt).update(`${domainId}/${network}`).digest().readBigInt64BE(0).toString();
}
