import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_FLAGS, findChromium } from '../src/scanner/chromium.ts';
import { createApiKey, createClient } from './support/fixtures.ts';
import { ADMIN_KEY, startTestService, type TestService } from './support/service.ts';

/** GraphiQL at /graphql in a real (headless) browser: it loads from this service alone and runs a query. */

/**
 * A host name other than localhost: browsers exempt localhost and 127.0.0.1 from some rules
 * (`upgrade-insecure-requests` among them), so pages are also opened the way a service on a
 * private network is reached — plain HTTP at a name. Chromium resolves it to the test service.
 */
const HOST = 'consent.internal';

let service: TestService;
let browser: Browser;
/** The test service at HOST, over plain HTTP. */
let atHost: string;
beforeAll(async () => {
  service = await startTestService();
  atHost = `http://${HOST}:${new URL(service.baseUrl).port}`;
  const binary = await findChromium(process.env.CHROME_PATH);
  browser = await puppeteer.launch({
    executablePath: binary.path,
    headless: 'shell',
    args: [...CHROMIUM_FLAGS, `--host-resolver-rules=MAP ${HOST} 127.0.0.1`],
  });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await service?.close();
});

/**
 * Chromium's note that it ignores Cross-Origin-Opener-Policy on an origin that is neither HTTPS
 * nor localhost; it is logged as a console error, although nothing fails.
 */
const IGNORED_COOP = /Cross-Origin-Opener-Policy header has been ignored/;

type Watched = {
  page: Page;
  /** Closes the page and its browser context. */
  close(): Promise<void>;
  /** Requests that did not complete, and answers of 400 or more (but 401: see `refused`). */
  failed: string[];
  /** Answers of 401. */
  refused: string[];
  /** Uncaught errors and console errors. */
  problems: string[];
  /** Every request: its address, headers and body. */
  requests: { url: string; headers: Record<string, string>; authorization: string | undefined; body: string | undefined }[];
  /** Requests to anywhere but `origin`. */
  elsewhere: string[];
};

/**
 * A new tab in a browser context of its own (nothing stored by an earlier test), that records
 * what it requests and what goes wrong, at a laptop-sized window.
 */
async function watchedPage(origin: string): Promise<Watched> {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  await page.setViewport({ width: 1280, height: 800 });
  const close = () => context.close();
  const watched: Watched = { page, close, failed: [], refused: [], problems: [], requests: [], elsewhere: [] };
  page.on('request', (request) => {
    const url = request.url();
    const headers = request.headers();
    watched.requests.push({ url, headers, authorization: headers.authorization, body: request.postData() });
    if (!url.startsWith(`${origin}/`) && !/^(?:data|blob|about):/.test(url)) watched.elsewhere.push(url);
  });
  page.on('requestfailed', (request) => watched.failed.push(`${request.url()}: ${request.failure()?.errorText}`));
  page.on('response', (response) => {
    if (response.status() === 401) watched.refused.push(response.url());
    else if (response.status() >= 400) watched.failed.push(`${response.url()}: ${response.status()}`);
  });
  page.on('pageerror', (error) => watched.problems.push(String(error)));
  page.on('console', (message) => {
    if (message.type() === 'error' && !IGNORED_COOP.test(message.text())) watched.problems.push(message.text());
  });
  return watched;
}

/** The scripts a page loaded, by address (without query). */
const scriptsOf = (watched: Watched) =>
  watched.requests.map((request) => request.url.replace(/\?.*$/, '')).filter((url) => url.endsWith('.js'));

const graphqlRequests = (watched: Watched) => watched.requests.filter((request) => request.body !== undefined && /\/graphql$/.test(request.url));

const barText = (page: Page) => page.$eval('.key-bar', (element) => (element as HTMLElement).innerText);

const waitForBar = (page: Page, text: string) =>
  page.waitForFunction((expected) => document.querySelector('.key-bar-message')?.textContent?.includes(expected), { timeout: 20_000 }, text);

async function enterKey(page: Page, key: string) {
  await page.click('#api-key');
  await page.type('#api-key', key);
  await page.click('.key-bar-use');
}

