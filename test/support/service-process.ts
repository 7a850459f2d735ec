import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { openApiValidator } from './openapi-validator.ts';
import { PUBLIC_BASE_URL } from './service.ts';

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
  /**
   * A request to it as JSON (with `key` as Bearer token unless null), its answer held against
   * the OpenAPI document like every answer the test client gets.
   */
  request(method: string, path: string, options?: { key?: string | null; body?: unknown }): Promise<ProcessAnswer>;
  exited: Promise<number | null>;
  /** Sends the signal (unless the process has ended) and waits for the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
};

export type ProcessAnswer = { status: number; headers: Headers; body: unknown; text: string };

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
    async request(method, path, { key = env.ADMIN_API_KEY, body } = {}) {
      const response = await fetch(`${base}${path}`, {
        method,
        headers: {
          ...(key ? { authorization: `Bearer ${key}` } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      const json = /json/.test(response.headers.get('content-type') ?? '') && text !== '';
      const answer = { status: response.status, headers: response.headers, body: json ? JSON.parse(text) : text, text };
      openApiValidator(PUBLIC_BASE_URL).check({ method, path, ...answer });
      return answer;
    },
    exited,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}
