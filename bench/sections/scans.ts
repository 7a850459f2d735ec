/**
 * Scans of a 10-page website on loopback: one alone (warm browser), four at once, and 20 queued
 * scans run by one scan-worker process, then by two.
 */
import { spawn } from 'node:child_process';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type Api, type Bench } from '../lib/bench.ts';
import { peakRss } from '../lib/measure.ts';
import { NODE, ROOT, sleep } from '../lib/processes.ts';
import { addRow, addTarget } from '../lib/report.ts';
import { fmt } from '../lib/stats.ts';

const SECTION = 'scans';

/**
 * A banner of another consent tool in the markup a Complianz site has (which autoconsent's
 * "Complianz banner" rule recognises): until "accept" is clicked it shows, and the tag it guards
 * (a cookie `after_consent`) does not run; the choice is kept in a cookie.
 */
const EXISTING_BANNER = `<div id="cmplz-cookiebanner-container"><div class="cmplz-cookiebanner" style="position:fixed;bottom:0;background:#fff">
<p>Wir verwenden Cookies.</p><button class="cmplz-accept">Akzeptieren</button><button class="cmplz-deny">Ablehnen</button></div></div>
<script>(function () {
  var banner = document.querySelector('.cmplz-cookiebanner');
  function release() { document.cookie = 'after_consent=1; path=/'; banner.style.display = 'none'; }
  if (document.cookie.indexOf('cmplz_banner-status=dismissed') !== -1) return release();
  banner.querySelector('.cmplz-accept').addEventListener('click', function () { document.cookie = 'cmplz_banner-status=dismissed; path=/'; release(); });
})();</script>`;

/**
 * A 10-page website on loopback: every page links to the others and sets a cookie, one script sets
 * more; `withBanner`: behind another consent tool's banner (EXISTING_BANNER), so a scan takes its
 * second pass.
 */
