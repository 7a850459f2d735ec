import type { MikroORM } from '@mikro-orm/postgresql';
import { type Migration } from '@mikro-orm/migrations';
import { migrationsList } from './migrations/index.ts';

/** Where a database stands against the migrations this version of the service knows. */
export type MigrationStatus = {
  applied: { name: string; appliedAt: Date }[];
  pending: string[];
  /** Applied to the database but not known here: a newer version of the service migrated it. */
  unknown: string[];
};

export async function migrationStatus(orm: MikroORM): Promise<MigrationStatus> {
  const executed = await orm.migrator.getExecuted();
  const pending = await orm.migrator.getPending();
  const known = new Set(migrationsList.map((migration) => migration.name));
  return {
    applied: executed.map((row) => ({ name: row.name, appliedAt: new Date(row.executed_at) })),
    pending: pending.map((migration) => migration.name),
    unknown: executed.map((row) => row.name).filter((name) => !known.has(name)),
  };
}

/**
 * The SQL each pending migration would run, without running it: each migration's `up()` only
 * collects its statements (`addSql`). A migration that ran statements of its own inside `up()`
 * would have to run to be shown; it fails here instead of touching the database.
 */
export async function pendingMigrationSql(orm: MikroORM): Promise<{ name: string; statements: string[] }[]> {
  const pending = new Set((await orm.migrator.getPending()).map((migration) => migration.name));
  const driver = orm.em.getDriver();
  const shown: { name: string; statements: string[] }[] = [];
  for (const { name, class: MigrationClass } of migrationsList) {
    if (!pending.has(name)) continue;
    const migration = new (MigrationClass as unknown as new (...args: unknown[]) => Migration)(driver, orm.config);
    migration.execute = () => {
      throw new Error(`migration ${name} runs statements itself while it is prepared; --dry-run cannot show it without applying it`);
    };
    await migration.up();
    shown.push({ name, statements: migration.getQueries().map(statementText) });
  }
  return shown;
}

function statementText(query: ReturnType<Migration['getQueries']>[number]): string {
  if (typeof query === 'string') return query;
  if ('sql' in query && typeof query.sql === 'string') return query.sql;
  return String(query);
}

/**
 * Waits until no migration is pending (another process — `consent-config migrate`, a migration
 * Job — applies them), checking every `everyMs`. Resolves with the number that were pending at
 * first; rejects with the pending names after `timeoutMs`.
 */
export async function waitForMigrations(
  orm: MikroORM,
  { timeoutMs, everyMs = 2_000, onWaiting }: { timeoutMs: number; everyMs?: number; onWaiting?: (pending: string[]) => void },
): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  let first: number | undefined;
  for (;;) {
    const pending = (await orm.migrator.getPending()).map((migration) => migration.name);
    first ??= pending.length;
    if (pending.length === 0) return first;
    if (Date.now() >= deadline) throw new MigrationsPending(pending);
    onWaiting?.(pending);
    await new Promise((resolve) => setTimeout(resolve, Math.min(everyMs, Math.max(0, deadline - Date.now()))));
  }
}

export class MigrationsPending extends Error {
  readonly pending: string[];
  constructor(pending: string[]) {
    super(`${pending.length} migration${pending.length === 1 ? ' is' : 's are'} pending (${pending.join(', ')})`);
    this.pending = pending;
  }
}
