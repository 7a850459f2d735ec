import { access, chmod, cp, readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';

/**
 * Copying the PGlite template into a data directory, and sharing the template between users
 * (pglite-template.ts says why). Node's own modules only: a process of another user can load this
 * file alone (test/container/pglite-template-permissions.test.ts does).
 */

/** The file by which a data directory counts as made (PGlite resumes one that has it). */
export const MADE = 'PG_VERSION';

/** Whether `templateDir` holds a made data directory. */
export const isMadeDataDir = (templateDir: string): Promise<boolean> => access(join(templateDir, MADE)).then(() => true, () => false);

/** Every entry inside `directory` (not itself; no symbolic links), as a path relative to it. */
async function entriesWithin(directory: string): Promise<{ path: string; isDirectory: boolean }[]> {
  return (await readdir(directory, { recursive: true, withFileTypes: true }))
    .filter((entry) => !entry.isSymbolicLink())
    .map((entry) => ({ path: relative(directory, join(entry.parentPath, entry.name)), isDirectory: entry.isDirectory() }));
}

/**
 * Makes `dataDir` (a new, empty directory on disk but for dot-named entries) a copy of
 * `templateDir`, private to this process's user. PG_VERSION is copied last: a copy cut short is
 * made again at the next start. False when `templateDir` holds no data directory.
 */
export async function copyTemplateDir(templateDir: string, dataDir: string): Promise<boolean> {
  if (!(await isMadeDataDir(templateDir))) return false;
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
export async function shareTemplateDir(templateDir: string): Promise<void> {
  await chmod(templateDir, 0o755);
  for (const entry of await entriesWithin(templateDir)) await chmod(join(templateDir, entry.path), entry.isDirectory ? 0o755 : 0o644);
}
