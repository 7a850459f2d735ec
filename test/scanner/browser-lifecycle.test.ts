import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_IDLE_CLOSE_MS, createSharedBrowser, type SharedBrowser } from '../../src/scanner/browser.ts';
import { createScanner, DEFAULT_SCAN_LIMITS, type ScanLimits } from '../../src/scanner/scan.ts';
import { type FixtureWebsites, startFixtureWebsites } from '../fixtures/websites.ts';
import { createDomain } from '../support/fixtures.ts';
import { startScanningTestService } from '../support/scanning-service.ts';

/**
 * The scanner's browser runs only while scans run: launched by the first scan, kept for the
 * scans that follow within its idle time, closed (with every Chromium process) after it.
 */

const limits: ScanLimits = {
  ...DEFAULT_SCAN_LIMITS,
  pageLimit: 1,
  navigationTimeoutMs: 4_000,
  loadTimeoutMs: 1_500,
  pageWaitMs: 100,
  startPageWaitMs: 200,
  graceMs: 0,
  totalTimeoutMs: 20_000,
};

/** The Chromium processes this process started (its children; their own children end with them). */
function browserProcesses(): number[] {
  const parent = String(process.pid);
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        // pid (comm) state ppid …: the command may hold spaces and parentheses.
        const ppid = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1];
        return ppid === parent && /chrom|headless/i.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
      } catch {
        return false; // ended meanwhile
      }
    })
    .map(Number);
}

async function eventually(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(process.platform !== 'linux')('the scanner browser', () => {
  let sites: FixtureWebsites;
  const browsers: SharedBrowser[] = [];
  const sharedBrowser = (idleCloseMs: number) => {
    const browser = createSharedBrowser({ acceptInsecureCerts: true, idleCloseMs });
    browsers.push(browser);
    return browser;
  };

  beforeAll(async () => {
    sites = await startFixtureWebsites();
  });
  afterAll(async () => {
    await Promise.all(browsers.map((browser) => browser.close()));
    await sites?.close();
  });

  it('is not running before the first scan, runs during it, and is closed with all its processes once the last scan ended', { timeout: 60_000 }, async () => {
    const browser = sharedBrowser(500);
    const scanner = createScanner({ browser, policy: sites.policy, limits });
    expect(browser.isRunning()).toBe(false);
    expect(browserProcesses()).toEqual([]);

    let during: number[] = [];
    const found = await scanner.scan('http://www.shop.test/', {
      onPage: () => {
        during = browserProcesses();
      },
    });
    expect(found.pages).toHaveLength(1);
    expect(during).toHaveLength(1);
    // The scan has ended; the browser waits out its idle time, then closes.
    expect(browser.isRunning()).toBe(true);
    expect(await eventually(() => !browser.isRunning() && browserProcesses().length === 0, 10_000)).toBe(true);
  });

  it('is kept for a scan starting within its idle time, and for as long as any of several scans runs', { timeout: 60_000 }, async () => {
    const browser = sharedBrowser(800);
    const scanner = createScanner({ browser, policy: sites.policy, limits });
    await scanner.scan('http://www.shop.test/');
    const first = browserProcesses();
    expect(first).toHaveLength(1);

    // Within the idle time: the same browser.
    await sleep(300);
    await Promise.all([scanner.scan('http://www.shop.test/'), scanner.scan('http://www.bistro.test/').catch(() => undefined)]);
    expect(browserProcesses()).toEqual(first);

    // One long scan and one short one: the browser stays while the long one runs, past the idle time.
    const long = createScanner({ browser, policy: sites.policy, limits: { ...limits, startPageWaitMs: 5_000 } }).scan('http://www.shop.test/');
    await scanner.scan('http://www.shop.test/');
    await sleep(1_000);
    expect(browserProcesses()).toEqual(first);
    await long;
    expect(browser.isRunning()).toBe(true);
    expect(await eventually(() => browserProcesses().length === 0, 10_000)).toBe(true);
    expect(browser.isRunning()).toBe(false);

    // After it closed, the next scan launches it again.
    const again = await scanner.scan('http://www.shop.test/');
    expect(again.pages).toHaveLength(1);
    const relaunched = browserProcesses();
    expect(relaunched).toHaveLength(1);
    expect(relaunched).not.toEqual(first);
    await browser.close();
    expect(browserProcesses()).toEqual([]);
  });

  it('started by a readiness check, closes again; later checks do not launch it again', { timeout: 60_000 }, async () => {
    const browser = sharedBrowser(300);
    await browser.warmUp();
    expect(browserProcesses()).toHaveLength(1);
    expect(await eventually(() => browserProcesses().length === 0, 10_000)).toBe(true);
    await browser.warmUp();
    expect(browser.isRunning()).toBe(false);
    expect(browserProcesses()).toEqual([]);
  });

  it('that cannot start fails every readiness check, launching each time', { timeout: 60_000 }, async () => {
    const browser = createSharedBrowser({ chromePath: '/nonexistent/chromium', idleCloseMs: 100 });
    await expect(browser.warmUp()).rejects.toThrow('CHROME_PATH /nonexistent/chromium is not an executable file');
    await expect(browser.warmUp()).rejects.toThrow('CHROME_PATH /nonexistent/chromium is not an executable file');
    expect(browser.isRunning()).toBe(false);
  });
});

describe.skipIf(process.platform !== 'linux')('the service', () => {
  it('runs no browser while it is not scanning: none at start, none once the idle time after a scan has passed', { timeout: 90_000 }, async () => {
    const { service, close } = await startScanningTestService();
    try {
      expect(browserProcesses()).toEqual([]);
      const domain = await createDomain(service, 'http://www.shop.test/');
      const answer = await service.rest('GET', `${domain.base}/onboarding/scan`);
      expect(answer.status, answer.text).toBe(200);
      expect(browserProcesses()).toHaveLength(1);
      expect(await eventually(() => browserProcesses().length === 0, BROWSER_IDLE_CLOSE_MS + 10_000)).toBe(true);
    } finally {
      await close();
    }
  });
});
