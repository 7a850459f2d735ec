import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import { readFile, realpath, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { StartupError } from '../startup-error.ts';

/**
 * The lock that keeps an embedded database's data directory to one process. PGlite is a single
 * PostgreSQL backend with no shared memory between processes: two processes on one directory
 * each keep their own buffers and overwrite each other's files, so writes vanish. Whoever opens
 * the directory (the service, any CLI command) takes this lock first and holds it until PGlite
 * has closed the files; a second process refuses at once, in one line naming the holder.
 *
 * The lock is the directory `<dataDir>/.lock`, made with mkdir (atomic, also on network file
 * systems) by proper-lockfile, which touches its modification time every LOCK_UPDATE_MS as a
 * heartbeat. Inside it, `owner.json` says who holds it: pid, host name, boot id, pid namespace,
 * process start, command, since when. PGlite and PostgreSQL ignore a dot-named entry of the data
 * directory (checked: initdb, loading the template and resuming all work with it there), and
 * keeping it inside the directory puts it on the same volume as the files, also when that volume
 * is shared between hosts.
 *
 * A lock that is already there is taken over:
 * - at once when its holder ran on this host (same host name and boot) and is gone: its pid is not
 *   alive (ESRCH), or is now another process (a different start time in the same pid namespace),
 *   or is our own pid, which a container restarted as pid 1 gets again;
 * - otherwise (another host on a shared volume, a host restarted since, another pid namespace
 *   under the same host name) only when its heartbeat is older than LOCK_STALE_MS.
 * A holder alive on this host is never taken over, however old its heartbeat (a blocked event
 * loop only delays the heartbeat).
 *
 * If the lock is lost while held (its directory removed, or its heartbeat could not be written
 * for LOCK_STALE_MS and another process took it over), the process may no longer write: another
 * process may have opened the files already. `onLost` is called; the default prints one line and
 * ends the process at once, without closing PGlite (closing writes a checkpoint into files that
 * may now be someone else's). What was committed is in the write-ahead log and is recovered by
 * the next start, as after a crash.
 */

export const LOCK_DIR = '.lock';
export const OWNER_FILE = 'owner.json';
/** A heartbeat older than this lets another host take the lock over. */
export const LOCK_STALE_MS = 30_000;
/** How often the holder touches the lock. */
export const LOCK_UPDATE_MS = 5_000;

/** Who holds a lock, as written in `.lock/owner.json`. */
export type LockOwner = {
  pid: number;
  hostname: string;
  /** Linux: /proc/sys/kernel/random/boot_id (another value: another boot, or another machine). */
  bootId?: string;
  /** Linux: the pid namespace (a container has its own), where `pid` means something. */
  pidNamespace?: string;
  /** Linux: the process's start in clock ticks since boot (tells a reused pid from the holder). */
  startTicks?: string;
  /** The program and its command, e.g. `consent-config.ts client create`. */
  command: string;
  processStartedAt: string;
  lockedAt: string;
  /** Distinguishes this holding from any other, for the take-over. */
  token: string;
};

export type DataDirLock = {
  /** Gives the lock up (once; later calls do nothing). */
  release(): Promise<void>;
};

export type LockOptions = {
  /** The lock was lost while held; default: one line on stderr and exit code 1, at once. */
  onLost?: (message: string, error: Error) => void;
  /** A lock left by a process that is gone was taken over; default: one line on stderr. */
  onTakeOver?: (message: string) => void;
};

/** Directories this process holds (by real path), so a second open in the same process is refused. */
const held = new Set<string>();

/**
 * proper-lockfile's file system, except that removing the lock removes the owner file in it too
 * (its release, its stale-lock removal and its clean-up on exit all use `rmdir`).
 */
const lockFs = {
  ...fs,
  rmdir: (path: string, callback: (error: NodeJS.ErrnoException | null) => void) => fs.rm(path, { recursive: true, force: true }, callback),
  rmdirSync: (path: string) => fs.rmSync(path, { recursive: true, force: true }),
};

/** Takes the lock on `dataDir` (which must exist) or throws a StartupError saying who holds it. */
export async function lockDataDir(dataDir: string, options: LockOptions = {}): Promise<DataDirLock> {
  const shown = resolve(dataDir);
  const directory = await realpath(dataDir);
  const lockPath = join(directory, LOCK_DIR);
  if (held.has(directory)) throw new StartupError(`data directory ${shown} is already open in this process`);
  // Claimed at once (no await in between), so that two opens in this process cannot both go on.
  held.add(directory);
  // Given back once: when the lock is released or lost (a later open in this process has its own claim).
  let claimed = true;
  const forget = () => {
    if (claimed) held.delete(directory);
    claimed = false;
  };
  try {
    return await acquire(directory, shown, lockPath, options, forget);
  } catch (error) {
    forget();
    throw error;
  }
}

async function acquire(directory: string, shown: string, lockPath: string, options: LockOptions, forget: () => void): Promise<DataDirLock> {
  const onLost = options.onLost ?? exitOnLostLock;
  const onTakeOver = options.onTakeOver ?? ((message: string) => process.stderr.write(`${message}\n`));

  // Loaded only here: it hooks process exit and signals to remove its locks, which a service on
  // PostgreSQL or in memory has no use for.
  const { lock } = await import('proper-lockfile');
  let releasing = false;
  let release: (() => Promise<void>) | undefined;
  // A few rounds: each ends in the lock, a refusal, or a race lost to another process that is then looked at again.
  for (let round = 0; round < 5 && !release; round++) {
    const found = await inspect(lockPath);
    if (found.state === 'held') throw new StartupError(refusal(shown, found));
    if (found.state === 'stale') {
      if (!(await takeOver(lockPath, found))) continue;
      onTakeOver(`data directory ${shown}: took over the lock of ${describeHolder(found.owner)}: ${found.reason}`);
    }
    try {
      release = await lock(directory, {
        lockfilePath: lockPath,
        realpath: false,
        stale: LOCK_STALE_MS,
        update: LOCK_UPDATE_MS,
        retries: 0,
        fs: lockFs,
        onCompromised: (error) => {
          if (releasing) return;
          forget();
          onLost(`data directory ${shown} lost its lock (${lossReason(error)}); stopping at once so that this process writes nothing more into files another process may have opened (committed data is kept); start it again once no other process uses the directory`, error);
        },
      });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ELOCKED') continue;
      throw new StartupError(`cannot lock the data directory ${shown}: ${(error as Error).message}`, { cause: error });
    }
  }
  if (!release) throw new StartupError(`cannot lock the data directory ${shown}: other processes keep taking and giving up its lock; try again`);

  try {
    await writeOwner(lockPath);
  } catch (error) {
    releasing = true;
    await release().catch(() => {});
    throw new StartupError(`cannot lock the data directory ${shown}: ${(error as Error).message}`, { cause: error });
  }

  return {
    async release() {
      if (releasing) return;
      releasing = true;
      forget();
      // Already lost (onLost was called): nothing to give up.
      await release().catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ERELEASED') throw error;
      });
    },
  };
}

