import { readFile } from 'node:fs/promises';
import { CatalogImportError, importOpenCookieDatabase } from '../features/catalog/import-open-cookie-database.ts';
import { withDatabase } from './database.ts';
import { type Output, progress, stdio } from './output.ts';
import { CliError } from './errors.ts';

/** `catalog import <csv>`: imports an Open Cookie Database CSV into the catalog of the configured database. */
export async function catalogImport(file: string, output: Output = stdio): Promise<void> {
  let csv: string;
  try {
    csv = await readFile(file, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read ${file}: ${(error as Error).message}`);
  }
  await withDatabase(async (database) => {
    const line = progress(output);
    try {
      const summary = await importOpenCookieDatabase(database.orm.em.fork(), csv, (done, total) => {
        line.update(`importing cookies: ${done}/${total}`);
      });
      line.done();
      const first = summary.skipped[0];
      output.out(
        `imported ${summary.rows} cookies of ${summary.services} services (${summary.newServices} new) into ${database.description}` +
          (first ? `; skipped ${summary.skipped.length} rows (first: line ${first.line}: ${first.reason})` : '') +
          '\n',
      );
    } catch (error) {
      line.done();
      if (error instanceof CatalogImportError) throw new CliError(`cannot import ${file}: ${error.message}`, 1, { cause: error });
      throw error;
    }
  });
}
