import type { MikroORM } from '@mikro-orm/postgresql';
import type { ConsentIntake } from './consent.contract.ts';

/** A stored consent record's receipt. */
export type ConsentReceipt = { consentId: string; receivedAt: string };

/**
 * Stores one record, with the domain's client, in one statement; null if there is no such
 * domain. The statement commits before this returns (no transaction is open around it), so an
 * acknowledged record is durable as the database makes commits durable.
 */
export async function storeConsentRecord(
  orm: MikroORM,
  intake: ConsentIntake,
  seen: { origin: string; path: string; address: string; originMatches: boolean },
): Promise<ConsentReceipt | null> {
  const rows = await orm.em.fork().getConnection().execute<{ receivedAt: Date }[]>(
    `insert into "consent_record" ("domain_id", "received_at", "consent_id", "client_id", "choice", "categories", "services", "revision", "locale", "origin", "path", "address", "origin_matches", "signal", "manipulation_prevention", "tc_string", "ac_string", "gpp_string")
     select d."id", clock_timestamp(), ?, d."client_id", ?, ?::jsonb, ?::jsonb, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?
     from "domain" d where d."id" = ?
     returning "received_at" as "receivedAt"`,
    [
      intake.consentId,
      intake.choice,
      JSON.stringify(intake.categories),
      JSON.stringify(intake.services),
      intake.revision,
      intake.locale,
      seen.origin,
      seen.path,
      seen.address,
      seen.originMatches,
      intake.signal ?? null,
      intake.manipulationPrevention ?? false,
      intake.tcString ?? null,
      intake.acString ?? null,
      intake.gppString ?? null,
      intake.domain,
    ],
  );
  const row = rows[0];
  return row ? { consentId: intake.consentId, receivedAt: new Date(row.receivedAt).toISOString() } : null;
}

/** Whether the domain exists: what a record naming a revision the domain lacks is told (400, or 404 for no domain). */
export async function domainExists(orm: MikroORM, domainId: string): Promise<boolean> {
  const rows = await orm.em.fork().getConnection().execute<{ found: boolean }[]>(`select exists (select 1 from "domain" where "id" = ?) as "found"`, [domainId]);
  return rows[0]?.found === true;
}

const monthStart = (year: number, month: number) => new Date(Date.UTC(year, month, 1));
const partitionName = (start: Date) => `consent_record_${start.toISOString().slice(0, 7).replace('-', '_')}`;

/**
 * Makes the monthly partitions from this month to `monthsAhead` months on (a record can only
 * be stored into an existing month), and drops every month wholly older than `retentionDays`,
 * after deleting the expired rows of the month the limit falls in. Idempotent; the service runs
 * it at start and every hour.
 */
export async function maintainConsentPartitions(
  orm: MikroORM,
  { retentionDays, now = new Date(), monthsAhead = 2 }: { retentionDays: number; now?: Date; monthsAhead?: number },
): Promise<{ created: string[]; dropped: string[]; deleted: number }> {
  // One process at a time: `create table if not exists` is no guard against a concurrent create
  // (replicas starting together on an empty database met "relation … already exists").
  return orm.em.fork().transactional(async (connection) => {
    await connection.execute(`select pg_advisory_xact_lock(hashtext('consent-record-partitions'))`);
    return maintainPartitionsLocked(connection, { retentionDays, now, monthsAhead });
  });
}

async function maintainPartitionsLocked(
  connection: { execute: MikroORM['em']['execute'] },
  { retentionDays, now, monthsAhead }: { retentionDays: number; now: Date; monthsAhead: number },
): Promise<{ created: string[]; dropped: string[]; deleted: number }> {
  const created: string[] = [];
  for (let offset = 0; offset <= monthsAhead; offset++) {
    const start = monthStart(now.getUTCFullYear(), now.getUTCMonth() + offset);
    const end = monthStart(start.getUTCFullYear(), start.getUTCMonth() + 1);
    const name = partitionName(start);
    const exists = await connection.execute<{ found: boolean }[]>(`select to_regclass(?) is not null as "found"`, [name]);
    if (exists[0]?.found) continue;
    await connection.execute(
      `create table if not exists "${name}" partition of "consent_record" for values from ('${start.toISOString()}') to ('${end.toISOString()}')`,
    );
    created.push(name);
  }

  const limit = new Date(now.getTime() - retentionDays * 86_400_000);
  const partitions = await connection.execute<{ name: string; upper: string }[]>(
    `select c.relname as "name", pg_get_expr(c.relpartbound, c.oid) as "upper"
     from pg_inherits i join pg_class c on c.oid = i.inhrelid join pg_class p on p.oid = i.inhparent
     where p.relname = 'consent_record'`,
  );
  const dropped: string[] = [];
  for (const { name, upper } of partitions) {
    const to = /TO \('([^']+)'\)/.exec(upper)?.[1];
    if (to && new Date(to) <= limit && /^consent_record_\d{4}_\d{2}$/.test(name)) {
      await connection.execute(`drop table "${name}"`);
      dropped.push(name);
    }
  }
  const deleted = await connection.execute(`delete from "consent_record" where "received_at" < ?`, [limit], 'run');
  return { created, dropped, deleted: (deleted as { affectedRows?: number }).affectedRows ?? 0 };
}