/** What this process is, as a lock's owner. */
function ownOwner(): LockOwner {
  const words = process.argv.slice(2).filter((word) => !word.startsWith('-')).slice(0, 2);
  return {
    pid: process.pid,
    hostname: hostname(),
    bootId: bootId(),
    pidNamespace: pidNamespace(),
    startTicks: startTicks('self'),
    command: [basename(process.argv[1] ?? process.argv0), ...words].join(' '),
    processStartedAt: new Date(Date.now() - process.uptime() * 1000).toISOString(),
    lockedAt: new Date().toISOString(),
    token: randomUUID(),
  };
}

/**
 * Writes owner.json into the lock just made (written aside and renamed, so a reader never sees
 * half of it). That changes the lock directory's modification time, which proper-lockfile checks
 * at each heartbeat as its own: it is set back to what it was.
 */
async function writeOwner(lockPath: string): Promise<void> {
  const { mtime } = await stat(lockPath);
  const partial = join(lockPath, `${OWNER_FILE}.partial`);
  await writeFile(partial, `${JSON.stringify(ownOwner(), null, 2)}\n`);
  await rename(partial, join(lockPath, OWNER_FILE));
  await utimes(lockPath, mtime, mtime);
}

type Taken = { owner: LockOwner | undefined; heartbeat: Date; sameHost: boolean; reason: string };
type Found = { state: 'free' } | (Taken & { state: 'held' }) | (Taken & { state: 'stale' });

/** Looks at the lock on a data directory: free, held, or left by a holder that is gone. */
async function inspect(lockPath: string): Promise<Found> {
  let heartbeat: Date;
  try {
    heartbeat = (await stat(lockPath)).mtime;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { state: 'free' };
    throw new StartupError(`cannot read the lock ${lockPath}: ${(error as Error).message}`, { cause: error });
  }
  const owner = await readOwner(lockPath);
  const heartbeatStale = heartbeat.getTime() < Date.now() - LOCK_STALE_MS;
  const byHeartbeat = (sameHost: boolean, why: string): Found =>
    heartbeatStale
      ? { state: 'stale', owner, heartbeat, sameHost, reason: `${why}, and its last heartbeat was at ${heartbeat.toISOString()}` }
      : { state: 'held', owner, heartbeat, sameHost, reason: why };
  // Just being made by another process, or left half made.
  if (!owner) return byHeartbeat(false, 'no owner is recorded in it');

  const ours = ownOwner();
  const sameHost = owner.hostname === ours.hostname && (!owner.bootId || !ours.bootId || owner.bootId === ours.bootId);
  if (!sameHost) return byHeartbeat(false, owner.hostname === ours.hostname ? 'its host has restarted since, or is another machine of the same name' : 'it is on another host');
  const stale = (reason: string): Found => ({ state: 'stale', owner, heartbeat, sameHost, reason });
  if (owner.pid === process.pid) return stale(`its pid is this process's own (${process.pid}): it was an earlier run, e.g. a container restarted`);
  if (!alive(owner.pid)) return stale(`process ${owner.pid} is not running`);
  const samePidNamespace = !owner.pidNamespace || !ours.pidNamespace || owner.pidNamespace === ours.pidNamespace;
  if (!samePidNamespace) return byHeartbeat(true, 'it is in another pid namespace (container), where its pid cannot be checked');
  const ticks = startTicks(owner.pid);
  if (owner.startTicks && ticks && owner.startTicks !== ticks) return stale(`pid ${owner.pid} now belongs to another process`);
  return { state: 'held', owner, heartbeat, sameHost, reason: 'it is running' };
}

