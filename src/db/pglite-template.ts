import { readFileSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A freshly initialised, empty PGlite data directory, kept as a tarball. Creating a database
 * cluster (initdb) is most of what a first start on the embedded database costs, about two
 * seconds of WebAssembly; unpacking this copy takes a fraction of that. The migrations still run
 * on it as on any new database. It is made once, when the project is installed (`npm run
 * prepare`, which `npm ci` runs; scripts/pglite-template.ts), for the installed PGlite version,
 * and lives in node_modules/.cache. Without it a first start simply runs initdb.
 */

// The installed PGlite (its package.json is not among its exports, so found from its entry point).
const PACKAGE = '/@electric-sql/pglite/';
const entry = fileURLToPath(import.meta.resolve('@electric-sql/pglite'));
const packageDir = entry.slice(0, entry.lastIndexOf(PACKAGE) + PACKAGE.length);
const PGLITE_VERSION = (JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version: string }).version;
const CACHE = join(packageDir, '..', '..', '.cache', 'consent-domain-config');

export const TEMPLATE_PATH = join(CACHE, `pglite-${PGLITE_VERSION}-empty.tar.gz`);

/** The template, if it has been made for this PGlite version. */
export const readTemplate = (): Promise<Blob | undefined> =>
  readFile(TEMPLATE_PATH).then((bytes) => new Blob([bytes]), () => undefined);

/** Stores the template (written aside and renamed, so a reader never sees half a file). */
export async function writeTemplate(data: Blob): Promise<string> {
  await mkdir(dirname(TEMPLATE_PATH), { recursive: true });
  const partial = `${TEMPLATE_PATH}.${process.pid}.partial`;
  await writeFile(partial, Buffer.from(await data.arrayBuffer()));
  await rename(partial, TEMPLATE_PATH);
  return TEMPLATE_PATH;
}
