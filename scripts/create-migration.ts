/**
 * Writes a migration for the difference between the entities and the migrated schema:
 * migrates a scratch in-memory database, diffs it against the entities, and writes the result
 * to src/db/migrations/, and lists it last in src/db/migrations/index.ts.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { MikroORM } from '@mikro-orm/postgresql';
import { startEmbeddedPostgres } from '../src/db/embedded.ts';
import { ormConfig } from '../src/db/orm.ts';
import { entities } from '../src/features/index.ts';

const MIGRATIONS = new URL('../src/db/migrations/', import.meta.url);

/** Adds the migration `name` (file `name.ts`, class `name`) to the end of the list the ORM runs. */
async function listMigration(name: string): Promise<void> {
  const index = new URL('index.ts', MIGRATIONS);
  const text = await readFile(index, 'utf8');
  const imports = [...text.matchAll(/^import .*$/gm)];
  const lastImport = imports.at(-1)!;
  const afterImports = lastImport.index + lastImport[0].length;
  const withImport = `${text.slice(0, afterImports)}\nimport { ${name} } from './${name}.ts';${text.slice(afterImports)}`;
  const listEnd = withImport.lastIndexOf('];');
  await writeFile(index, `${withImport.slice(0, listEnd)}  { name: '${name}', class: ${name} },\n${withImport.slice(listEnd)}`);
}

const scratch = await startEmbeddedPostgres('memory://');
const config = ormConfig(scratch.url, 1, entities);
const orm = await MikroORM.init({
  ...config,
  migrations: { ...config.migrations, path: MIGRATIONS.pathname, emit: 'ts' },
});
try {
  await orm.migrator.up();
  const result = await orm.migrator.create(undefined, false, false, process.argv[2]);
  if (result.diff.up.length === 0) {
    console.log('the entities match the migrations; nothing written');
  } else {
    await listMigration(result.fileName.replace(/\.ts$/, ''));
    console.log(`wrote ${result.fileName} and listed it in src/db/migrations/index.ts`);
  }
} finally {
  await orm.close(true);
  await scratch.stop();
}
