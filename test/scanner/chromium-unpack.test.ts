import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

/**
 * The Chromium inside the npm package is unpacked on first use; scan workers and test runs
 * started at once must not start it while another process is still writing it (`spawn ETXTBSY`).
 */

const SYSTEM = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable'].some((path) => existsSync(path));
const CHROMIUM_MODULE = new URL('../../src/scanner/chromium.ts', import.meta.url).href;

/** A process that finds the packaged Chromium (unpacking it into `dir`) and runs it. */
const FIND_AND_RUN = `
import { execFileSync } from 'node:child_process';
import { findChromium } from ${JSON.stringify(CHROMIUM_MODULE)};
const { path } = await findChromium(undefined);
process.stdout.write(execFileSync(path, ['--version']).toString());
`;

describe.skipIf(SYSTEM)('the packaged Chromium', () => {
  it('is unpacked once when three processes need it at once, and each can start it', { timeout: 180_000 }, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'chromium-unpack-'));
    try {
      const runs = await Promise.allSettled(
        Array.from({ length: 3 }, () =>
          promisify(execFile)(process.execPath, ['--input-type=module', '-e', FIND_AND_RUN], { env: { ...process.env, TMPDIR: dir }, timeout: 150_000 }),
        ),
      );
      for (const run of runs) {
        expect(run.status, run.status === 'rejected' ? String(run.reason) : '').toBe('fulfilled');
        if (run.status === 'fulfilled') expect(run.value.stdout).toMatch(/Chromium \d+/);
      }
      expect(existsSync(join(dir, 'chromium.unpacking'))).toBe(false);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('takes over a lock whose process is gone, rather than waiting for it', { timeout: 60_000 }, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'chromium-unpack-'));
    try {
      // A process that ended: its pid is free (and not reused within the test).
      const ended = await new Promise<number>((resolve) => {
        const child = execFile(process.execPath, ['-e', '']);
        child.once('exit', () => resolve(child.pid!));
      });
      await writeFile(join(dir, 'chromium.unpacking'), String(ended));
      const started = performance.now();
      const run = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', FIND_AND_RUN], { env: { ...process.env, TMPDIR: dir }, timeout: 50_000 });
      expect(run.stdout).toMatch(/Chromium \d+/);
      // Well within the two minutes after which any lock counts as left behind.
      expect(performance.now() - started).toBeLessThan(45_000);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
