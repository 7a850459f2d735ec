import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, chown, copyFile, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeTemplateDir } from '../../src/db/pglite-template.ts';

/**
 * The container image makes the PGlite template as root and runs the service as `node`, whose
 * first start copies it into DATA_DIR. Here root makes a template and `nobody` copies it, as in
 * the image (scripts/replay-runtime-stage.ts replays the whole image the same way).
 */

const run = promisify(execFile);
const NOBODY = 65534;
const TEMPLATE_COPY_MODULE = fileURLToPath(new URL('../../src/db/template-copy.ts', import.meta.url));

let base: string;
let templateDir: string;

/** A data directory as initdb leaves it: one file for its owner alone (PostgreSQL's replication origins), the others writable by all (PGlite). */
async function makeLikeInitdb(directory: string): Promise<void> {
  await mkdir(join(directory, 'pg_logical'), { recursive: true, mode: 0o700 });
  await mkdir(join(directory, 'base', '1'), { recursive: true });
  await writeFile(join(directory, 'pg_logical', 'replorigin_checkpoint'), 'checkpoint', { mode: 0o600 });
  await writeFile(join(directory, 'base', '1', '1259'), 'pg_class', { mode: 0o666 });
  await writeFile(join(directory, 'postgresql.conf'), 'shared_buffers = 128MB\n', { mode: 0o666 });
  await writeFile(join(directory, 'PG_VERSION'), '17\n', { mode: 0o600 });
  // The modes above must hold whatever the umask is.
  await chmod(join(directory, 'base', '1', '1259'), 0o666);
  await chmod(join(directory, 'postgresql.conf'), 0o666);
}

/** Path (relative) → mode and owner of everything inside `directory`. */
async function modesWithin(directory: string): Promise<Map<string, { mode: number; uid: number; isDirectory: boolean }>> {
  const modes = new Map<string, { mode: number; uid: number; isDirectory: boolean }>();
  for (const entry of await readdir(directory, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    const found = await stat(path);
    modes.set(relative(directory, path), { mode: found.mode & 0o777, uid: found.uid, isDirectory: found.isDirectory() });
  }
  return modes;
}

/**
 * The copy run by `nobody` in a process of its own; resolves to what it returned. The module and
 * node are copied where nobody may read them (the project may lie in a directory only root can
 * enter, as a fresh clone in a `mktemp -d` does); template-copy.ts needs only Node's own modules.
 */
async function copyAsNobody(dataDir: string): Promise<string> {
  const tools = join(base, 'tools');
  await mkdir(tools, { recursive: true });
  await copyFile(TEMPLATE_COPY_MODULE, join(tools, 'template-copy.ts'));
  await copyFile(process.execPath, join(tools, 'node'));
  await chmod(join(tools, 'node'), 0o755);
  const script = `const { copyTemplateDir } = await import(process.env.TEMPLATE_MODULE);
process.stdout.write(String(await copyTemplateDir(process.env.TEMPLATE_DIR, process.env.DATA_DIR)));`;
  const { stdout } = await run(
    'setpriv',
    ['--reuid=nobody', '--regid=nogroup', '--clear-groups', join(tools, 'node'), '--input-type=module', '-e', script],
    { cwd: tools, env: { PATH: process.env.PATH, TEMPLATE_MODULE: pathToFileURL(join(tools, 'template-copy.ts')).href, DATA_DIR: dataDir, TEMPLATE_DIR: templateDir } },
  );
  return stdout;
}

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'pglite-template-'));
  // Others may pass through, as through / and /app in the image.
  await chmod(base, 0o755);
  templateDir = join(base, 'cache', 'pglite-empty');
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('the PGlite template', () => {
  it('is readable by every user and writable by its owner only', async () => {
    await writeTemplateDir(makeLikeInitdb, templateDir);

    expect((await stat(templateDir)).mode & 0o777).toBe(0o755);
    const modes = await modesWithin(templateDir);
    expect([...modes.keys()].sort()).toEqual(
      ['PG_VERSION', 'base', 'base/1', 'base/1/1259', 'pg_logical', 'pg_logical/replorigin_checkpoint', 'postgresql.conf'].sort(),
    );
    for (const [path, { mode, isDirectory }] of modes) expect([path, mode]).toEqual([path, isDirectory ? 0o755 : 0o644]);
  });
});

const canSwitchUser = process.getuid?.() === 0 && existsSync('/usr/bin/setpriv');

describe.skipIf(!canSwitchUser)('a template made by root, copied by a service running as another user', () => {
  it('becomes a data directory of that user, closed to everyone else', async () => {
    await writeTemplateDir(makeLikeInitdb, templateDir);
    // As the Dockerfile makes /data: by root, then given to the service's user.
    const dataDir = join(base, 'data');
    await mkdir(dataDir);
    await chown(dataDir, NOBODY, NOBODY);

    expect(await copyAsNobody(dataDir)).toBe('true');

    const root = await stat(dataDir);
    expect({ mode: root.mode & 0o777, uid: root.uid }).toEqual({ mode: 0o700, uid: NOBODY });
    const copied = await modesWithin(dataDir);
    expect([...copied.keys()].sort()).toEqual([...(await modesWithin(templateDir)).keys()].sort());
    for (const [path, { mode, uid, isDirectory }] of copied) {
      expect([path, mode, uid]).toEqual([path, isDirectory ? 0o700 : 0o600, NOBODY]);
    }
    expect(await readFile(join(dataDir, 'pg_logical', 'replorigin_checkpoint'), 'utf8')).toBe('checkpoint');
    expect(await readFile(join(dataDir, 'PG_VERSION'), 'utf8')).toBe('17\n');
  });

  it('keeps the mode of a data directory someone else owns, and still closes the files in it', async () => {
    await writeTemplateDir(makeLikeInitdb, templateDir);
    // A volume mounted with another owner that lets the service's user write (Kubernetes' fsGroup does so by group).
    const dataDir = join(base, 'volume');
    await mkdir(dataDir);
    await chmod(dataDir, 0o777);

    expect(await copyAsNobody(dataDir)).toBe('true');

    const root = await stat(dataDir);
    expect({ mode: root.mode & 0o777, uid: root.uid }).toEqual({ mode: 0o777, uid: 0 });
    for (const [path, { mode, uid, isDirectory }] of await modesWithin(dataDir)) {
      expect([path, mode, uid]).toEqual([path, isDirectory ? 0o700 : 0o600, NOBODY]);
    }
  });
});
