import { readFileSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { copyTemplateDir, isMadeDataDir, shareTemplateDir } from './template-copy.ts';

/**
 * A freshly initialised, empty PGlite data directory. Creating a database cluster (initdb) is
 * most of what a first start on the embedded database costs, about two seconds of WebAssembly;
 * copying this one takes a fraction of that. The migrations still run on it as on any new
 * database. It is made once, when the project is installed (`npm run prepare`, which `npm ci`
 * runs; scripts/pglite-template.ts), for the installed PGlite version, and lives in
 * node_modules/.cache in two forms: a directory, which a new data directory on disk is copied
 * from file by file (by the operating system: no byte of it passes through the process's
 * memory), and a tarball, which PGlite loads for a database in memory (`memory://`). Without
 * either a first start simply runs initdb.
 *
 * Whoever installs makes the template (root, in the container image) and whoever runs the service
 * copies it (the image's user `node`): the template is readable by every user (an empty database
 * holds no secret), and a data directory made from it is its owner's alone, as PostgreSQL's are.
 */

// The installed PGlite (its package.json is not among its exports, so found from its entry point).
const PACKAGE = '/@electric-sql/pglite/';
const entry = fileURLToPath(import.meta.resolve('@electric-sql/pglite'));
const packageDir = entry.slice(0, entry.lastIndexOf(PACKAGE) + PACKAGE.length);
const PGLITE_VERSION = (JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version: string }).version;
const CACHE = join(packageDir, '..', '..', '.cache', 'consent-domain-config');

export const TEMPLATE_PATH = join(CACHE, `pglite-${PGLITE_VERSION}-empty.tar.gz`);
export const TEMPLATE_DIR = join(CACHE, `pglite-${PGLITE_VERSION}-empty`);


/** The template as a tarball, if it has been made for this PGlite version. */
export const readTemplate = (): Promise<Blob | undefined> =>
  readFile(TEMPLATE_PATH).then((bytes) => new Blob([bytes]), () => undefined);

/** Whether the template directory has been made for this PGlite version. */
export const hasTemplateDir = (templateDir = TEMPLATE_DIR): Promise<boolean> => isMadeDataDir(templateDir);

/**
 * Makes `dataDir` (a new, empty directory on disk but for dot-named entries) a copy of the
 * template directory (template-copy.ts). Handing PGlite the tarball instead (its `loadDataDir`)
 * unzips the whole archive (40 MB, most of it the first WAL segment) into one buffer and copies
 * every file out of it, and the process keeps much of that memory for as long as it runs; the
 * copy costs none. False when there is no template directory.
 */
export const copyTemplate = (dataDir: string, templateDir = TEMPLATE_DIR): Promise<boolean> => copyTemplateDir(templateDir, dataDir);

/**
 * Stores the template directory: `make` initialises a data directory in the (new) directory it
 * is given, which is then shared (shareTemplateDir) and renamed into place (so a reader never
 * sees half of one).
 */
export async function writeTemplateDir(make: (directory: string) => Promise<void>, templateDir = TEMPLATE_DIR): Promise<string> {
  await mkdir(dirname(templateDir), { recursive: true });
  const partial = `${templateDir}.${process.pid}.partial`;
  await rm(partial, { recursive: true, force: true });
  try {
    await make(partial);
    await shareTemplateDir(partial);
    await rm(templateDir, { recursive: true, force: true });
    await rename(partial, templateDir);
  } finally {
    await rm(partial, { recursive: true, force: true });
  }
  return templateDir;
}

/** Stores the template (written aside and renamed, so a reader never sees half a file). */
export async function writeTemplate(data: Blob): Promise<string> {
  await mkdir(dirname(TEMPLATE_PATH), { recursive: true });
  const partial = `${TEMPLATE_PATH}.${process.pid}.partial`;
  await writeFile(partial, Buffer.from(await data.arrayBuffer()));
  await rename(partial, TEMPLATE_PATH);
  return TEMPLATE_PATH;
}
