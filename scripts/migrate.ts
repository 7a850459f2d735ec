/** Applies pending migrations to the configured database (the service also does this at start). */
import { loadSettings } from '../src/config.ts';
import { openDatabase } from '../src/db/orm.ts';

const settings = loadSettings();
const database = await openDatabase({
  databaseUrl: settings.databaseUrl,
  dataDir: settings.dataDir,
  poolSize: 1,
  migrate: false,
});
try {
  const applied = await database.orm.migrator.up();
  console.log(
    applied.length === 0
      ? `nothing to apply on ${database.description}`
      : `applied ${applied.map((migration) => migration.name).join(', ')} on ${database.description}`,
  );
} finally {
  await database.close();
}
