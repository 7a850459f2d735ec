/**
 * Writes a migration for the difference between the entities and the migrated schema:
 * migrates a scratch in-memory database, diffs it against the entities, and writes the result
 * to src/db/migrations/. Add the new class to src/db/migrations/index.ts afterwards.
 */
import { MikroORM } from '@mikro-orm/postgresql';
import { startEmbeddedPostgres } from '../src/db/embedded.ts';
import { ormConfig } from '../src/db/orm.ts';
import { entities } from '../src/features/index.ts';

const scratch = await startEmbeddedPostgres('memory://');
const config = ormConfig(scratch.url, 1, entities);
const orm = await MikroORM.init({
  ...config,
  migrations: { ...config.migrations, path: new URL('../src/db/migrations', import.meta.url).pathname, emit: 'ts' },
});
try {
  await orm.migrator.up();
  const result = await orm.migrator.create(undefined, false, false, process.argv[2]);
  console.log(result.diff.up.length === 0 ? 'the entities match the migrations; nothing written' : `wrote ${result.fileName}`);
} finally {
  await orm.close(true);
  await scratch.stop();
}
