/**
 * Imports an Open Cookie Database CSV into the catalog of the configured database:
 *   npm run catalog:import -- path/to/open-cookie-database.csv
 * (the npm script runs `consent-config catalog import`; this file runs the same code directly).
 */
import { catalogImport } from '../src/cli/catalog-import.ts';
import { CliError } from '../src/cli/errors.ts';

const file = process.argv[2];
if (!file) {
  console.error('usage: npm run catalog:import -- <file.csv>');
  process.exit(2);
}

try {
  await catalogImport(file);
} catch (error) {
  if (!(error instanceof CliError)) throw error;
  console.error(error.message);
  process.exitCode = error.exitCode;
}