export function startTenPageSite({ withBanner = false }: { withBanner?: boolean } = {}): Promise<HttpServer> {
  const pages = Array.from({ length: 10 }, (_, i) => (i === 0 ? '/' : `/page-${i}`));
  const server = createServer((req, res) => {
    if (req.url === '/tag.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      return void res.end("document.cookie='_ga=GA1.1.1.1; path=/'; localStorage.setItem('visits', '1');");
    }
    const index = pages.indexOf(req.url ?? '');
    if (index === -1) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'set-cookie': `page_${index}=1; Path=/` });
    // Tags that set their cookies late: 4 s after the start page has loaded, 1.5 s after page 5 has.
    const late =
      index === 0
        ? `<script>addEventListener('load', () => setTimeout(() => { document.cookie = 'start_late=1; path=/'; }, 4000));</script>`
        : index === 5
          ? `<script>addEventListener('load', () => setTimeout(() => { document.cookie = 'page_late=1; path=/'; }, 1500));</script>`
          : '';
    res.end(
      `<!doctype html><html><head><script src="/tag.js"></script>${late}</head><body><h1>Page ${index}</h1>` +
        pages.map((path) => `<a href="${path}">${path}</a>`).join(' ') +
        `<a href="/impressum">Impressum</a>${withBanner ? EXISTING_BANNER : ''}</body></html>`,
    );
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** A `consent-config scan-worker` process on the bench's database; resolves when it takes scans. */
async function startScanWorker(env: Record<string, string>, concurrency: number): Promise<{ stop(): Promise<void> }> {
  const child = spawn(NODE, [join(ROOT, 'bin/consent-config.ts'), 'scan-worker', '--concurrency', String(concurrency)], {
    env: { ...process.env, ...env, LOG_LEVEL: 'info', LOG_FORMAT: 'json' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('scan worker running')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the scan worker exited with ${code}`)));
  });
  child.stdout!.resume();
  return {
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * Scans each worker process runs at once. 20 divides into whole rounds for one worker and for two
 * (10 and 5), so the comparison measures the second worker, not a half-empty last round. Two each,
 * so that two workers (four scans at once, 1.2–1.3× the time of one alone) stay below what this
 * 2-core machine can run: with five each, ten scans of five tabs each saturate both cores, and the
 * ratio measures the machine rather than how the queue shares the work out.
 */
const SCANS_PER_WORKER = 2;

/**
 * Scans as jobs: 20 domains started at once and run by one worker process, then by two (each
 * running SCANS_PER_WORKER scans at once); wall time from the first start to the last end.
 */
async function scanThroughput(env: Record<string, string>, clientId: string, siteUrl: string, api: Api) {
  const domains: string[] = [];
  for (let i = 0; i < 20; i++) {
    const domain = (await api('POST', `/client/${clientId}/domain`, { name: siteUrl })) as { id: string };
    domains.push(`/client/${clientId}/domain/${domain.id}`);
  }
  const runAll = async () => {
    const started = performance.now();
    const jobs = await Promise.all(domains.map(async (path) => ({ path, id: ((await api('POST', `${path}/scan`)) as { id: string }).id })));
    for (const job of jobs) {
      for (;;) {
        const state = (await api('GET', `${job.path}/scan/${job.id}`)) as { status: string; error: unknown };
        if (state.status === 'failed') throw new Error(`a queued scan failed: ${JSON.stringify(state.error)}`);
        if (state.status === 'succeeded') break;
        await sleep(100);
      }
    }
    return performance.now() - started;
  };
  const measure = async (count: number) => {
    const workers = await Promise.all(Array.from({ length: count }, () => startScanWorker(env, SCANS_PER_WORKER)));
    try {
      return await runAll();
    } finally {
      await Promise.all(workers.map((worker) => worker.stop()));
    }
  };
  const one = await measure(1);
  const two = await measure(2);
  const wall = (ms: number) => ({ p50: ms, p99: ms, statements: Number.NaN, rssMiB: Number.NaN });
  addRow({ section: SECTION, scenario: '20 queued scans of the 10-page site, one worker process (wall time)', service: wall(one) });
  addRow({ section: SECTION, scenario: '20 queued scans of the 10-page site, two worker processes (wall time)', service: wall(two), note: `${fmt(one / two, 2)}× the throughput of one` });
  addTarget({ section: SECTION, target: '20 domains: two workers ≥ 1.7× the throughput of one', measured: `${fmt(one / two, 2)}×`, met: one / two >= 1.7 });
}

/** The EDPS Website Evidence Collector 2.1.1's time for a 10-page scan of comparable fixture sites, same Chromium (issue 40's side-by-side). */
const WEC_SCAN_MS = 46_000;

/**
 * A scan of the 10-page site behind another consent tool's banner, which takes the second pass
 * (accept the banner, read again): its time beside the first pass's alone, median of 3.
 */
async function twoPassScan(bench: Bench, clientId: string, onePassMs: number): Promise<void> {
  const site = await startTenPageSite({ withBanner: true });
  try {
    const siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
    const domain = (await bench.api('POST', `/client/${clientId}/domain`, { name: siteUrl })) as { id: string };
    const times: number[] = [];
    let accepted = true;
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      const result = (await bench.api('GET', `/client/${clientId}/domain/${domain.id}/onboarding/scan`)) as {
        existingBanner: { accepted: boolean } | null;
        storage: { cookies: { name: string; phase: string }[] };
      };
      times.push(performance.now() - started);
      accepted &&= result.existingBanner?.accepted === true && result.storage.cookies.some((cookie) => cookie.name === 'after_consent' && cookie.phase === 'after-accept');
    }
    const median = [...times].sort((a, b) => a - b)[1]!;
    addRow({
      section: SECTION,
      scenario: 'scan of the 10-page site behind another consent tool\'s banner: both passes (median of 3)',
      service: { p50: median, p99: Math.max(...times), statements: Number.NaN, rssMiB: Number.NaN },
      note: `${fmt(median - onePassMs, 0)} ms more than the first pass alone`,
    });
    addTarget({ section: SECTION, target: `10-page scan ≤ 1/5 of WEC's ${WEC_SCAN_MS / 1000} s`, measured: `${fmt(onePassMs / 1000, 2)} s`, met: onePassMs <= WEC_SCAN_MS / 5 });
    addTarget({
      section: SECTION,
      target: 'behind a banner: accepted, the released cookie labelled after-accept, both passes ≤ 1/5 of WEC',
      measured: `${accepted ? 'accepted and labelled' : 'missed'}; ${fmt(median / 1000, 2)} s`,
      met: accepted && median <= WEC_SCAN_MS / 5,
    });
  } finally {
    site.close();
  }
}

export async function scans(bench: Bench): Promise<void> {
  const service = await bench.service();
  const clientId = await bench.client();
  const site = await startTenPageSite();
  try {
    const siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
    const scanDomains: string[] = [];
    for (let i = 0; i < 4; i++) {
      const domain = (await bench.api('POST', `/client/${clientId}/domain`, { name: siteUrl })) as { id: string };
      scanDomains.push(`/client/${clientId}/domain/${domain.id}`);
    }
    let lateCookiesCaught = true;
    const scan = async (path: string) => {
      const started = performance.now();
      const result = (await bench.api('GET', `${path}/onboarding/scan`)) as { pages: unknown[]; storage: { cookies: { name: string }[] } };
      if (result.pages.length !== 10) throw new Error(`scan visited ${result.pages.length} pages`);
      const names = new Set(result.storage.cookies.map((cookie) => cookie.name));
      lateCookiesCaught &&= names.has('start_late') && names.has('page_late');
      return performance.now() - started;
    };
    const [[coldScan, ...warmScans], scanRss] = await peakRss(service.pid, async () => {
      const times: number[] = [];
      for (let i = 0; i < 4; i++) times.push(await scan(scanDomains[0]!));
      return times;
    });
    const alone = [...warmScans].sort((a, b) => a - b)[1]!;
    addRow({
      section: SECTION,
      scenario: 'scan of a 10-page site with per-page waits, alone (warm browser, median of 3)',
      service: { p50: alone, p99: Math.max(...warmScans), statements: Number.NaN, rssMiB: scanRss },
      note: `first scan, launching the browser: ${fmt(coldScan, 0)} ms`,
    });
    const [together, togetherRss] = await peakRss(service.pid, async () => {
      const started = performance.now();
      await Promise.all(scanDomains.map(scan));
      return performance.now() - started;
    });
    addRow({ section: SECTION, scenario: 'four scans of the site at once (wall time)', service: { p50: together, p99: together, statements: Number.NaN, rssMiB: togetherRss } });
    addTarget({ section: SECTION, target: '10-page scan with per-page waits ≤ 6 s', measured: `${fmt(alone / 1000, 2)} s`, met: alone <= 6000 });
    addTarget({
      section: SECTION,
      target: 'the scans catch cookies set 4 s after the start page and 1.5 s after a sub-page loaded',
      measured: lateCookiesCaught ? 'caught in every scan' : 'missed in at least one scan',
      met: lateCookiesCaught,
    });
    addTarget({ section: SECTION, target: 'four concurrent scans ≤ 2× one', measured: `${fmt(together / alone, 2)}×`, met: together <= 2 * alone });
    await twoPassScan(bench, clientId, alone);
    await scanThroughput(bench.env, clientId, siteUrl, bench.api);
  } finally {
    site.close();
  }
}
