/**
 * npm run banner:screenshot — the banner as a visitor sees it, for the README: starts the service
 * on an in-memory embedded database, sets up a domain through the REST API as an operator would
 * (three embeddings, a placeholder, a theme), puts the onboarding's snippet on a demo page served
 * on loopback, and saves screenshots of the banner and of its settings from headless Chromium into
 * screenshots/ (kept out of the repository).
 */
import { mkdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import puppeteer from 'puppeteer-core';
import { metricsOf, openServiceDatabase } from '../src/app/database.ts';
import { buildApp } from '../src/app/http-app.ts';
import { buildServices } from '../src/app/services.ts';
import { CHROMIUM_FLAGS, findChromium } from '../src/scanner/chromium.ts';
import { createScanner } from '../src/scanner/scan.ts';
import { createSharedBrowser } from '../src/scanner/browser.ts';
import { composeScanning } from '../src/app/background.ts';
import { startJobQueue } from '../src/db/job-queue.ts';

const ADMIN = 'screenshot-admin-key-0123456789ab';
const OUT = new URL('../screenshots/', import.meta.url).pathname;

const listen = (server: Server) =>
  new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));

const database = await openServiceDatabase({ dataDir: 'memory://', poolSize: 1 });
const scanner = createScanner({ browser: createSharedBrowser(), policy: async (host) => ({ refused: `${host}: not in a screenshot`, unresolvable: true }) });
const serviceServer = createServer();
const base = await listen(serviceServer);
// The screenshots start no scan: the queue would connect only if one were started.
const { scanJobs, complianceScans } = composeScanning({ orm: database.orm, scanner, jobs: () => startJobQueue({ url: database.url, onError: () => {} }), pageLimit: 1, onError: () => {} });
const services = buildServices({ orm: database.orm, changes: database.changes, scanner, maxConcurrentScans: 1, scanJobs, complianceScans, adminApiKey: ADMIN, publicBaseUrl: base });
serviceServer.on(
  'request',
  buildApp({
    orm: database.orm,
    logger: pino({ level: 'silent' }),
    metrics: await metricsOf(database),
    services,
    options: { corsOrigins: [], rateLimitPerMinute: 1_000_000, development: false },
  }),
);

const api = async (method: string, path: string, body?: unknown) => {
  const answer = await fetch(`${base}/hosting/api${path}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!answer.ok) throw new Error(`${method} ${path}: ${answer.status} ${await answer.text()}`);
  return answer.json() as Promise<{ id: string } & Record<string, string>>;
};

let site: Server | undefined;
try {
  const client = await api('POST', '/client', { username: 'demo', emailAddress: 'demo@example.org', password: 'demo-password', domainMaxCount: 1 });
  const domain = await api('POST', `/client/${client.id}/domain`, { name: 'www.example.org' });
  const path = `/client/${client.id}/domain/${domain.id}`;
  await api('PUT', `${path}/placeholder`, [
    { name: 'FIRMA', value: 'Beispiel GmbH' },
    { name: 'Firma_Impressum', value: 'https://www.example.org/impressum' },
    { name: 'Firma_Datenschutz', value: 'https://www.example.org/datenschutz' },
  ]);
  for (const embedding of [
    { name: 'Google Analytics', purpose: 'a717ff5', vendor: 'Google Ireland Limited', assets: [{ name: '_ga', lifetime: '2 Jahre' }, { name: '_ga_*', dynamic: true, lifetime: '2 Jahre' }] },
    { name: 'YouTube', purpose: '6cd2721', vendor: 'Google Ireland Limited', iframeMarkers: ['youtube.com'], assets: [{ name: 'VISITOR_INFO1_LIVE', lifetime: '6 Monate' }] },
    { name: 'Sitzung', purpose: '41ba25c', vendor: 'Beispiel GmbH', assets: [{ name: 'session', lifetime: 'Sitzung' }] },
  ]) {
    await api('POST', `${path}/embedding`, embedding);
  }
  await api('POST', `${path}/theme`, {
    name: 'Hausfarben',
    default: true,
    widgetPosition: 'bottomright',
    windowBackgroundColor: '#ffffff',
    windowForegroundColor: '#1f2933',
    windowLinkColor: '#0b5cad',
    windowBorderColor: '#d0d7de',
    primaryButtonBackgroundColor: '#0b5cad',
    primaryButtonForegroundColor: '#ffffff',
    primaryButtonBorderColor: '#0b5cad',
    declineButtonBackgroundColor: '#0b5cad',
    declineButtonForegroundColor: '#ffffff',
    declineButtonBorderColor: '#0b5cad',
    buttonBackgroundColor: '#eef2f6',
    buttonForegroundColor: '#1f2933',
    buttonBorderColor: '#d0d7de',
    iframeBlockerBackgroundColor: '#1f2933',
    iframeBlockerForegroundColor: '#ffffff',
    iframeBlockerButtonBackgroundColor: '#ffffff',
    iframeBlockerButtonForegroundColor: '#1f2933',
  });
  const snippets = await api('GET', `${path}/onboarding/embed`);

  site = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html lang="de"><head><meta charset="utf-8"><title>Beispiel GmbH</title>
${snippets.default}
<style>body{font:16px/1.5 system-ui,sans-serif;margin:0}header{background:#1f2933;color:#fff;padding:1rem 2rem}main{padding:2rem;max-width:48rem}</style>
</head><body><header><strong>Beispiel GmbH</strong></header><main><h1>Willkommen</h1>
<p>Eine Beispielseite mit dem Code-Snippet des Dienstes im Kopf der Seite.</p>
<iframe data-src="https://www.youtube.com/embed/demo" title="Video" width="480" height="270"></iframe></main></body></html>`);
  });
  const page = await listen(site);

  const browser = await puppeteer.launch({ executablePath: (await findChromium(process.env.CHROME_PATH)).path, headless: 'shell', args: CHROMIUM_FLAGS });
  try {
    const tab = await browser.newPage();
    await tab.setViewport({ width: 1280, height: 800 });
    await tab.goto(page, { waitUntil: 'load' });
    const settled = (selector: string) =>
      tab.waitForFunction((selector) => {
        const modal = document.querySelector(selector);
        return !!modal && getComputedStyle(modal).opacity === '1' && modal.getAnimations().length === 0;
      }, { timeout: 10_000 }, selector);
    await settled('#cc-main .cm');
    await mkdir(OUT, { recursive: true });
    await tab.screenshot({ path: `${OUT}banner.png` });
    await tab.evaluate(() => (window as unknown as { CCM: { openControlPanel(): void } }).CCM.openControlPanel());
    await settled('#cc-main .pm');
    await tab.screenshot({ path: `${OUT}banner-settings.png` });
    console.log(`wrote ${OUT}banner.png and ${OUT}banner-settings.png`);
  } finally {
    await browser.close();
  }
} finally {
  site?.close();
  await new Promise((resolve) => serviceServer.close(resolve));
  await scanner.close();
  await services.banner.close();
  await services.consents.ensure().catch(() => {});
  services.consents.close();
  await database.close();
}
