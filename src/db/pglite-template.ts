import { readFileSync } from 'node:fs';
import { access, chmod, cp, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

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

/** The file by which a data directory counts as made (PGlite resumes one that has it). */
const MADE = 'PG_VERSION';

/** The template as a tarball, if it has been made for this PGlite version. */
export const readTemplate = (): Promise<Blob | undefined> =>
  readFile(TEMPLATE_PATH).then((bytes) => new Blob([bytes]), () => undefined);

/** Whether the template directory has been made for this PGlite version. */
export const hasTemplateDir = (templateDir = TEMPLATE_DIR): Promise<boolean> =>
  access(join(templateDir, MADE)).then(() => true, () => false);

/** Every entry inside `directory` (not itself; no symbolic links), as a path relative to it. */
async function entriesWithin(directory: string): Promise<{ path: string; isDirectory: boolean }[]> {
  return (await readdir(directory, { recursive: true, withFileTypes: true }))
    .filter((entry) => !entry.isSymbolicLink())
    .map((entry) => ({ path: relative(directory, join(entry.parentPath, entry.name)), isDirectory: entry.isDirectory() }));
}

/**
 * Makes `dataDir` (a new, empty directory on disk but for dot-named entries) a copy of the
 * template directory. Handing PGlite the tarball instead (its `loadDataDir`) unzips the whole
 * archive (40 MB, most of it the first WAL segment) into one buffer and copies every file out of
 * it, and the process keeps much of that memory for as long as it runs; the copy costs none.
 * PG_VERSION is copied last: a copy cut short is made again at the next start. False when there
 * is no template directory.
 */
export async function copyTemplate(dataDir: string, templateDir = TEMPLATE_DIR): Promise<boolean> {
  if (!(await hasTemplateDir(templateDir))) return false;
  // Closed before anything is copied in. A directory someone else made for us (a volume mounted
  // with another owner, Kubernetes' fsGroup) keeps its mode; the files below are private anyway.
  await chmod(dataDir, 0o700).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPERM') throw error;
  });
  await cp(templateDir, dataDir, {
    recursive: true,
    force: true,
    preserveTimestamps: true,
    filter: (source) => source !== join(templateDir, MADE),
  });
  // A copy keeps the template's modes, which let every user read.
  for (const entry of await entriesWithin(templateDir)) {
    if (entry.path !== MADE) await chmod(join(dataDir, entry.path), entry.isDirectory ? 0o700 : 0o600);
  }
  await cp(join(templateDir, MADE), join(dataDir, MADE), { force: true, preserveTimestamps: true });
  await chmod(join(dataDir, MADE), 0o600);
  return true;
}

/**
 * Makes the template directory readable by every user and writable by its owner only. initdb
 * leaves some files to their owner alone (pg_logical/replorigin_checkpoint: 0600), which a
 * service running as another user then cannot copy (EACCES at its first start), and PGlite
 * leaves the others writable by everyone.
 */
export async function shareTemplateDir(templateDir = TEMPLATE_DIR): Promise<void> {
  await chmod(templateDir, 0o755);
  for (const entry of await entriesWithin(templateDir)) await chmod(join(templateDir, entry.path), entry.isDirectory ? 0o755 : 0o644);
}

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
