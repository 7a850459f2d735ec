import puppeteer, { type Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_FLAGS, findChromium } from '../src/onboarding/scanner/chromium.ts';
import { createClient } from './support/fixtures.ts';
import { ADMIN_KEY, startTestService, type TestService } from './support/service.ts';

/** GraphiQL at /graphql in a real (headless) browser: it loads from this service alone and runs a query. */

let service: TestService;
let browser: Browser;
beforeAll(async () => {
  service = await startTestService();
  const binary = await findChromium(process.env.CHROME_PATH);
  browser = await puppeteer.launch({ executablePath: binary.path, headless: 'shell', args: CHROMIUM_FLAGS });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await service?.close();
});

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
