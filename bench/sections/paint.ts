/**
 * What the snippet costs a visitor: the first contentful paint and the `load` event of a plain
 * page in headless Chromium without the snippet, with the snippet the service hands out
 * (`…/onboarding/embed`, an inline guard that fetches app.js), and with a plain
 * `<script src=…/app.js>` tag as CCM19's snippet is — each with the service healthy and with a
 * service that accepts connections and never answers (a hung process behind its address).
 * Every visit is a fresh browser context; the figures are medians of the visits.
 */
import { createServer, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import puppeteer, { type Browser } from 'puppeteer-core';
import { CHROMIUM_FLAGS, findChromium } from '../../src/scanner/chromium.ts';
import { type Bench } from '../lib/bench.ts';
import { addTarget } from '../lib/report.ts';
import { fmt, median } from '../lib/stats.ts';

const SECTION = 'paint';
const VISITS = Number(process.env.BENCH_PAINT_VISITS ?? 9);
/** A visit whose page has not painted by then counts as this long (the plain tag with a hung service paints only when the browser gives up). */
const CAP_MS = 10_000;

const page = (head: string) => `<!doctype html><html lang="de"><head><meta charset="utf-8"><title>Paint</title>${head}</head>
<body><main><h1>Willkommen</h1>${'<p>Ein Absatz Text, wie ihn eine Startseite hat. '.repeat(40)}</p></main></body></html>`;

type Variant = { name: string; head: string };
type Timing = { paintMs: number; loadMs: number };

async function visit(browser: Browser, url: string): Promise<Timing> {
  const context = await browser.createBrowserContext();
  const deadline = Date.now() + CAP_MS;
  try {
    const tab = await context.newPage();
    await tab.goto(url, { waitUntil: 'domcontentloaded', timeout: CAP_MS }).catch(() => undefined);
    const timing = async () =>
      tab.evaluate(() => {
        const paint = performance.getEntriesByName('first-contentful-paint')[0]?.startTime;
        const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
        return { paint: paint ?? null, load: navigation && navigation.loadEventStart > 0 ? navigation.loadEventStart : null };
      });
    let seen = await timing().catch(() => ({ paint: null, load: null }));
    while ((seen.paint === null || seen.load === null) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      seen = await timing().catch(() => seen);
    }
    return { paintMs: seen.paint ?? CAP_MS, loadMs: seen.load ?? CAP_MS };
  } finally {
    await context.close();
  }
}

export async function paint(bench: Bench): Promise<void> {
  const service = await bench.service();
  const domain = await bench.domainOfSize(10);
  const snippets = (await bench.api('GET', `${domain.path.replace('/hosting/api', '')}/onboarding/embed`)) as { default: string };
  const hung: ServerResponse[] = [];
  const hungServer = createServer((_request, response) => void hung.push(response));
  await new Promise<void>((resolve) => hungServer.listen(0, '127.0.0.1', resolve));
  const hungBase = `http://127.0.0.1:${(hungServer.address() as AddressInfo).port}`;

  const variants: Variant[] = [
    { name: 'no snippet', head: '' },
    { name: 'snippet, service healthy', head: snippets.default },
    { name: 'snippet, service hung', head: snippets.default.replaceAll(service.base, hungBase) },
    { name: 'plain app.js tag, service healthy', head: `<script src="${service.base}/app.js?domain=${domain.id}"></script>` },
    { name: 'plain app.js tag, service hung', head: `<script src="${hungBase}/app.js?domain=${domain.id}"></script>` },
  ];
  const site: HttpServer = createServer((request, response) => {
    const variant = variants[Number(new URL(request.url ?? '/', 'http://x').searchParams.get('v'))];
    if (!variant) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(page(variant.head));
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const siteBase = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;

  const binary = await findChromium(process.env.CHROME_PATH);
  const browser = await puppeteer.launch({ executablePath: binary.path, headless: 'shell', args: [...CHROMIUM_FLAGS] });
  const results = new Map<string, Timing[]>(variants.map((variant) => [variant.name, []]));
  try {
    // Visits interleaved, variant after variant, so the machine's drift weighs on all alike.
    for (let round = 0; round < VISITS; round++) {
      for (const [index, variant] of variants.entries()) results.get(variant.name)!.push(await visit(browser, `${siteBase}/?v=${index}`));
    }
  } finally {
    await browser.close();
    for (const response of hung.splice(0)) response.destroy();
    await new Promise((resolve) => hungServer.close(resolve));
    await new Promise((resolve) => site.close(resolve));
  }

  const medians = new Map([...results].map(([name, timings]) => [name, { paint: median(timings.map((t) => t.paintMs)), load: median(timings.map((t) => t.loadMs)) }]));
  console.log(`\n${SECTION}: median of ${VISITS} visits each (ms; ${fmt(CAP_MS)} = not within the cap)`);
  for (const [name, { paint: p, load: l }] of medians) console.log(`  ${name.padEnd(36)} first contentful paint ${fmt(p).padStart(7)}   load ${fmt(l).padStart(7)}`);
  const plain = medians.get('no snippet')!;
  const snippetHung = medians.get('snippet, service hung')!;
  const snippetHealthy = medians.get('snippet, service healthy')!;
  const tagHung = medians.get('plain app.js tag, service hung')!;
  addTarget({
    section: SECTION,
    target: 'with the service hung, the page paints and loads as without the snippet (within 100 ms, median)',
    measured: `paint ${fmt(snippetHung.paint)} vs ${fmt(plain.paint)} ms, load ${fmt(snippetHung.load)} vs ${fmt(plain.load)} ms (a plain app.js tag: paint ${fmt(tagHung.paint)} ms, load ${fmt(tagHung.load)} ms)`,
    met: snippetHung.paint <= plain.paint + 100 && snippetHung.load <= plain.load + 100,
  });
  addTarget({
    section: SECTION,
    target: 'with the service healthy, the snippet delays first paint by at most 50 ms (median)',
    measured: `paint ${fmt(snippetHealthy.paint)} vs ${fmt(plain.paint)} ms without the snippet`,
    met: snippetHealthy.paint <= plain.paint + 50,
  });
}