/** Opens GraphiQL's documentation explorer and waits until it shows the root types of a schema. */
async function docsShowSchema(page: Page) {
  if (!(await page.$('.graphiql-doc-explorer'))) await page.click('button[aria-label="Show Documentation Explorer"]');
  await page.waitForFunction(
    () => [...document.querySelectorAll('.graphiql-doc-explorer-type-name')].some((link) => link.textContent === 'Query'),
    { timeout: 20_000 },
  );
}

/** The fields of the Query type, as the documentation explorer lists them. */
async function queryFieldsInDocs(page: Page): Promise<string> {
  await docsShowSchema(page);
  await page.evaluate(() => {
    const link = [...document.querySelectorAll('.graphiql-doc-explorer-type-name')].find((element) => element.textContent === 'Query');
    (link as HTMLElement).click();
  });
  await page.waitForFunction(() => document.querySelector('.graphiql-doc-explorer-title')?.textContent === 'Query', { timeout: 10_000 });
  return page.$eval('.graphiql-doc-explorer', (element) => element.textContent ?? '');
}

async function setEditor(page: Page, selector: string, value: string) {
  await page.evaluate(
    (selector, value) => {
      const editor = document.querySelector(selector) as unknown as { CodeMirror: { setValue(v: string): void } };
      editor.CodeMirror.setValue(value);
    },
    selector,
    value,
  );
  // GraphiQL takes the editor's content on its next change event; give it a moment.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
}

/** Runs `query` from the query editor and waits for a response that contains `expected`. */
async function runQuery(page: Page, query: string, expected: string): Promise<string> {
  await setEditor(page, '.graphiql-query-editor .CodeMirror', query);
  await page.click('.graphiql-execute-button');
  await page.waitForFunction(
    (expected) => document.querySelector('.graphiql-response')?.textContent?.includes(expected),
    { timeout: 20_000 },
    expected,
  );
  return page.$eval('.graphiql-response', (element) => element.textContent ?? '');
}

const storedIn = (page: Page, where: 'localStorage' | 'sessionStorage') =>
  page.evaluate((where) => {
    const storage = window[where];
    return Object.keys(storage).map((name) => `${name}=${storage.getItem(name)}`).join('\n');
  }, where);

