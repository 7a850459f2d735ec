import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_FLAGS, findChromium } from '../../../src/scanner/chromium.ts';
import { buildBannerConfig } from '../../../src/features/banner/banner-config.build.ts';
import { readPublishedConfiguration } from '../../../src/features/banner/published-configuration.ts';
import { themePayload } from '../../support/fixtures.ts';
import { useServiceWithDomain } from '../../support/service-with-domain.ts';

/**
 * The snippet on a real page, in a real (headless) Chromium, with this service as the only
 * server of the banner: what a visitor of the operator's site sees and what runs, before and
 * after each choice. The site is `www.example.org` (resolved to a fixture server on loopback).
 */

const SITE = 'www.example.org';
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** A theme an operator might choose: light window, blue buttons, readable everywhere. */
const THEME = {
  windowBackgroundColor: '#fdf6e3',
  windowForegroundColor: '#073642',
  windowLinkColor: '#00527a',
  windowBorderColor: '#93a1a1',
  primaryButtonBackgroundColor: '#005f87',
  primaryButtonForegroundColor: '#ffffff',
  primaryButtonBorderColor: '#005f87',
  declineButtonBackgroundColor: '#005f87',
  declineButtonForegroundColor: '#ffffff',
  declineButtonBorderColor: '#005f87',
  buttonBackgroundColor: '#eee8d5',
  buttonForegroundColor: '#073642',
  buttonBorderColor: '#93a1a1',
  iframeBlockerBackgroundColor: '#073642',
  iframeBlockerForegroundColor: '#fdf6e3',
  iframeBlockerButtonBackgroundColor: '#fdf6e3',
  iframeBlockerButtonForegroundColor: '#073642',
};

