import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { chromiumFlags, findChromium } from '../../src/scanner/chromium.ts';
import { loadSettings } from '../../src/config.ts';

/** Which Chromium a scan runs: CHROME_PATH, else a system browser, else the one inside the npm package. */
describe('findChromium', () => {
  it('takes CHROME_PATH when it names an executable, before anything else', async () => {
    expect(await findChromium(process.execPath)).toEqual({ path: process.execPath, source: 'CHROME_PATH' });
  });

  it('refuses a CHROME_PATH that is not an executable, in one clear message, rather than falling back', async () => {
    await expect(findChromium('/nonexistent/chromium')).rejects.toThrow('CHROME_PATH /nonexistent/chromium is not an executable file');
  });

  it('prefers a system Chromium to the packaged one', { timeout: 60_000 }, async () => {
    const system = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable'].find((path) =>
      existsSync(path),
    );
    const found = await findChromium(undefined);
    if (system) expect(found).toEqual({ path: system, source: 'system' });
    else {
      expect(found.source).toBe('@sparticuz/chromium');
      expect(existsSync(found.path)).toBe(true);
    }
  });
});

describe('the sandbox flag', () => {
  it('keeps Chromium sandboxed unless the process is root or SCAN_CHROMIUM_SANDBOX=0 turns it off', () => {
    const root = process.getuid?.() === 0;
    expect(chromiumFlags().includes('--no-sandbox')).toBe(root);
    expect(chromiumFlags({ noSandbox: true })).toContain('--no-sandbox');
    expect(loadSettings({}).scan.chromiumSandbox).toBe(true);
    expect(loadSettings({ SCAN_CHROMIUM_SANDBOX: '0' }).scan.chromiumSandbox).toBe(false);
    expect(() => loadSettings({ SCAN_CHROMIUM_SANDBOX: 'off' })).toThrow(/SCAN_CHROMIUM_SANDBOX/);
  });
});
