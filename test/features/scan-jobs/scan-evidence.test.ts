import fc from 'fast-check';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OnboardingScanResult } from '../../../src/features/onboarding/onboarding.contract.ts';
import { scanEvidenceHtml } from '../../../src/features/scan-jobs/scan-evidence.html.ts';
import type { ScanJob } from '../../../src/features/scan-jobs/scan-job.contract.ts';
import { insertScanJob } from '../../../src/features/scan-jobs/scan-job.store.ts';
import { newId } from '../../../src/kernel/ids.ts';
import { CHROMIUM_FLAGS, findChromium } from '../../../src/scanner/chromium.ts';
import { createApiKey, createClient, createDomain, type DomainPath, unknownId } from '../../support/fixtures.ts';
import { startScanningTestService } from '../../support/scanning-service.ts';
import { ADMIN_KEY, type TestService } from '../../support/service.ts';

/** A scan read as a standalone printable page: what it visited and found, for an operator to file. */

let service: TestService;
let close: () => Promise<void>;
let browser: Browser;
beforeAll(async () => {
  ({ service, close } = await startScanningTestService());
  const binary = await findChromium(process.env.CHROME_PATH);
  browser = await puppeteer.launch({ executablePath: binary.path, headless: 'shell', args: CHROMIUM_FLAGS });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await close();
});

type Job = ScanJob & { result: OnboardingScanResult | null };

/** Starts a scan of the domain's site and reads the job until it has ended. */
async function scanned(domain: DomainPath): Promise<Job> {
  const started = await service.rest('POST', `${domain.base}/scan`);
  expect(started.status, started.text).toBe(201);
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const answer = await service.rest('GET', `${domain.base}/scan/${started.body.id}`);
    expect(answer.status, answer.text).toBe(200);
    if (answer.body.status === 'succeeded' || answer.body.status === 'failed') return answer.body;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`scan ${started.body.id} did not end within a minute`);
}

const evidencePath = (domain: DomainPath, scanId: string) => `${domain.base}/scan/${scanId}/evidence.html`;

/** Replaces a stored scan's result, as a scan of a newer (or hostile) kind would have stored it. */
async function storeResult(scanId: string, result: unknown): Promise<void> {
  await service.database.orm.em.fork().getConnection().execute(`update "scan_job" set "result" = ? where "id" = ?`, [JSON.stringify(result), scanId]);
}

/** A page of the browser that notes every request it makes and every dialog a script opens. */
async function watchedPage(): Promise<{ page: Page; requests: string[]; dialogs: string[] }> {
  const page = await browser.newPage();
  const requests: string[] = [];
  const dialogs: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  return { page, requests, dialogs };
}

/** The cells' visible text of each body row of the table of `className`. */
const rowsOf = (page: Page, className: string) =>
  page.$$eval(`table.${className} tbody tr`, (rows) => rows.map((row) => [...(row as HTMLTableRowElement).cells].map((cell) => cell.innerText.trim())));

/** The visible text of each fact of the page's header and legal section, by its term. */
const factsOf = (page: Page): Promise<Record<string, string>> =>
  page.$$eval('dl.facts dt', (terms) => Object.fromEntries(terms.map((term) => [(term as HTMLElement).innerText.trim(), (term.nextElementSibling as HTMLElement).innerText.trim()])));

