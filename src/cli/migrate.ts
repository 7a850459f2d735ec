import { migrateSerially } from '../db/migrate-serially.ts';
import { migrationStatus, pendingMigrationSql } from '../db/migration-status.ts';
import { withDatabase } from './database.ts';
import { CliError } from './errors.ts';
import { type Output, stdio } from './output.ts';

export type MigrateOptions = { status?: boolean; dryRun?: boolean };

/** The exit code of `migrate --status` when migrations are pending: a script or an init container can wait on it. */
export const PENDING_EXIT_CODE = 3;

/**
 * `migrate`: applies pending migrations to the configured database (the service also does this at
 * start, unless MIGRATE_ON_START=0). `--status` lists applied and pending migrations and changes
 * nothing; `--dry-run` prints the SQL the pending ones would run and changes nothing.
 */
export async function migrate(options: MigrateOptions = {}, output: Output = stdio): Promise<void> {
  if (options.status && options.dryRun) throw new CliError('--status and --dry-run are separate: give one', 2);
  const pendingCount = await withDatabase(
    async (database) => {
      if (options.status) {
        const status = await migrationStatus(database.orm);
        for (const { name, appliedAt } of status.applied) {
          const mark = status.unknown.includes(name) ? 'applied (not known to this version: a newer one applied it)' : 'applied';
          output.out(`${mark.padEnd(8)}  ${name}  ${appliedAt.toISOString()}\n`);
        }
        for (const name of status.pending) output.out(`pending   ${name}\n`);
        output.out(
          status.pending.length === 0
            ? `${database.description}: up to date (${status.applied.length} applied)\n`
            : `${database.description}: ${status.pending.length} pending, ${status.applied.length} applied; run \`consent-config migrate\`\n`,
        );
        return status.pending.length;
      }
      if (options.dryRun) {
        const pending = await pendingMigrationSql(database.orm);
        for (const { name, statements } of pending) {
          output.out(`-- ${name}\n`);
          for (const statement of statements) output.out(`${statement.trimEnd().replace(/;?$/, ';')}\n`);
          output.out('\n');
        }
        output.out(
          pending.length === 0
            ? `-- nothing to apply on ${database.description}\n`
            : `-- ${pending.length} pending on ${database.description}; nothing was applied (dry run)\n`,
        );
        return 0;
      }
      output.err(`applying pending migrations on ${database.description} …\n`);
      const applied = await migrateSerially(database.orm, database.embedded ? undefined : database.url);
      output.out(
        applied.length === 0
          ? `nothing to apply on ${database.description}\n`
          : `applied ${applied.map((migration) => migration.name).join(', ')} on ${database.description}\n`,
      );
      return 0;
    },
    { migrate: false },
  );
  if (options.status && pendingCount > 0) process.exitCode = PENDING_EXIT_CODE;
}
