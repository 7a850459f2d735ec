import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';

/**
 * The real service as a process of its own (`node src/main.ts`, or the CLI's `serve`), for
 * what only a process shows: its start, what it prints, signals, being killed.
 */
export type ServiceProcess = {
  base: string;
  port: number;
  child: ChildProcess;
  /** Whether /healthz answered (false: the process exited first). */
  ready: boolean;
  output(): { stdout: string; stderr: string };
  exited: Promise<number | null>;
  /** Sends the signal (unless the process has ended) and waits for the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
};

export const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

const ROOT = new URL('../../', import.meta.url).pathname;

/**
 * Starts it with `env` on a free port and waits until /healthz answers or the process ends.
 * `command` is the program to run (default: this Node.js, given `args`).
 */
export async function startServiceProcess({
  env,
  command = process.execPath,
  args = ['src/main.ts'],
  timeoutMs = 30_000,
}: {
  env: Record<string, string>;
  command?: string;
  args?: string[];
  timeoutMs?: number;
}): Promise<ServiceProcess> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let ready = false;
  for (const started = Date.now(); !ready && child.exitCode === null && Date.now() - started < timeoutMs; ) {
    ready = await fetch(`${base}/healthz`).then((r) => r.ok, () => false);
    if (!ready) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    base,
    port,
    child,
    ready,
    output: () => ({ stdout, stderr }),
    exited,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}