describe('the evidence page of a succeeded scan', () => {
  it('opens in a browser as a page of its own that lists the pages, cookies, storage, services and legal pages the scan found', { timeout: 90_000 }, async () => {
    const domain = await createDomain(service, 'http://www.shop.test/');
    const job = await scanned(domain);
    expect(job.status).toBe('succeeded');
    const result = job.result!;

    const { page, requests, dialogs } = await watchedPage();
    await page.setExtraHTTPHeaders({ authorization: `Bearer ${ADMIN_KEY}` });
    const url = `${service.baseUrl}${evidencePath(domain, job.id)}`;
    const answer = await page.goto(url, { waitUntil: 'load' });
    expect(answer!.status()).toBe(200);
    expect(answer!.headers()['content-type']).toBe('text/html; charset=utf-8');
    const shown = await page.evaluate(() => ({
      title: document.title,
      scripts: document.scripts.length,
      images: document.images.length,
      links: document.querySelectorAll('link, a[href], [src]').length,
      text: document.body.innerText,
    }));
    expect(shown).toMatchObject({ title: `Website scan ${job.id} – http://www.shop.test/`, scripts: 0, images: 0, links: 0 });
    // Loads nothing but itself, runs nothing.
    expect(requests).toEqual([url]);
    expect(dialogs).toEqual([]);

    // The scan found what the fixture shop has (so the lists below are not empty)…
    expect(result.pages.length).toBeGreaterThanOrEqual(5);
    expect(result.storage.cookies.map((cookie) => cookie.name)).toEqual(expect.arrayContaining(['shop_session', '_ga', 'YSC']));
    expect(result.imprintUrl).toBe('http://www.shop.test/impressum');
    // …and the page shows every part of it.
    const facts = await factsOf(page);
    expect(facts).toMatchObject({
      Site: 'http://www.shop.test/',
      'Requested at': job.requestedAt,
      Ran: `${job.startedAt} to ${job.finishedAt}`,
      Duration: `${(result.durationMs / 1000).toFixed(1)} s`,
      Limits: `at most ${job.pageLimit} pages`,
      Status: 'succeeded',
      Imprint: result.imprintUrl,
      'Privacy policy': result.privacyPolicyUrl,
      'Address on the imprint': `${result.address.company}\n${result.address.street}\n${result.address.zipCode} ${result.address.city}`,
    });
    expect(result.address.company).toBe('Fixture Shop GmbH');

    const pages = await rowsOf(page, 'pages');
    expect(pages.map((cells) => cells[1])).toEqual(result.pages.map((visited) => visited.url));
    expect(pages.map((cells) => cells[3])).toEqual(result.pages.map((visited) => String(visited.status)));

    const cookies = await rowsOf(page, 'cookies');
    expect(cookies.map((cells) => cells.slice(0, 3))).toEqual(
      result.storage.cookies.map((cookie) => [cookie.name, cookie.domain, cookie.party === 'first' ? 'first party' : 'third party']),
    );
    expect(cookies.map((cells) => cells[3])).toEqual(result.storage.cookies.map((cookie) => cookie.expires ?? 'end of session'));

    const storage = await rowsOf(page, 'storage');
    const keys = [...result.storage.localStorage, ...result.storage.sessionStorage, ...result.storage.indexedDB, ...result.storage.cacheStorage];
    expect(keys.map((key) => key.name)).toEqual(expect.arrayContaining(['cart_items', 'checkout_step']));
    expect(storage.map((cells) => cells.slice(1, 3))).toEqual(keys.map((key) => [key.name, key.origin]));

    const services = await rowsOf(page, 'services');
    expect(services.map((cells) => cells[0]!.split('\n')[0])).toEqual(result.availablePresets.map((preset) => preset.name));
    const youtube = services.find((cells) => cells[0]!.startsWith('YouTube'))!;
    // Why: its own evidence, the frame it loads.
    expect(youtube[3]).toContain('frame https://www.youtube.com/embed/fixture-video');


    // The hosts the pages contacted; a stored result from before the service recorded them says so, it makes none up.
    const thirdParties = (result as { thirdParties?: { host: string }[] }).thirdParties;
    if (thirdParties) expect((await rowsOf(page, 'hosts')).map((cells) => cells[0]!.split('\n')[0])).toEqual(thirdParties.map((host) => host.host));
    else expect(shown.text).toContain('Not recorded: this scan was made before the service recorded the hosts');

    const pdf = await page.pdf({ format: 'A4' });
    expect(Buffer.from(pdf.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    await page.close();
  });

  it('shows the third-party hosts, beacons, phases, verdicts and existing banner of a result that has them', { timeout: 90_000 }, async () => {
    const domain = await createDomain(service, 'http://www.shop.test/');
    const job = await scanned(domain);
    const result = job.result!;
    const GTAG = 'http://www.googletagmanager.com/gtag/js?id=G-FIXTURE';
    await storeResult(job.id, {
      ...result,
      storage: {
        ...result.storage,
        cookies: result.storage.cookies.map((cookie) => ({ ...cookie, phase: cookie.name === '_ga' ? 'after-accept' : 'before-consent', setBy: cookie.name === '_ga' ? GTAG : null })),
        localStorage: result.storage.localStorage.map((key) => ({ ...key, phase: 'before-consent' })),
        // As a result that has no phase for them.
        sessionStorage: result.storage.sessionStorage.map((key) => Object.fromEntries(Object.entries(key).filter(([field]) => field !== 'phase'))),
      },
      thirdParties: [
        {
          host: 'www.googletagmanager.com', site: 'googletagmanager.com', services: [{ id: 4, name: 'Google Analytics 4' }, { id: 3, name: 'Google Tag Manager' }],
          trackerList: { name: 'Google Analytics', company: 'Google', category: 'analytics' }, kinds: ['script', 'image'], pages: ['http://www.shop.test/'],
          initiators: ['http://www.shop.test/'], beacons: [{ url: 'https://www.googletagmanager.com/g/collect?v=2&tid=G-FIXTURE', why: 'catalog' }],
          cookies: ['_ga'], phases: ['before-consent'], recognised: 'catalog',
        },
        {
          host: 'ads.unknown-network.example', site: 'unknown-network.example', services: [], trackerList: null, kinds: ['image', 'beacon'],
          pages: ['http://www.shop.test/produkte'], initiators: [GTAG], beacons: [{ url: 'https://ads.unknown-network.example/px.gif?uid=42', why: 'pixel' }],
          cookies: [], phases: ['after-accept'], recognised: null,
        },
        {
          host: 'cdn.listed-ads.example', site: 'listed-ads.example', services: [], trackerList: { name: 'Listed Ads', company: 'Listed Ads Inc.', category: 'ad' },
          kinds: ['script'], pages: ['http://www.shop.test/'], initiators: [GTAG], beacons: [], cookies: [], phases: ['before-consent', 'after-accept'], recognised: 'tracker-list',
        },
      ],
      verdicts: [{ phase: 'after-accept', subject: 'cookie', text: '_ga set by www.googletagmanager.com after accepting the banner' }],
      existingBanner: { cmp: 'Cybotcookiebot', accepted: true },
    });

    const page = await service.raw({ method: 'GET', path: evidencePath(domain, job.id) });
    expect(page.status, page.text).toBe(200);
    const { page: tab } = await watchedPage();
    await tab.setContent(page.text, { waitUntil: 'load' });
    const text = await tab.evaluate(() => document.body.innerText);
    expect(text).toContain('_ga set by www.googletagmanager.com after accepting the banner');
    expect((await factsOf(tab))['Existing consent banner']).toBe('Cybotcookiebot; the scan accepted it and looked again');
    expect(text).toContain('3 third-party hosts contacted, 1 of them unrecognised');

    const hosts = await rowsOf(tab, 'hosts');
    expect(hosts.map((cells) => cells[0]!.split('\n')[0])).toEqual(['www.googletagmanager.com', 'ads.unknown-network.example', 'cdn.listed-ads.example']);
    expect(hosts.map((cells) => cells[1])).toEqual([
      'Google Analytics 4 (preset 4)\nGoogle Tag Manager (preset 3)\nby the service catalog',
      'unrecognised third party',
      'Listed Ads (Listed Ads Inc., ad)\nby the tracker list',
    ]);
    expect(hosts.map((cells) => cells.slice(2, 5))).toEqual([
      ['script, image', 'http://www.shop.test/', 'http://www.shop.test/'],
      ['image, beacon', 'http://www.shop.test/produkte', GTAG],
      ['script', 'http://www.shop.test/', GTAG],
    ]);
    expect(hosts.map((cells) => cells[6])).toEqual(['before consent', 'after accepting the banner', 'before consent, after accepting the banner']);
    expect(await rowsOf(tab, 'beacons')).toEqual([
      ['www.googletagmanager.com', 'https://www.googletagmanager.com/g/collect?v=2&tid=G-FIXTURE', "a catalog service's tracking endpoint"],
      ['ads.unknown-network.example', 'https://ads.unknown-network.example/px.gif?uid=42', 'a 1×1 image whose address carries an identifier'],
    ]);

    const cookies = await rowsOf(tab, 'cookies');
    expect(cookies.map((cells) => cells.slice(5))).toEqual(
      result.storage.cookies.map((cookie) => (cookie.name === '_ga' ? ['after accepting the banner', GTAG] : ['before consent', 'not seen'])),
    );
    const storage = await rowsOf(tab, 'storage');
    expect(storage.filter((cells) => cells[0] === 'Local storage').map((cells) => cells[3])).toEqual(result.storage.localStorage.map(() => 'before consent'));
    expect(storage.filter((cells) => cells[0] === 'Session storage').map((cells) => cells[3])).toEqual(result.storage.sessionStorage.map(() => 'not recorded'));
    await tab.close();
  });
});

describe('a scan that is not a succeeded one', () => {
  it('failed: the page says why, with the pages it visited', { timeout: 90_000 }, async () => {
    const domain = await createDomain(service, 'http://error404.test/');
    const job = await scanned(domain);
    expect(job.status).toBe('failed');
    const page = await service.raw({ method: 'GET', path: evidencePath(domain, job.id) });
    expect(page.status, page.text).toBe(200);
    const { page: tab } = await watchedPage();
    await tab.setContent(page.text, { waitUntil: 'load' });
    const text = await tab.evaluate(() => document.body.innerText);
    expect(text).toContain(`The scan failed (${job.error!.kind}): ${job.error!.message}`);
    expect(job.error!.message).toContain('404');
    expect((await rowsOf(tab, 'pages')).map((cells) => cells[1])).toEqual(job.pages.map((visited) => visited.url));
    await tab.close();
  });

  it('queued or running: 409, nothing to file yet', async () => {
    const domain = await createDomain(service, 'http://www.shop.test/');
    // A job no worker will take: it stays queued.
    const job = await insertScanJob(service.database.orm.em.fork(), { id: newId(), domainId: domain.domainId, trigger: 'job', url: 'http://www.shop.test/', pageLimit: 10 });
    const page = await service.raw({ method: 'GET', path: evidencePath(domain, job.id) });
    expect(page.status, page.text).toBe(409);
    expect(page.body.detail).toContain('queued');
  });
});

describe('who reaches it', () => {
  it('answers 404 for an unknown scan or domain, and to another client, as the scan itself does', { timeout: 90_000 }, async () => {
    const domain = await createDomain(service, 'http://www.shop.test/');
    const job = await scanned(domain);
    const other = await createClient(service);
    const otherKey = await createApiKey(service, other.id, 'another client');
    const owner = await createApiKey(service, domain.clientId, 'the owner');
    for (const path of [evidencePath(domain, unknownId()), evidencePath(domain, 'not-an-id'), evidencePath({ ...domain, base: domain.base.replace(domain.domainId, unknownId()) }, job.id)]) {
      const answer = await service.raw({ method: 'GET', path });
      expect(answer.status, path).toBe(404);
    }
    const asOther = await service.as(otherKey.key).raw({ method: 'GET', path: evidencePath(domain, job.id) });
    const jsonAsOther = await service.as(otherKey.key).raw({ method: 'GET', path: `${domain.base}/scan/${job.id}` });
    expect([asOther.status, jsonAsOther.status]).toEqual([404, 404]);
    const anonymous = await service.as(null).raw({ method: 'GET', path: evidencePath(domain, job.id) });
    expect(anonymous.status).toBe(401);
    const asOwner = await service.as(owner.key).raw({ method: 'GET', path: evidencePath(domain, job.id) });
    expect(asOwner.status).toBe(200);
  });
});

describe('escaping', () => {
  const HOSTILE_COOKIE = '<script>alert("cookie")</script>';
  const HOSTILE_KEY = '"><img src=x onerror=alert(2)>';
  const HOSTILE_HOST = '<svg onload=alert(3)>.example';

  it('a cookie, key or host named as markup is shown as text in the browser and runs nothing', { timeout: 90_000 }, async () => {
    const domain = await createDomain(service, 'http://www.shop.test/');
    const job = await scanned(domain);
    const result = job.result!;
    const cookie = { ...result.storage.cookies[0]!, name: HOSTILE_COOKIE };
    await storeResult(job.id, {
      ...result,
      storage: { ...result.storage, cookies: [...result.storage.cookies, cookie], localStorage: [...result.storage.localStorage, { name: HOSTILE_KEY, origin: 'http://www.shop.test' }] },
      thirdParties: [{ host: HOSTILE_HOST, site: HOSTILE_HOST, service: null, kinds: ['image'], pages: [], initiators: [HOSTILE_KEY], beacons: [{ url: HOSTILE_KEY, why: HOSTILE_COOKIE }], cookies: [HOSTILE_COOKIE], phases: [], recognised: null }],
      verdicts: [{ phase: 'before-consent', subject: 'cookie', text: `${HOSTILE_COOKIE} set before consent` }],
    });
    const page = await service.raw({ method: 'GET', path: evidencePath(domain, job.id) });
    expect(page.status, page.text).toBe(200);
    expect(page.text).not.toMatch(/<script|<img|<svg/i);

    // Without the service's Content-Security-Policy, so that only the escaping stands between the names and the browser.
    const { page: tab, requests, dialogs } = await watchedPage();
    await tab.setContent(page.text, { waitUntil: 'load' });
    const shown = await tab.evaluate(() => ({ scripts: document.scripts.length, elements: document.querySelectorAll('img, svg').length, text: document.body.innerText }));
    expect(shown.scripts).toBe(0);
    expect(shown.elements).toBe(0);
    expect(dialogs).toEqual([]);
    expect(requests.filter((url) => url !== 'about:blank')).toEqual([]);
    expect(await rowsOf(tab, 'cookies').then((rows) => rows.map((cells) => cells[0]))).toContain(HOSTILE_COOKIE);
    for (const hostile of [HOSTILE_KEY, HOSTILE_HOST, `${HOSTILE_COOKIE} set before consent`]) expect(shown.text).toContain(hostile);
    await tab.close();
  });

  /** What the page's own markup is made of; anything else starting with `<` came from a value. */
  const OWN_TAGS = /<\/?(?:!doctype|html|head|meta|title|style|body|header|footer|section|h1|h2|dl|dt|dd|p|ul|li|table|thead|tbody|tr|th|td|code|strong|em|br)\b/gi;
  const textOf = (html: string) =>
    html
      .replace(/<style>[^<]*<\/style>/, '')
      .replace(/<[^>]*>/g, '')
      .replace(/&(lt|gt|quot|#39|amp);/g, (_, entity: string) => ({ lt: '<', gt: '>', quot: '"', '#39': "'", amp: '&' })[entity]!);

  it('holds for any text in any field of a result: every value is text on the page, never markup', () => {
    const anyText = fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom('<script>x()</script>', '"><b>', "'&amp;", '</td></tr></table><h1>', '<!--'));
    const fields = [
      'pageUrl', 'landed', 'error', 'cookieName', 'cookieDomain', 'cookiePath', 'sameSite', 'keyName', 'keyOrigin', 'serviceName',
      'vendor', 'whyUrl', 'imprint', 'privacy', 'company', 'street', 'host', 'initiator', 'why', 'verdict', 'setBy', 'entity', 'category', 'cmp', 'bannerError',
    ] as const;
    fc.assert(
      fc.property(fc.record(Object.fromEntries(fields.map((field) => [field, anyText])) as Record<(typeof fields)[number], fc.Arbitrary<string>>), (values) => {
        const { pageUrl, landed, error, cookieName, cookieDomain, cookiePath, sameSite, keyName, keyOrigin, serviceName, vendor, whyUrl, imprint, privacy, company, street, host, initiator, why, verdict, setBy, entity, category, cmp, bannerError } = values;
        // Stored results differ in age (the newest fields are absent from older ones): typed as what the page is handed.
        const job = {
          id: unknownId(), domainId: unknownId(), trigger: 'job', status: 'succeeded', url: 'http://www.site.test/', requestedAt: '2026-01-01T00:00:00.000Z',
          startedAt: '2026-01-01T00:00:01.000Z', finishedAt: '2026-01-01T00:00:06.000Z', pageLimit: 10, pagesVisited: 1, attempts: 1, worker: 'host:1', error: null,
          pages: [{ url: pageUrl, status: 200, landedUrl: landed, error, slow: true }],
          result: {
            address: { company, street, zipCode: null, city: null }, imprintUrl: imprint, privacyPolicyUrl: privacy,
            availablePresets: [{ id: 7, name: serviceName, purpose: 'a717ff5', vendor, translations: {}, evidence: [], why: [{ kind: 'script', url: whyUrl }, { kind: 'cookie', name: cookieName, domain: cookieDomain }] }],
            storage: {
              cookies: [{ name: cookieName, domain: cookieDomain, path: cookiePath, expires: null, httpOnly: false, secure: true, sameSite, party: 'third', phase: 'before-consent', setBy }],
              localStorage: [{ name: keyName, origin: keyOrigin }], sessionStorage: [], indexedDB: [{ name: keyName, origin: keyOrigin }], cacheStorage: [],
            },
            advice: [{ kind: 'iframe-src', host, presetId: null, pages: [pageUrl], sources: [whyUrl], fix: why }],
            url: 'http://www.site.test/', pages: [{ url: pageUrl, status: 200, landedUrl: landed, error, slow: true }], durationMs: 5000,
            thirdParties: [
              { host, site: host, services: [{ id: 7, name: serviceName }], trackerList: null, kinds: [why], pages: [pageUrl], initiators: [initiator], beacons: [{ url: whyUrl, why }], cookies: [cookieName], phases: [], recognised: 'catalog' },
              { host, site: host, services: [], trackerList: { name: entity, company: entity, category }, kinds: [], pages: [], initiators: [], beacons: [], cookies: [], phases: [], recognised: 'tracker-list' },
            ],
            verdicts: [{ phase: 'before-consent', subject: 'cookie', text: verdict }],
            existingBanner: { cmp, accepted: false, error: bannerError },
          },
        } as unknown as ScanJob;
        const html = scanEvidenceHtml(job);
        expect(html.replace(OWN_TAGS, '')).not.toContain('<');
        const text = textOf(html);
        for (const value of Object.values(values)) expect(text).toContain(value);
      }),
      { numRuns: 300 },
    );
  });
});
