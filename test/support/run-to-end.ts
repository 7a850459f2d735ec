import { spawn } from 'node:child_process';

/** What a finished process left: its exit code (null: killed), its output, how long it ran. */
export type Finished = { code: number | null; stdout: string; stderr: string; ms: number };

const ROOT = new URL('../../', import.meta.url).pathname;

/**
 * Runs `args` with this Node.js (the project's pinned one) in the repository, `env` over the
 * test's own environment, to its end; never rejects for an exit code. Killed after `deadlineMs`.
 */
export function runToEnd(args: string[], env: Record<string, string>, { deadlineMs = 60_000, command = process.execPath } = {}): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const deadline = setTimeout(() => child.kill('SIGKILL'), deadlineMs);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(deadline);
      resolve({ code, stdout, stderr, ms: Date.now() - started });
    });
  });
}
