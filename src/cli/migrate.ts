import { migrateSerially } from '../db/migrate-serially.ts';
import { withDatabase } from './database.ts';
import { type Output, stdio } from './output.ts';

/** `migrate`: applies pending migrations to the configured database (the service also does this at start). */
export async function migrate(output: Output = stdio): Promise<void> {
  await withDatabase(
    async (database) => {
      output.err(`applying pending migrations on ${database.description} …\n`);
      const applied = await migrateSerially(database.orm, database.embedded ? undefined : database.url);
      output.out(
        applied.length === 0
          ? `nothing to apply on ${database.description}\n`
          : `applied ${applied.map((migration) => migration.name).join(', ')} on ${database.description}\n`,
      );
    },
    { migrate: false },
  );
}