describe('GraphiQL', () => {
  it('serves the page and its assets without a key, from this service only, with a strict content security policy', async () => {
    const page = await service.as(null).raw({ method: 'GET', path: '/graphql', headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.text).not.toMatch(/<script[^>]+src="https?:/);
    expect(page.text).not.toMatch(/<link[^>]+href="https?:/);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unpkg');
    for (const asset of page.text.matchAll(/(?:src|href)="(\/graphiql\/[^"]+)"/g)) {
      expect((await service.as(null).raw({ method: 'GET', path: asset[1]! })).status, asset[1]).toBe(200);
    }
    // Asset addresses change with their content, so a browser's day-long cache never serves an old start script.
    expect(page.text).toMatch(/<script src="\/graphiql\/start\.js\?v=[0-9a-f]{12}"><\/script>/);
    // The page opens with example operations for the common tasks.
    expect(page.text).toContain('query WholeDomain');
    expect(page.text).toContain('mutation Scan');
  });

  it('runs a query typed into the editor and shows the result', { timeout: 60_000 }, async () => {
    const client = await createClient(service, { company: 'Browser Test GmbH' });
    const page = await browser.newPage();
    const elsewhere: string[] = [];
    const problems: string[] = [];
    page.on('request', (request) => {
      const url = request.url();
      if (!url.startsWith(service.baseUrl) && !/^(?:data|blob|about):/.test(url)) elsewhere.push(url);
    });
    page.on('pageerror', (error) => problems.push(String(error)));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    // What a user types into GraphiQL's Headers tab; here it rides on every request of the page.
    await page.setExtraHTTPHeaders({ authorization: `Bearer ${ADMIN_KEY}` });
    await page.goto(`${service.baseUrl}/graphql`, { waitUntil: 'networkidle0', timeout: 30_000 });
    await page.waitForSelector('.graphiql-query-editor .CodeMirror', { timeout: 20_000 });
    await page.evaluate((query) => {
      const editor = document.querySelector('.graphiql-query-editor .CodeMirror') as unknown as { CodeMirror: { setValue(v: string): void } };
      editor.CodeMirror.setValue(query);
    }, `{ client(id: "${client.id}") { username company } }`);
    // GraphiQL takes the editor's content on its next change event; give it a moment.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await page.click('.graphiql-execute-button');
    await page.waitForFunction(
      () => document.querySelector('.graphiql-response')?.textContent?.includes('Browser Test GmbH'),
      { timeout: 20_000 },
    );
    const shown = await page.$eval('.graphiql-response', (element) => element.textContent ?? '');
    expect(shown).toContain(client.username);
    expect(elsewhere).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe('over plain HTTP at a host name other than localhost', () => {
  // Helmet's default content security policy carries `upgrade-insecure-requests`: browsers then
  // fetch the page's scripts over https, which this service does not speak, and the pages stay
  // blank (localhost is exempt, so only a host name shows it).
  it('GraphiQL renders: its scripts load and the editor appears', { timeout: 60_000 }, async () => {
    const watched = await watchedPage(atHost);
    const answer = await watched.page.goto(`${atHost}/graphql`, { waitUntil: 'networkidle0', timeout: 30_000 });
    expect(answer?.status()).toBe(200);
    expect(watched.failed).toEqual([]);
    expect(answer?.headers()['content-security-policy']).not.toContain('upgrade-insecure-requests');
    const scripts = scriptsOf(watched);
    expect(scripts).toEqual(['react.js', 'react-dom.js', 'graphiql.js', 'start.js'].map((name) => `${atHost}/graphiql/${name}`));
    await watched.page.waitForSelector('.graphiql-query-editor .CodeMirror', { timeout: 20_000 });
    await watched.page.waitForSelector('.key-bar #api-key', { timeout: 5_000 });
    expect(watched.elsewhere).toEqual([]);
    expect(watched.problems).toEqual([]);
    await watched.close();
  });

  it('the API reference at /docs renders: its script loads and the operations are listed', { timeout: 60_000 }, async () => {
    const watched = await watchedPage(atHost);
    const answer = await watched.page.goto(`${atHost}/docs`, { waitUntil: 'networkidle0', timeout: 30_000 });
    expect(answer?.status()).toBe(200);
    expect(watched.failed).toEqual([]);
    const scripts = scriptsOf(watched);
    expect(scripts).toEqual([`${atHost}/docs/assets/standalone.js`, `${atHost}/docs/assets/start.js`]);
    // The sidebar lists the operations of the first group with their methods, and the other groups.
    await watched.page.waitForFunction(() => document.querySelectorAll('.sidebar-heading-type').length >= 5, { timeout: 20_000 });
    const sidebar = await watched.page.$eval('.t-doc__sidebar', (element) => (element as HTMLElement).innerText);
    for (const entry of ['Create client', 'Read all clients', 'API keys', 'Domains', 'Embeddings', 'Themes']) expect(sidebar).toContain(entry);
    const endpoints = await watched.page.$$eval('.endpoints', (elements) => elements.map((element) => (element as HTMLElement).innerText).join('\n'));
    expect(endpoints).toContain('/hosting/api/client/{clientId}');
    expect(watched.elsewhere).toEqual([]);
    expect(watched.problems).toEqual([]);
    await watched.close();
  });
});

describe('GraphiQL asks for the API key first', () => {
  it('on first open: says a key is needed and where keys come from, asks for no schema and shows no error', { timeout: 60_000 }, async () => {
    const watched = await watchedPage(atHost);
    const { page } = watched;
    await page.goto(`${atHost}/graphql`, { waitUntil: 'networkidle0', timeout: 30_000 });
    await page.waitForSelector('.graphiql-query-editor .CodeMirror', { timeout: 20_000 });
    const bar = await barText(page);
    expect(bar).toContain('An API key is needed');
    expect(bar).toContain('ADMIN_API_KEY');
    expect(bar).toContain('printed on its terminal at the first start');
    expect(bar).toContain('POST /hosting/api/client/{id}/apikey');
    expect(await page.$eval('#api-key', (input) => (input as HTMLInputElement).type)).toBe('password');
    expect(await page.$eval('#api-key', (input) => input === document.activeElement)).toBe(true);
    // Nothing was asked of GraphQL without a key, so nothing was refused.
    expect(graphqlRequests(watched)).toEqual([]);
    expect(watched.refused).toEqual([]);
    await page.click('button[aria-label="Show Documentation Explorer"]');
    await page.waitForSelector('.graphiql-doc-explorer', { timeout: 5_000 });
    const shown = await page.evaluate(() => document.body.innerText);
    expect(shown).not.toContain('Error fetching schema');
    expect(shown).not.toContain('UNAUTHENTICATED');
    const response = await page.$eval('.graphiql-response .CodeMirror', (element) =>
      (element as unknown as { CodeMirror: { getValue(): string } }).CodeMirror.getValue(),
    );
    expect(response).toBe('');
    // The Headers tab starts empty: no placeholder to fill in.
    await page.click('button[data-name="headers"]');
    const headersTab = await page.$eval('.graphiql-editor-tool .graphiql-editor:not(.hidden) .CodeMirror', (element) =>
      (element as unknown as { CodeMirror: { getValue(): string } }).CodeMirror.getValue(),
    );
    expect(headersTab).toBe('');
    expect(watched.failed).toEqual([]);
    expect(watched.problems).toEqual([]);
    await watched.close();
  });

  it('takes the key from the bar: fetches the schema with it at once, sends it with every request, keeps it for the session only', { timeout: 90_000 }, async () => {
    const client = await createClient(service, { company: 'Key Bar GmbH' });
    const watched = await watchedPage(atHost);
    const { page } = watched;
    await page.goto(`${atHost}/graphql`, { waitUntil: 'networkidle0', timeout: 30_000 });
    await page.waitForSelector('#api-key', { timeout: 20_000 });
    await enterKey(page, ADMIN_KEY);
    await waitForBar(page, 'Key accepted');
    // The schema arrived without re-fetching by hand: the documentation explorer lists Query's fields.
    const fields = await queryFieldsInDocs(page);
    expect(fields).toContain('clients');
    expect(fields).toContain('presets');
    expect(graphqlRequests(watched).some((request) => request.body?.includes('__schema'))).toBe(true);
    // An operation goes out with the key too.
    const shown = await runQuery(page, `{ client(id: "${client.id}") { username company } }`, 'Key Bar GmbH');
    expect(shown).toContain(client.username);
    for (const request of graphqlRequests(watched)) expect(request.authorization, request.body).toBe(`Bearer ${ADMIN_KEY}`);
    // The input is emptied; the key is in sessionStorage, not localStorage, and in no address.
    expect(await page.$eval('#api-key', (input) => (input as HTMLInputElement).value)).toBe('');
    expect(await storedIn(page, 'sessionStorage')).toContain(ADMIN_KEY);
    expect(await storedIn(page, 'localStorage')).not.toContain(ADMIN_KEY);
    expect(page.url()).toBe(`${atHost}/graphql`);
    expect(watched.requests.filter((request) => request.url.includes(ADMIN_KEY))).toEqual([]);

    // A reload within the session keeps the key and loads the schema again.
    const before = graphqlRequests(watched).length;
    await page.reload({ waitUntil: 'networkidle0', timeout: 30_000 });
    await waitForBar(page, 'Key accepted');
    expect(await queryFieldsInDocs(page)).toContain('clients');
    expect(graphqlRequests(watched).slice(before).some((request) => request.body?.includes('__schema'))).toBe(true);
    expect(page.url()).toBe(`${atHost}/graphql`);
    expect(watched.requests.filter((request) => request.url.includes(ADMIN_KEY))).toEqual([]);
    expect(await storedIn(page, 'localStorage')).not.toContain(ADMIN_KEY);

    // "Forget key" drops it: the page asks again, and nothing holds the key any more.
    await page.click('.key-bar-forget');
    await waitForBar(page, 'An API key is needed');
    expect(await storedIn(page, 'sessionStorage')).not.toContain(ADMIN_KEY);
    expect(watched.refused).toEqual([]);
    expect(watched.failed).toEqual([]);
    expect(watched.elsewhere).toEqual([]);
    expect(watched.problems).toEqual([]);
    await watched.close();
  });

  it('says so in the bar when the service refuses a key (401), keeps no wrong key, and takes a right one next', { timeout: 60_000 }, async () => {
    const watched = await watchedPage(atHost);
    const { page } = watched;
    await page.goto(`${atHost}/graphql`, { waitUntil: 'networkidle0', timeout: 30_000 });
    await page.waitForSelector('#api-key', { timeout: 20_000 });
    await enterKey(page, 'dcs_not-a-key-of-this-service');
    await waitForBar(page, 'The key was refused (401)');
    const bar = await barText(page);
    expect(bar).toContain('ADMIN_API_KEY');
    expect(watched.refused).toEqual([`${atHost}/graphql`]);
    // GraphiQL asked for no schema with the wrong key, so it shows no error of its own.
    expect(graphqlRequests(watched).filter((request) => request.body?.includes('__schema'))).toEqual([]);
    await page.click('button[aria-label="Show Documentation Explorer"]');
    await page.waitForSelector('.graphiql-doc-explorer', { timeout: 5_000 });
    expect(await page.evaluate(() => document.body.innerText)).not.toContain('Error fetching schema');
    expect(await storedIn(page, 'sessionStorage')).not.toContain('dcs_not-a-key');
    // After a reload the page asks again.
    await page.reload({ waitUntil: 'networkidle0', timeout: 30_000 });
    await waitForBar(page, 'An API key is needed');
    expect(watched.refused).toHaveLength(1);
    // The right key works at once.
    await enterKey(page, ADMIN_KEY);
    await waitForBar(page, 'Key accepted');
    await docsShowSchema(page);
    expect(watched.failed).toEqual([]);
    // Chromium logs the refused request as a console error; nothing else went wrong.
    expect(watched.problems.filter((problem) => !/status of 401/.test(problem))).toEqual([]);
    await watched.close();
  });

  it('an Authorization header typed into the Headers tab replaces the bar\'s key for that tab', { timeout: 60_000 }, async () => {
    const own = await createClient(service, { company: 'Own Client GmbH' });
    const other = await createClient(service, { company: 'Other Client GmbH' });
    const created = await createApiKey(service, own.id, 'graphiql');
    const watched = await watchedPage(atHost);
    const { page } = watched;
    await page.goto(`${atHost}/graphql`, { waitUntil: 'networkidle0', timeout: 30_000 });
    await page.waitForSelector('#api-key', { timeout: 20_000 });
    await enterKey(page, ADMIN_KEY);
    await waitForBar(page, 'Key accepted');
    await page.click('button[data-name="headers"]');
    await setEditor(page, '.graphiql-editor-tool .graphiql-editor:not(.hidden) .CodeMirror', JSON.stringify({ authorization: `Bearer ${created.key}`, 'X-Request-Id': 'graphiql-headers-tab' }));
    const shown = await runQuery(page, '{ clients { username company } }', own.username);
    expect(shown).not.toContain(other.username);
    const last = graphqlRequests(watched).at(-1)!;
    expect(last.authorization).toBe(`Bearer ${created.key}`);
    // The other headers of the tab go along.
    expect(last.headers['x-request-id']).toBe('graphiql-headers-tab');
    // Still the bar's key for the page; the client key was not taken for it.
    expect(await barText(page)).toContain('Key accepted');
    expect(await storedIn(page, 'sessionStorage')).toContain(ADMIN_KEY);
    expect(watched.refused).toEqual([]);
    expect(watched.problems).toEqual([]);
    await watched.close();
  });
});