async function readOwner(lockPath: string): Promise<LockOwner | undefined> {
  try {
    const owner = JSON.parse(await readFile(join(lockPath, OWNER_FILE), 'utf8')) as Partial<LockOwner>;
    if (!Number.isInteger(owner.pid) || owner.pid! <= 0 || typeof owner.hostname !== 'string' || typeof owner.token !== 'string') return undefined;
    return owner as LockOwner;
  } catch {
    return undefined;
  }
}

/**
 * Removes a lock whose holder is gone. Moved aside first (a rename is atomic) and checked to be
 * the very lock that was looked at (same owner, no heartbeat since), so that two processes taking
 * over at once cannot remove a lock the other has just made; false: it changed meanwhile, look again.
 */
async function takeOver(lockPath: string, found: Taken): Promise<boolean> {
  const aside = `${lockPath}.stale-${randomUUID()}`;
  try {
    await rename(lockPath, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw new StartupError(`cannot take over the lock ${lockPath}: ${(error as Error).message}`, { cause: error });
  }
  const moved = await readOwner(aside);
  const heartbeat = await stat(aside).then((status) => status.mtime.getTime(), () => undefined);
  if (moved?.token !== found.owner?.token || heartbeat !== found.heartbeat.getTime()) {
    // Another process's new lock: put it back (if that fails, its holder notices at its next heartbeat and stops).
    await rename(aside, lockPath).catch(() => {});
    return false;
  }
  await rm(aside, { recursive: true, force: true });
  return true;
}

function refusal(shown: string, found: Taken): string {
  const advice = 'stop it first, or use the running service\'s API';
  const expires = new Date(found.heartbeat.getTime() + LOCK_STALE_MS).toISOString();
  if (!found.owner) {
    return `data directory ${shown} is being locked by another process (${found.reason} yet); ${advice}. A lock without an owner is given up ${LOCK_STALE_MS / 1000} s after its last heartbeat, at ${expires}`;
  }
  const line = `data directory ${shown} is in use by ${describeHolder(found.owner)} since ${found.owner.lockedAt}; ${advice}`;
  if (found.sameHost && found.reason === 'it is running') return line;
  return `${line}. As ${found.reason}, its lock is taken over only when its heartbeat is older than ${LOCK_STALE_MS / 1000} s: if that process is gone, start again after ${expires}`;
}

const describeHolder = (owner: LockOwner | undefined) =>
  owner ? `process ${owner.pid} (${owner.command}) on host ${owner.hostname}` : 'a process that recorded no owner';

function lossReason(error: Error): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (/ENOENT/.test(error.message)) return 'its lock directory was removed';
  if (code === 'ECOMPROMISED' && /stale threshold/.test(error.message)) {
    return 'another process changed it: the heartbeat was late, e.g. a blocked event loop, and the lock was taken over';
  }
  return `its heartbeat could not be written: ${error.message}`;
}

/** The default when the lock is lost: one line, and the process ends before it writes again. */
function exitOnLostLock(message: string): void {
  try {
    fs.writeSync(2, `error: ${message}\n`);
  } finally {
    process.exit(1);
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

function readProc(path: string): string | undefined {
  try {
    return fs.readFileSync(path, 'utf8').trim();
  } catch {
    return undefined;
  }
}

const bootId = () => readProc('/proc/sys/kernel/random/boot_id');

function pidNamespace(): string | undefined {
  try {
    return fs.readlinkSync('/proc/self/ns/pid');
  } catch {
    return undefined;
  }
}

/** Field 22 of /proc/<pid>/stat (after the command name, which may hold spaces and parentheses). */
function startTicks(pid: number | 'self'): string | undefined {
  const line = readProc(`/proc/${pid}/stat`);
  return line?.slice(line.lastIndexOf(')') + 2).split(' ')[19];
}
