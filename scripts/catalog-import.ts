/**
 * Imports an Open Cookie Database CSV into the catalog of the configured database:
 *   npm run catalog:import -- path/to/open-cookie-database.csv
 */
import { readFile } from 'node:fs/promises';
import { loadSettings } from '../src/config.ts';
import { openDatabase } from '../src/db/orm.ts';
import { CatalogImportError, importOpenCookieDatabase } from '../src/onboarding/catalog/import-open-cookie-database.ts';

const file = process.argv[2];
if (!file) {
  console.error('usage: npm run catalog:import -- <file.csv>');
  process.exit(2);
}

let csv: string;
try {
  csv = await readFile(file, 'utf8');
} catch (error) {
  console.error(`cannot read ${file}: ${(error as Error).message}`);
  process.exit(1);
}

const settings = loadSettings();
const database = await openDatabase({ databaseUrl: settings.databaseUrl, dataDir: settings.dataDir, poolSize: 1 });
try {
  const summary = await importOpenCookieDatabase(database.orm.em.fork(), csv, (done, total) => {
    process.stderr.write(`\rimporting cookies: ${done}/${total}`);
  });
  process.stderr.write('\n');
  console.log(
    `imported ${summary.rows} cookies of ${summary.services} services (${summary.newServices} new) into ${database.description}` +
      (summary.skipped.length > 0 ? `; skipped ${summary.skipped.length} rows (first: line ${summary.skipped[0]!.line}: ${summary.skipped[0]!.reason})` : ''),
  );
} catch (error) {
  if (!(error instanceof CatalogImportError)) throw error;
  console.error(`cannot import ${file}: ${error.message}`);
  process.exitCode = 1;
} finally {
  await database.close();
}
