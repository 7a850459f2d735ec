/**
 * The benchmark's processes: starting a server and waiting until it answers, and reading what
 * a process costs from /proc (resident memory, CPU time, its descendants).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

export const ROOT = new URL('../..', import.meta.url).pathname;
export const NODE = process.execPath;

export type Proc = { name: string; child: ChildProcess; pid: number; port: number; base: string; readyMs: number; stop(): Promise<void> };

export const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function waitFor(url: string, headers: Record<string, string> = {}, timeoutMs = 120_000): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < timeoutMs) {
    if (await fetch(url, { headers }).then((r) => r.ok, () => false)) return performance.now() - started;
    await sleep(20);
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

/** How the service is started, as `npm start` does. */
export const SERVICE = ['bin/consent-config.js', 'serve'];

/** Starts `node <script> [args…]` on a free port and resolves once `readyPath` answers 2xx. */
export async function startProcess(name: string, command: string | string[], env: Record<string, string>, readyPath: string): Promise<Proc> {
  const [script, ...args] = typeof command === 'string' ? [command] : command;
  const port = await freePort();
  const started = performance.now();
  const child = spawn(NODE, [join(ROOT, script!), ...args], {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`${script} exited with code ${code} before it was ready`))),
  );
  exited.catch(() => {});
  await Promise.race([waitFor(`${base}${readyPath}`), exited]);
  return {
    name,
    child,
    pid: child.pid!,
    port,
    base,
    readyMs: performance.now() - started,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await gone;
    },
  };
}

/** Resident memory of a process in MiB (0 once it is gone). */
export async function rssMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/** Clock ticks per second of /proc/<pid>/stat's CPU times (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** The fields of /proc/<pid>/stat after the command name (which may hold spaces): [0] is the state. */
async function statFields(pid: number): Promise<string[] | undefined> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  return stat?.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** CPU time (user + system) a process has used, in ms; 0 once it is gone. */
export async function cpuMs(pid: number): Promise<number> {
  const fields = await statFields(pid);
  if (!fields) return 0;
  return ((Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND) * 1000;
}

/** Every process descended from `pid`, with its command name. */
export async function descendants(pid: number): Promise<{ pid: number; comm: string }[]> {
  const entries = (await readdir('/proc')).filter((entry) => /^\d+$/.test(entry));
  const parents = new Map<number, { parent: number; comm: string }>();
  await Promise.all(
    entries.map(async (entry) => {
      const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => undefined);
      if (!stat) return;
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(Number(entry), { parent, comm });
    }),
  );
  const found: { pid: number; comm: string }[] = [];
  const reached = new Set([pid]);
  // Parents come before children in no particular order: repeat until nothing more joins.
  for (let grew = true; grew; ) {
    grew = false;
    for (const [child, { parent, comm }] of parents) {
      if (!reached.has(child) && reached.has(parent)) {
        reached.add(child);
        found.push({ pid: child, comm });
        grew = true;
      }
    }
  }
  return found;
}

/** The descendants of `pid` that are a Chromium (chrome, chromium, headless_shell and their helpers). */
export async function chromiumDescendants(pid: number): Promise<number> {
  return (await descendants(pid)).filter(({ comm }) => /chrom|headless_shell/i.test(comm)).length;
}

/** Resident memory of a process and all its descendants, in MiB. */
export async function treeRssMiB(pid: number): Promise<number> {
  const all = [pid, ...(await descendants(pid)).map((d) => d.pid)];
  return (await Promise.all(all.map(rssMiB))).reduce((a, b) => a + b, 0);
}