describe('the banner on the operator’s site', () => {
  const { service, domain } = useServiceWithDomain({ domainPer: 'suite', service: { publicBaseUrl: 'self' } });
  let browser: Browser;
  let site: Server;
  let siteBase: string;
  /** The tags the onboarding hands out, by locale (`default`: the visitor's language). */
  let snippets: Record<string, string>;
  /**
   * Requests the fixture site got for the embedded video. The page writes it with `data-src`, as
   * the README advises: a plain `src` in the HTML is requested by Chromium as the parser inserts
   * it, before any script can hold it back (the banner still keeps its document from loading).
   */
  let videoRequests = 0;
  const ids: Record<string, string> = {};

  const created = async (path: string, body: unknown) => {
    const answer = await service.rest('POST', `${domain.base}${path}`, body);
    expect(answer.status, answer.text).toBe(201);
    return answer.body as { id: string };
  };

  beforeAll(async () => {
    ids.analytics = (
      await created('/embedding', {
        name: 'Google Analytics',
        purpose: 'a717ff5',
        vendor: 'Google Ireland Limited',
        privacyPolicyUrl: 'https://policies.google.com/privacy',
        scriptLoaderGroup: 'ga',
        googleConsentMode: ['analytics_storage'],
        assets: [
          { name: '_ga', lifetime: '2 Jahre' },
          { name: '_ga_*', dynamic: true, lifetime: '2 Jahre' },
          { name: 'ga_seen', storageType: 'localStorage' },
        ],
      })
    ).id;
    ids.video = (
      await created('/embedding', {
        name: 'YouTube',
        purpose: '6cd2721',
        vendor: 'Google Ireland Limited',
        iframeMarkers: ['youtube.com'],
        assets: [{ name: 'VISITOR_INFO1_LIVE' }],
      })
    ).id;
    // Described in English only, its name with an ampersand: the German banner shows the English text, and the switch reads "&".
    ids.ads = (
      await created('/embedding', {
        name: 'Ads & Remarketing',
        purpose: 'cdcbd7c',
        googleConsentMode: ['ad_storage'],
        translations: { en_US: { name: 'Ads & Remarketing', description: 'Measures which ads lead to a purchase.' } },
        assets: [{ name: '_gcl_au', lifetime: '3 months' }],
      })
    ).id;
    expect((await service.rest('PUT', `${domain.base}/placeholder`, [{ name: 'FIRMA', value: 'Beispiel & Söhne GmbH' }])).status).toBe(201);
    expect((await service.rest('PUT', `${domain.base}/locale/de_DE`, { widgetTitle: 'Datenschutz bei {FIRMA}' })).status).toBe(200);
    ids.theme = (await created('/theme', { ...themePayload(), ...THEME, default: true })).id;
    expect((await service.rest('PUT', domain.base, { consentResetOnLegalChange: true })).status).toBe(200);
    snippets = (await service.rest('GET', `${domain.base}/onboarding/embed`)).body;

    site = createServer((req, res) => {
      if (req.url?.startsWith('/youtube.com/')) {
        videoRequests++;
        res.writeHead(200, { 'content-type': 'text/html' });
        return void res.end('<!doctype html><title>Video</title><p>the video</p>');
      }
      const locale = new URL(req.url ?? '/', 'http://x').searchParams.get('snippet') ?? 'default';
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html lang="de"><head><meta charset="utf-8"><title>Beispiel</title>
${snippets[locale]}
<script>addEventListener('ccm19WidgetLoaded', () => { window.bannerReady = true; });
addEventListener('ccm19ConsentRecorded', (event) => { window.recorded = event.detail; });</script>
<script type="text/x-ccm-loader" data-ccm-loader-group="ga">
  document.cookie = '_ga=GA1.1.1; path=/'; document.cookie = '_ga_ABC123=GS1.1; path=/';
  localStorage.setItem('ga_seen', '1'); window.analyticsRan = (window.analyticsRan || 0) + 1;
</script>
<script type="text/plain" data-category="analytics">window.plainAnalyticsRan = true;</script>
</head><body><main><h1>Willkommen</h1>
<iframe data-src="/youtube.com/embed/abc" title="Video" width="560" height="315"></iframe>
<div class="ccm-cookie-declaration">Bitte aktivieren Sie Javascript.</div>
</main></body></html>`);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteBase = `http://${SITE}:${(site.address() as AddressInfo).port}`;
    const binary = await findChromium(process.env.CHROME_PATH);
    browser = await puppeteer.launch({ executablePath: binary.path, headless: 'shell', args: [...CHROMIUM_FLAGS, `--host-resolver-rules=MAP ${SITE} 127.0.0.1`] });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => site?.close(resolve));
  });

  /** A visitor: one browser context, so a choice stays for the next page. */
  const visitor = async () => {
    const context = await browser.createBrowserContext();
    const problems: string[] = [];
    /** What each page asked the service for, in order. */
    const fromService: string[] = [];
    const open = async (query = ''): Promise<Page> => {
      const page = await context.newPage();
      page.on('request', (request) => {
        if (request.url().startsWith(service.baseUrl)) fromService.push(new URL(request.url()).pathname);
      });
      await page.setViewport({ width: 1280, height: 800 });
      // What the test asserts is the service's answer, not the browser's copy of it.
      await page.setCacheEnabled(false);
      page.on('pageerror', (error) => problems.push(String(error)));
      await page.goto(`${siteBase}/${query}`, { waitUntil: 'load' });
      await page.waitForFunction(() => (window as unknown as { bannerReady?: boolean }).bannerReady === true, { timeout: 10_000 });
      return page;
    };
    return { context, open, problems, fromService };
  };
  const bannerShown = (page: Page) => page.evaluate(() => document.documentElement.classList.contains('show--consent'));
  const cookieNames = async (page: Page) => (await page.cookies()).map((cookie) => cookie.name);
  /** Clicks a button of a modal once the modal has finished appearing (it slides and fades in). */
  const click = async (page: Page, selector: string) => {
    await page.waitForSelector(selector, { visible: true });
    await settled(page, selector);
    await page.click(selector);
  };
  const settled = (page: Page, selector: string) =>
    page.waitForFunction(
      (selector) => {
        const modal = document.querySelector(selector)?.closest('.cm, .pm');
        return !!modal && getComputedStyle(modal).opacity === '1' && modal.getAnimations().length === 0;
      },
      { timeout: 5_000 },
      selector,
    );
  const consentUpdates = (page: Page) =>
    page.evaluate(() =>
      ((window as unknown as { dataLayer: IArguments[] }).dataLayer ?? [])
        .map((entry) => Array.from(entry))
        .filter((entry) => entry[0] === 'consent'),
    ) as Promise<[string, string, Record<string, string>][]>;

  it('shows the domain’s German texts with its placeholders and theme, and holds everything back until a choice', async () => {
    const { context, open, problems, fromService } = await visitor();
    const page = await open();
    expect(await bannerShown(page)).toBe(true);
    // Two requests to the service before the banner shows: the domain's app.js and the runtime it names.
    expect(fromService).toEqual(['/app.js', expect.stringMatching(/^\/banner\/runtime-[0-9a-f]+\.js$/)]);
    expect(await page.$eval('#cc-main .cm__title', (element) => element.textContent)).toBe('Datenschutz bei Beispiel & Söhne GmbH');
    const look = await page.$eval('#cc-main .cm', (element) => getComputedStyle(element).backgroundColor);
    expect(look).toBe('rgb(253, 246, 227)');
    const button = await page.$eval('#cc-main .cm__btn[data-role="all"]', (element) => getComputedStyle(element).backgroundColor);
    expect(button).toBe('rgb(0, 95, 135)');

    expect(await page.evaluate(() => [(window as any).analyticsRan ?? 'not run', (window as any).plainAnalyticsRan ?? 'not run'])).toEqual(['not run', 'not run']);
    expect(await cookieNames(page)).not.toContain('_ga');
    expect(videoRequests).toBe(0);
    expect(await page.$('iframe[src*="youtube.com"]')).toBeNull();
    const notice = await page.$eval(`div[data-service="${ids.video}"]`, (box) => (box as HTMLElement).innerText);
    expect(notice).toContain('Inhalt laden');
    const [defaults] = await consentUpdates(page);
    expect(defaults?.[1]).toBe('default');
    expect(defaults?.[2]).toMatchObject({ ad_storage: 'denied', analytics_storage: 'denied', ad_user_data: 'denied', ad_personalization: 'denied' });
    expect(await page.$eval('.ccm-cookie-declaration', (element) => element.textContent)).toContain('_ga');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('“accept all” runs the scripts, sets the cookies, loads the video and grants Consent Mode; a new page asks no more', async () => {
    const { context, open, problems } = await visitor();
    const page = await open();
    await click(page, '#cc-main .cm__btn[data-role="all"]');
    await page.waitForFunction(() => (window as any).analyticsRan === 1 && (window as any).plainAnalyticsRan === true);
    expect(await cookieNames(page)).toEqual(expect.arrayContaining(['_ga', '_ga_ABC123']));
    await page.waitForSelector('iframe[src*="youtube.com"]');
    await expect.poll(() => videoRequests).toBeGreaterThan(0);
    const update = (await consentUpdates(page)).at(-1)!;
    expect(update[1]).toBe('update');
    expect(update[2]).toMatchObject({ analytics_storage: 'granted', ad_storage: 'granted', ad_user_data: 'granted', ad_personalization: 'granted' });

    // The choice was recorded, against the revision of the configuration this page was shown.
    const recorded = (await (await page.waitForFunction(() => (window as unknown as { recorded?: unknown }).recorded)).jsonValue()) as { consentId: string };
    const shown = buildBannerConfig((await readPublishedConfiguration(service.database.orm, service.services, domain.domainId))!, null);
    const [row] = await service.database.orm.em
      .fork()
      .getConnection()
      .execute<Record<string, unknown>[]>(`select * from "consent_record" where "consent_id" = ?`, [recorded.consentId]);
    expect(row).toMatchObject({
      domain_id: domain.domainId,
      choice: 'all',
      revision: shown.contentRevision,
      locale: 'de_DE',
      origin: siteBase,
      path: '/',
      address: '127.0.0.0',
    });
    expect([...(row!.services as string[])].sort()).toEqual([ids.analytics, ids.video, ids.ads].sort());

    const next = await open();
    expect(await bannerShown(next)).toBe(false);
    await next.waitForFunction(() => (window as any).analyticsRan === 1);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('lets the operator reconstruct what the visitor saw, after the configuration has moved on', async () => {
    const { context, open } = await visitor();
    const page = await open();
    const seen = await page.evaluate(() => {
      const text = (selector: string) => document.querySelector(selector)?.textContent?.trim() ?? null;
      return {
        title: text('#cc-main .cm__title'),
        description: text('#cc-main .cm__desc'),
        acceptAll: text('#cc-main .cm__btn[data-role="all"]'),
        acceptNecessary: text('#cc-main .cm__btn[data-role="necessary"]'),
      };
    });
    await click(page, '#cc-main .cm__btn[data-role="necessary"]');
    const recorded = (await (await page.waitForFunction(() => (window as unknown as { recorded?: unknown }).recorded)).jsonValue()) as { consentId: string };
    // The configuration changes after the choice: the evidence still shows what this visitor was shown.
    expect((await service.rest('PUT', `${domain.base}/placeholder`, [{ name: 'FIRMA', value: 'Nachfolger AG' }])).status).toBe(201);

    const evidence = await service.rest('GET', `${domain.base}/consent/${recorded.consentId}/evidence`);
    expect(evidence.status, evidence.text).toBe(200);
    expect(evidence.body.revision.configurationVerified).toBe(true);
    expect(evidence.body.locale).toEqual({ recorded: 'de_DE', shown: 'de_DE', fellBack: false });
    const { consentModal } = evidence.body.texts;
    // The evidence holds the banner's own HTML; rendered by the same browser, it reads as the page did.
    const asText = (html: string | null) => page.evaluate((html) => {
      const box = document.createElement('div');
      box.innerHTML = html ?? '';
      return box.textContent!.trim();
    }, html);
    expect({
      title: await asText(consentModal.title),
      description: await asText(consentModal.description),
      acceptAll: await asText(consentModal.acceptAllButton),
      acceptNecessary: await asText(consentModal.acceptNecessaryButton),
    }).toEqual(seen);
    expect(seen.title).toContain('Beispiel & Söhne GmbH');
    const accepted = evidence.body.categories.flatMap((category: { services: { id: string; accepted: boolean }[] }) =>
      category.services.filter((service) => service.accepted).map((service) => service.id),
    );
    expect(accepted).not.toContain(ids.analytics);

    // The printable page says the same.
    const printable = await service.rest('GET', `${domain.base}/consent/${recorded.consentId}/evidence.html`);
    expect(printable.status).toBe(200);
    expect(printable.headers.get('content-type')).toMatch(/^text\/html/);
    const proof = await context.newPage();
    await proof.setContent(printable.text);
    const shown = await proof.evaluate(() => document.body.innerText);
    expect(shown).toContain(seen.title);
    expect(shown).toContain(recorded.consentId);
    expect(shown).not.toContain('Nachfolger AG');
    expect((await service.rest('PUT', `${domain.base}/placeholder`, [{ name: 'FIRMA', value: 'Beispiel & Söhne GmbH' }])).status).toBe(201);
    await context.close();
  });

  it('“reject all” after accepting clears the services’ cookies and storage keys', async () => {
    const { context, open } = await visitor();
    const page = await open();
    await click(page, '#cc-main .cm__btn[data-role="all"]');
    await page.waitForFunction(() => localStorage.getItem('ga_seen') === '1');
    await page.evaluate(() => (window as any).CCM.openControlPanel());
    await click(page, '#cc-main .pm__btn[data-role="necessary"]');
    await expect.poll(() => cookieNames(page)).not.toContain('_ga');
    expect(await cookieNames(page)).not.toContain('_ga_ABC123');
    expect(await page.evaluate(() => localStorage.getItem('ga_seen'))).toBeNull();
    const update = (await consentUpdates(page)).at(-1)!;
    expect(update[2]).toMatchObject({ analytics_storage: 'denied', ad_storage: 'denied' });
    await context.close();
  });

  it('asks again when an embedding changes its purpose, not when a colour changes', async () => {
    const { context, open } = await visitor();
    const page = await open();
    await click(page, '#cc-main .cm__btn[data-role="all"]');
    await page.waitForFunction(() => (window as any).analyticsRan === 1);

    expect((await service.rest('PUT', `${domain.base}/theme/${ids.theme}`, { windowBackgroundColor: '#ffffff' })).status).toBe(200);
    expect(await bannerShown(await open())).toBe(false);

    expect((await service.rest('PUT', `${domain.base}/embedding/${ids.video}`, { purpose: 'cdcbd7c' })).status).toBe(200);
    expect(await bannerShown(await open())).toBe(true);
    await context.close();
  });

  it('speaks English when the snippet asks for en_US', async () => {
    const { context, open } = await visitor();
    const page = await open('?snippet=en_US');
    expect(await page.$eval('#cc-main .cm__title', (element) => element.textContent)).not.toContain('Datenschutz bei');
    expect(await page.evaluate(() => document.querySelector('#cc-main .cm__btn[data-role="all"]')?.textContent)).toBe('Accept all');
    await context.close();
  });

  it('passes an accessibility check (axe-core): no serious or critical violation in the banner or the settings', async () => {
    const { context, open } = await visitor();
    const page = await open();
    await page.addScriptTag({ path: AXE });
    const violations = (selector: string) =>
      page.evaluate(async (selector) => {
        const axe = (window as unknown as { axe: { run(context: unknown): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe;
        const result = await axe.run(selector);
        return result.violations
          .filter((v) => v.impact === 'serious' || v.impact === 'critical')
          .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((node: any) => `${node.target.join(' ')} ${node.failureSummary}`).join(', ')}`);
      }, selector);
    await settled(page, '#cc-main .cm__btn[data-role="all"]');
    // The banner is a dialog: the keyboard focus is in it once it opens.
    expect(await page.evaluate(() => !!document.activeElement?.closest('#cc-main .cm'))).toBe(true);
    expect(await violations('#cc-main')).toEqual([]);
    expect(await violations(`div[data-service="${ids.video}"]`)).toEqual([]);
    // The notice of a blocked video names the service.
    expect(await page.$eval(`div[data-service="${ids.video}"]`, (box) => (box as HTMLElement).innerText)).toContain('YouTube');
    await page.evaluate(() => (window as any).CCM.openControlPanel());
    await settled(page, '#cc-main .pm__btn[data-role="all"]');
    expect(await page.evaluate(() => !!document.activeElement?.closest('#cc-main .pm'))).toBe(true);
    // Every section open, so the cookie tables and the services' details are checked too.
    for (const title of await page.$$('#cc-main .pm__section-title[aria-expanded="false"]')) await title.click();
    expect(await page.$$eval('#cc-main .pm table', (tables) => tables.length)).toBeGreaterThan(0);
    expect(await violations('#cc-main .pm')).toEqual([]);
    // Switches read as written: "&", not "&amp;".
    const labels = await page.$$eval('#cc-main .pm .toggle__label', (spans) => spans.map((span) => span.textContent));
    expect(labels).toContain('Ads & Remarketing');
    expect(labels.filter((label) => label?.includes('&amp;'))).toEqual([]);
    // A service described only in English is described in the German banner too.
    expect(await page.$eval('#cc-main .pm', (modal) => (modal as HTMLElement).innerText)).toContain('Measures which ads lead to a purchase.');
    await context.close();
  });
});
