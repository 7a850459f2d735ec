import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TcfListEntry } from '../../../src/features/banner/banner-config.ts';
import { firstLayerItems } from '../../../src/features/banner/runtime/tcf/stacks.ts';
import { tcfTexts } from '../../../src/features/banner/tcf-texts.build.ts';
import { placeholderFiller } from '../../../src/features/banner/texts.ts';
import { importGlobalVendorList } from '../../../src/features/tcf-vendors/import-global-vendor-list.ts';
import type { LocaleRecord } from '../../../src/features/locales/locale.entity.ts';
import { SHIPPED_LANGUAGES } from '../../../src/features/locales/default-texts/index.ts';
import { toLocale } from '../../../src/features/locales/locale.view.ts';
import { createClient, createDomain, type DomainPath } from '../../support/fixtures.ts';
import { startTestService, type TestService } from '../../support/service.ts';
import { launchVisitorBrowser, listenOnLoopback } from './fixtures/browser.ts';
import { tcfLayersList } from './fixtures/tcf-layers-list.ts';

/**
 * The TCF layers (runtime/tcf/layers.ts) in a real Chromium, mounted into the real
 * cookieconsent's modals on a page of their own: what the first layer says (TCF Policies,
 * Appendix B), what the second lists of every vendor, that the switches make the choice, and that
 * both layers are accessible (axe-core, the keyboard, a 390 px wide phone).
 */

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const TCF_DIR = join(import.meta.dirname, '../../../src/features/banner/runtime/tcf');
/** Hundreds of vendors, as a real domain has them. */
const EXTRA_VENDORS = 250;
const { list, settings } = tcfLayersList(EXTRA_VENDORS);
const VENDOR_COUNT = settings.vendorIds.length;
const VENDOR_HOST = 'measurement.test';
const STORAGE_DISCLOSURE = {
  disclosures: [
    { identifier: 'mm_uid', type: 'cookie', maxAgeSeconds: 86_400 * 30, cookieRefresh: false, domains: ['*.measurement.example'], purposes: [1, 7] },
    { identifier: 'mm_seen', type: 'web', maxAgeSeconds: null, domains: ['*'], purposes: [1] },
    { type: 'cookie', note: 'no identifier: not shown' },
  ],
  domains: [{ domain: 'measurement.example', use: 'measurement' }],
};

const textsOf = (name: string) =>
  tcfTexts(toLocale({ name, active: true, texts: {} } as unknown as Pick<LocaleRecord, 'name' | 'active' | 'texts'>), placeholderFiller(new Map([['count', 'OPERATOR']])));

/** The page's script: cookieconsent with one category, the layers hooked into its modals as the TCF bundle does. */
const ENTRY = `
import * as CookieConsent from 'vanilla-cookieconsent';
import css from 'vanilla-cookieconsent/dist/cookieconsent.css';
import { allAccepted, allRejected } from './choice.ts';
import { mountTcfLayers } from './layers.ts';
const plain = (choice) => Object.fromEntries(Object.entries(choice).map(([key, ids]) => [key, [...ids].sort((a, b) => a - b)]));
window.startLayers = ({ settings, list, locale, texts }) => {
  document.head.append(Object.assign(document.createElement('style'), { textContent: css }));
  window.tcfChanges = [];
  const layers = mountTcfLayers({
    settings, list, locale, texts, choice: allRejected(settings, list),
    onChange: (choice) => window.tcfChanges.push(plain(choice)),
    openSecondLayer: () => CookieConsent.showPreferences(),
  });
  window.tcfLayers = layers;
  window.acceptAll = () => layers.setChoice(allAccepted(settings, list));
  window.currentChoice = () => plain(layers.choice());
  window.showPreferences = () => CookieConsent.showPreferences();
  return CookieConsent.run({
    hideFromBots: false,
    categories: { necessary: { enabled: true, readOnly: true } },
    language: {
      default: 'x',
      translations: {
        x: {
          consentModal: { title: 'Your privacy', description: 'We use cookies.', acceptAllBtn: 'Accept all', acceptNecessaryBtn: 'Reject all', showPreferencesBtn: 'Settings' },
          preferencesModal: {
            title: 'Privacy settings', acceptAllBtn: 'Accept all', acceptNecessaryBtn: 'Reject all', savePreferencesBtn: 'Save', closeIconLabel: 'Close',
            sections: [{ title: 'Necessary', description: 'Needed for the site.', linkedCategory: 'necessary' }],
          },
        },
      },
    },
    onModalReady: ({ modalName, modal }) => {
      if (modalName === 'consentModal') layers.addToFirstLayer(modal);
      if (modalName === 'preferencesModal') layers.addToSecondLayer(modal);
    },
  });
};
`;

/** axe-core's serious and critical violations inside `selector` (axe is loaded in the page). */
const seriousIn = (page: Page, selector: string) =>
  page.evaluate(async (selector) => {
    const axe = (window as unknown as { axe: { run(context: unknown): Promise<{ violations: { id: string; impact: string; nodes: { target: string[]; failureSummary?: string }[] }[] }> } }).axe;
    const result = await axe.run(selector);
    return result.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => `${node.target.join(' ')} ${node.failureSummary}`).join(', ')}`);
  }, selector);

describe('the first layer names stacks that fit, then what they leave', () => {
  const stack = (id: number, purposes: number[], specialFeatures: number[] = []): TcfListEntry => ({ id, name: `S${id}`, description: '', purposes, specialFeatures });

  it('chooses the largest fitting stacks without overlap, and lists the rest by name', () => {
    const stacks = { '1': stack(1, [], [1, 2]), '2': stack(2, [2, 7]), '9': stack(9, [1, 2]), '15': stack(15, [3, 4, 5, 6]), '42': stack(42, [2, 7, 8, 9]) };
    const items = firstLayerItems(stacks, new Set([1, 2, 7, 8, 9, 10]), new Set([1, 2]));
    expect(items.stacks.map((chosen) => chosen.id)).toEqual([1, 42]);
    expect(items.purposes).toEqual([1, 10]);
    expect(items.specialFeatures).toEqual([]);
  });

  it('never names a stack holding something not asked for; without stacks everything is named by itself', () => {
    const items = firstLayerItems({ '1': stack(1, [], [1, 2]), '15': stack(15, [3, 4]) }, new Set([3]), new Set([1]));
    expect(items).toEqual({ stacks: [], purposes: [3], specialFeatures: [1] });
    expect(firstLayerItems({}, new Set([2, 1]), new Set())).toEqual({ stacks: [], purposes: [1, 2], specialFeatures: [] });
  });
});

describe("the layers' texts from the server", () => {
  it('come from the locale (escaped, its placeholders filled) and, for the required sentences, from the built-in German or English', () => {
    const german = textsOf('de_DE');
    expect(german.partners).toBe('Partner');
    expect(german.firstLayer).toContain('Wir und unsere {count} Partner');
    const english = textsOf('en_US');
    expect(english.firstLayer).toContain('We and our {count} partners');
    // A placeholder an operator named `count` never takes the runtime's place.
    expect(english.showPartners).toBe('Show all {count} partners');
    expect(textsOf('fr_FR').purposes).toBe('Finalités');
    expect(textsOf('fr_FR').consent).toBe('Consentement');
    // A language without texts of its own: English.
    expect(textsOf('sv_SE').consent).toBe('Consent');
    for (const language of SHIPPED_LANGUAGES) {
      const texts = textsOf(`${language}_XX`);
      for (const key of ['firstLayer', 'showPartners', 'partnerCount'] as const) expect(texts[key], `${language} ${key}`).toContain('{count}');
      expect(texts.legitimateInterestNote, language).toContain('{purposes}');
      for (const key of ['retention', 'days'] as const) expect(texts[key], `${language} ${key}`).toContain('{days}');
      expect(Object.values(texts).every((text) => text.trim() !== ''), language).toBe(true);
    }
    const own = tcfTexts({ ...toLocale({ name: 'en_US', active: true, texts: {} } as never), tcfThirdPartiesLabel: '<b>{FIRMA}</b> & co' }, placeholderFiller(new Map([['FIRMA', 'Acme']])));
    expect(own.partners).toBe('&lt;b&gt;Acme&lt;/b&gt; &amp; co');
  });
});

// A browser on a shared machine: each test opens pages and waits for the banner's transitions.
describe('the TCF layers in a browser', { timeout: 90_000 }, () => {
  let server: Server;
  let browser: Browser;
  let origin: string;
  let vendorOrigin: string;

  beforeAll(async () => {
    const { build } = await import('esbuild');
    const bundle = await build({
      stdin: { contents: ENTRY, resolveDir: TCF_DIR, loader: 'ts', sourcefile: 'tcf-layers-page.ts' },
      bundle: true,
      write: false,
      format: 'iife',
      platform: 'browser',
      target: 'es2019',
      loader: { '.css': 'text' },
      tsconfig: join(TCF_DIR, '../tsconfig.json'),
      logLevel: 'silent',
    });
    const script = bundle.outputFiles[0]!.text;
    server = createServer((request, response) => {
      // A vendor's storage disclosure, on a host of its own, served with CORS as vendors must.
      if (request.url === '/device-storage.json')
        return response.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*' }).end(JSON.stringify(STORAGE_DISCLOSURE));
      if (request.url === '/layers.js') return response.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
      response
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end('<!doctype html><html lang="en"><head><title>TCF layers</title></head><body><main><h1>A page</h1></main><script src="/layers.js"></script></body></html>');
    });
    origin = `http://127.0.0.1:${await listenOnLoopback(server)}`;
    browser = await launchVisitorBrowser([VENDOR_HOST]);
    vendorOrigin = origin.replace('127.0.0.1', VENDOR_HOST);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  async function open(locale: 'en_US' | 'de_DE', width = 1280, shownList = list): Promise<Page> {
    const page = await browser.newPage();
    await page.setViewport({ width, height: width < 500 ? 844 : 900 });
    await page.goto(origin);
    await page.evaluate((options) => (window as any).startLayers(options), { settings, list: shownList, locale, texts: textsOf(locale) });
    await page.waitForSelector('#cc-main .cm .ccm-tcf-first');
    await page.waitForFunction(() => getComputedStyle(document.querySelector('#cc-main .cm')!).opacity === '1', { polling: 100 });
    return page;
  }

  /** Opens the settings the way the first layer offers: its "show all partners" button. */
  async function openPartners(page: Page): Promise<void> {
    await page.click('#cc-main .ccm-tcf-open');
    await page.waitForSelector('#cc-main .pm .ccm-tcf-second');
    await page.waitForFunction(() => getComputedStyle(document.querySelector('#cc-main .pm')!).opacity === '1', { polling: 100 });
  }

  async function unfold(page: Page, selector: string): Promise<void> {
    await page.$$eval(selector, (all) => all.forEach((details) => ((details as HTMLDetailsElement).open = true)));
    // The toggle event that draws a vendor's details comes after the change.
    await page.waitForFunction((selector) => [...document.querySelectorAll(selector)].every((details) => details.childElementCount > 1), { polling: 100 }, selector);
  }

  const innerText = (page: Page, selector: string) => page.$eval(selector, (element) => (element as HTMLElement).innerText);

  it('first layer: the number of partners, the purposes as stacks and by name, the special feature, legitimate interest and the way to the partners', async () => {
    const page = await open('en_US');
    const notice = await innerText(page, '#cc-main .cm .ccm-tcf-first');
    expect(notice).toContain(`We and our ${VENDOR_COUNT} partners store information on your device`);
    expect(notice).toContain('Basic ads and their measurement');
    expect(notice).toContain('Basic ads can be shown, and how well they perform can be measured.');
    expect(notice).not.toContain('Device storage and basic ads');
    expect(notice).not.toContain('Personalised advertising');
    expect(notice).toContain(list.purposes['1']!.name);
    // Purpose 2 is named by its stack only.
    expect(notice).not.toContain(list.purposes['2']!.name);
    expect(notice).toContain(list.specialFeatures['1']!.name);
    expect(notice).toMatch(new RegExp(`legitimate interest for: ${list.purposes['7']!.name}\\. You have the right to object`));
    expect(notice).toContain('withdraw your consent at any time');
    expect(await innerText(page, '#cc-main .ccm-tcf-open')).toBe(`Show all ${VENDOR_COUNT} partners`);

    await openPartners(page);
    // The button leads to the partners: their heading has the focus.
    await page.waitForFunction(() => document.activeElement?.classList.contains('ccm-tcf-heading'), { polling: 100 });
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(`Partners (${VENDOR_COUNT})`);
    await page.close();
  });

  it('second layer: purposes, special features, special purposes, features and every vendor with what the Policies require, in German', async () => {
    // Vendor 2's storage disclosure can be read; vendor 1's host cannot be reached.
    const withDisclosure = structuredClone(list);
    withDisclosure.vendors['2']!.deviceStorageDisclosureUrl = `${vendorOrigin}/device-storage.json`;
    const page = await open('de_DE', 1280, withDisclosure);
    expect(await innerText(page, '#cc-main .cm .ccm-tcf-first')).toContain(`Wir und unsere ${VENDOR_COUNT} Partner`);
    await openPartners(page);
    const vendorIds = await page.$$eval('#cc-main .pm li[data-vendor]', (items) => items.map((item) => Number(item.getAttribute('data-vendor'))));
    expect(vendorIds).toEqual(settings.vendorIds);
    expect(vendorIds).not.toContain(3);
    const second = await innerText(page, '#cc-main .pm .ccm-tcf-second');
    for (const heading of ['Zwecke', 'Besondere Funktionen', 'Besondere Zwecke', 'Funktionen', `Partner (${VENDOR_COUNT})`]) expect(second).toContain(heading);
    expect(second).toContain('Eingeschränkte Daten zur Auswahl der Werbung verwenden');
    expect(second).toContain('Besondere Funktionen erlauben oder verbieten Sie für alle Partner gemeinsam.');
    expect(second).toContain(`${VENDOR_COUNT} Partner`);

    // A purpose unfolds to its description and examples.
    await page.$eval('#cc-main .pm .ccm-tcf-section details', (details) => ((details as HTMLDetailsElement).open = true));
    await unfold(page, '#cc-main .pm li[data-vendor="1"] details, #cc-main .pm li[data-vendor="2"] details, #cc-main .pm li[data-vendor="40"] details');
    const adTech = await innerText(page, '#cc-main .pm li[data-vendor="1"]');
    for (const fact of [
      'Informationen auf einem Gerät speichern und/oder abrufen (Daten werden 365 Tage gespeichert)',
      'Eingeschränkte Daten zur Auswahl der Werbung verwenden (Daten werden 30 Tage gespeichert)',
      'Zwecke auf Grundlage berechtigten Interesses',
      'Werbeleistung messen (Daten werden 365 Tage gespeichert)',
      'Sicherheit gewährleisten, Betrug verhindern und Fehler beheben (Daten werden 14 Tage gespeichert)',
      'Daten aus anderen Quellen abgleichen und kombinieren',
      'IP-Adressen',
      'Geräteeigenschaften',
      'Längste Speicherdauer der Cookies: 365 Tage',
      'Die Speicherdauer der Cookies dieses Partners kann sich bei jedem Besuch verlängern.',
    ])
      expect(adTech).toContain(fact);
    const links = await page.$$eval('#cc-main .pm li[data-vendor="1"] a', (anchors) => anchors.map((anchor) => [anchor.textContent, anchor.getAttribute('href'), anchor.getAttribute('target')]));
    expect(links).toEqual([
      ['Datenschutzerklärung', 'https://adtech.example/datenschutz', '_blank'],
      ['Berechtigtes Interesse', 'https://adtech.example/berechtigtes-interesse', '_blank'],
      ['Ausführliche Angaben zur Speicherung', 'https://adtech.example/tcf/device-storage.json', '_blank'],
    ]);
    // Only English addresses: the English ones; no legitimate interest claimed: no link to a claim.
    expect(await page.$$eval('#cc-main .pm li[data-vendor="2"] a', (anchors) => anchors.map((anchor) => anchor.getAttribute('href')))).toEqual([
      'https://measurement.example/privacy',
      `${vendorOrigin}/device-storage.json`,
    ]);
    // What the disclosure says of each stored item, under its link.
    await page.waitForSelector('#cc-main .pm li[data-vendor="2"] .ccm-tcf-storage', { timeout: 5_000 });
    expect(await page.$$eval('#cc-main .pm li[data-vendor="2"] .ccm-tcf-storage > li', (items) => items.map((item) => (item as HTMLElement).innerText))).toEqual([
      'mm_uid – Art: cookie; 30 Tage; *.measurement.example; Zwecke: Informationen auf einem Gerät speichern und/oder abrufen, Werbeleistung messen',
      'mm_seen – Art: web; *; Zwecke: Informationen auf einem Gerät speichern und/oder abrufen',
    ]);
    expect(await page.$$eval('#cc-main .pm li[data-vendor="1"] .ccm-tcf-storage', (lists) => lists.length)).toBe(0);
    expect(await innerText(page, '#cc-main .pm li[data-vendor="2"]')).toContain('nicht nur in Cookies');
    const video = await innerText(page, '#cc-main .pm li[data-vendor="40"]');
    expect(video).toContain('Speichert keine Cookies.');
    expect(video).toContain('Genaue Standortdaten verwenden');
    expect(video).not.toContain('(von Ihnen erlaubt)');
    // Switches: consent for each vendor that asks it, "legitimate interest" where it claims one.
    expect(await page.$$eval('#cc-main .pm input[data-tcf="vendorsConsent"]', (inputs) => inputs.length)).toBe(VENDOR_COUNT);
    const withInterest = settings.vendorIds.filter((id) => list.vendors[String(id)]!.legIntPurposes.length > 0);
    expect(await page.$$eval('#cc-main .pm input[data-tcf="vendorsLegitimateInterest"]', (inputs) => inputs.map((input) => Number(input.getAttribute('data-id'))))).toEqual(withInterest);
    await page.close();
  });

  it('the switches make the choice: each change reaches onChange; a choice made elsewhere shows on them', async () => {
    const page = await open('en_US');
    await openPartners(page);
    const lastChange = () => page.evaluate(() => (window as any).tcfChanges.at(-1));
    expect(await page.$eval('#cc-main .pm input[data-tcf="purposesLegitimateInterest"][data-id="7"]', (input) => (input as HTMLInputElement).checked)).toBe(true);

    await page.click('#cc-main .pm li[data-vendor="1"] input[data-tcf="vendorsConsent"]');
    expect((await lastChange()).vendorsConsent).toEqual([1]);
    // Objecting to the legitimate interest for purpose 7, by the switch's label.
    await page.click('#cc-main .pm input[data-tcf="purposesLegitimateInterest"][data-id="7"] + span');
    const change = await lastChange();
    expect(change.purposesLegitimateInterest).toEqual([]);
    expect(change.vendorsConsent).toEqual([1]);
    await page.click('#cc-main .pm input[data-tcf="specialFeatures"][data-id="1"]');
    await page.click('#cc-main .pm input[data-tcf="purposesConsent"][data-id="2"]');
    await page.click('#cc-main .pm li[data-vendor="101"] input[data-tcf="vendorsLegitimateInterest"]');
    expect(await lastChange()).toMatchObject({ specialFeatures: [1], purposesConsent: [2], vendorsConsent: [1] });
    expect((await lastChange()).vendorsLegitimateInterest).not.toContain(101);
    expect(await page.evaluate(() => (window as any).tcfChanges.length)).toBe(5);

    // The special feature the visitor allowed is marked as such in the vendor's details.
    await unfold(page, '#cc-main .pm li[data-vendor="40"] details');
    expect(await innerText(page, '#cc-main .pm li[data-vendor="40"]')).toContain(`${list.specialFeatures['1']!.name} (allowed by you)`);

    await page.evaluate(() => (window as any).acceptAll());
    expect(await page.$$eval('#cc-main .pm .ccm-tcf input[type="checkbox"]', (inputs) => inputs.every((input) => (input as HTMLInputElement).checked))).toBe(true);
    expect((await page.evaluate(() => (window as any).currentChoice())).vendorsConsent).toHaveLength(VENDOR_COUNT);
    await page.close();
  });

  it('passes axe-core: no serious or critical violation in either layer, with details unfolded', async () => {
    const page = await open('en_US');
    await page.addScriptTag({ path: AXE });
    expect(await seriousIn(page, '#cc-main')).toEqual([]);
    await openPartners(page);
    await page.$$eval('#cc-main .pm .ccm-tcf-section:not(:last-child) details', (all) => all.forEach((details) => ((details as HTMLDetailsElement).open = true)));
    await unfold(page, '#cc-main .pm li[data-vendor="1"] details, #cc-main .pm li[data-vendor="2"] details, #cc-main .pm li[data-vendor="40"] details, #cc-main .pm li[data-vendor="101"] details');
    expect(await seriousIn(page, '#cc-main .pm')).toEqual([]);
    await page.close();
  });

  it('fits a 390 px wide phone: nothing in either layer is wider than the screen', async () => {
    const page = await open('de_DE', 390);
    const overflowing = (modal: string) =>
      page.$$eval(`#cc-main ${modal} *`, (elements) =>
        elements
          .filter((element) => {
            const box = element.getBoundingClientRect();
            return box.width > 0 && (box.left < -0.5 || box.right > window.innerWidth + 0.5);
          })
          .map((element) => `${element.tagName.toLowerCase()}.${element.className} ${Math.round(element.getBoundingClientRect().right)}`),
      );
    expect(await overflowing('.cm')).toEqual([]);
    await openPartners(page);
    await page.$$eval('#cc-main .pm .ccm-tcf details', (all) => all.slice(0, 12).forEach((details) => ((details as HTMLDetailsElement).open = true)));
    await unfold(page, '#cc-main .pm li[data-vendor="1"] details, #cc-main .pm li[data-vendor="40"] details');
    expect(await overflowing('.pm')).toEqual([]);
    expect(await page.$eval('#cc-main .pm__body', (body) => body.scrollWidth <= body.clientWidth)).toBe(true);
    // cookieconsent unstyles inputs: the switches are drawn as checkboxes again, big enough to see and tap.
    const tooSmall = await page.$$eval('#cc-main .pm .ccm-tcf input[type="checkbox"]', (inputs) =>
      inputs.filter((input) => input.getBoundingClientRect().width < 14 || input.getBoundingClientRect().height < 14 || getComputedStyle(input).appearance === 'none').length,
    );
    expect(tooSmall).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.close();
  });

  it('works by keyboard: Tab reaches the way to the partners and every switch, Space switches', async () => {
    const page = await open('en_US');
    const focused = () => page.evaluate(() => document.activeElement?.className ?? '');
    for (let presses = 0; presses < 20 && !(await focused()).includes('ccm-tcf-open'); presses++) await page.keyboard.press('Tab');
    expect(await focused()).toContain('ccm-tcf-open');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.classList.contains('ccm-tcf-heading'), { polling: 100 });

    const switches = await page.$$eval('#cc-main .pm .ccm-tcf input[type="checkbox"]', (inputs) => inputs.map((input) => `${input.getAttribute('data-tcf')}:${input.getAttribute('data-id')}`));
    const reached = new Set<string>();
    // Forward through the settings until the focus has come round (cookieconsent keeps it in the modal).
    const seen = new Set<string>();
    for (let presses = 0; presses < 4 * switches.length; presses++) {
      await page.keyboard.press('Tab');
      const at = await page.evaluate(() => {
        const active = document.activeElement!;
        const key = active.matches('input[data-tcf]') ? `${active.getAttribute('data-tcf')}:${active.getAttribute('data-id')}` : null;
        const path = [...document.querySelectorAll('#cc-main *')].indexOf(active);
        return { key, path };
      });
      if (at.key) reached.add(at.key);
      if (seen.has(String(at.path)) && reached.size === switches.length) break;
      seen.add(String(at.path));
    }
    expect([...reached].sort()).toEqual([...switches].sort());

    await page.focus('#cc-main .pm li[data-vendor="2"] input[data-tcf="vendorsConsent"]');
    await page.keyboard.press('Space');
    expect(await page.$eval('#cc-main .pm li[data-vendor="2"] input[data-tcf="vendorsConsent"]', (input) => (input as HTMLInputElement).checked)).toBe(true);
    expect((await page.evaluate(() => (window as any).tcfChanges.at(-1))).vendorsConsent).toEqual([2]);
    await page.close();
  }, 120_000);
});

describe('the TCF layers in the real banner of a domain with tcfEnabled', () => {
  const PAGE_HOST = 'publisher.test';
  let service: TestService;
  let domain: DomainPath;
  let browser: Browser;
  let pageServer: Server;
  let pageOrigin: string;
  let snippet: string;

  beforeAll(async () => {
    service = await startTestService({ publicBaseUrl: 'self' });
    const client = await createClient(service);
    domain = await createDomain(service, PAGE_HOST, { clientId: client.id });
    await importGlobalVendorList(service.database.orm.em.fork(), readFileSync(new URL('../../fixtures/global-vendor-list.json', import.meta.url), 'utf8'));
    const put = await service.rest('PUT', domain.base, { tcfEnabled: true, tcfSpecialFeatures: [1] });
    expect(put.status, put.text).toBe(200);
    const embed = await service.rest('GET', `${domain.base}/onboarding/embed`);
    expect(embed.status, embed.text).toBe(200);
    snippet = embed.body.default as string;
    pageServer = createServer((_request, response) =>
      response
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(`<!doctype html><html lang="en"><head>${snippet}<meta charset="utf-8"><title>A publisher</title></head><body><main><h1>News</h1></main></body></html>`),
    );
    pageOrigin = `http://${PAGE_HOST}:${await listenOnLoopback(pageServer)}`;
    browser = await launchVisitorBrowser([PAGE_HOST]);
    // The first banner asked for builds the bundles when the install did not: not on a visitor's clock.
    await fetch(`${service.baseUrl}/app.js?domain=${domain.domainId}`).then((answer) => answer.text());
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => pageServer?.close(resolve));
    await service?.close();
  }, 60_000);

  it('shows both layers on a phone, the vendors of the imported list in them, and passes axe-core there', { timeout: 90_000 }, async () => {
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    await page.setViewport({ width: 390, height: 844 });
    await page.goto(`${pageOrigin}/`, { waitUntil: 'load' });
    await page.waitForSelector('#cc-main .cm .ccm-tcf-first', { timeout: 20_000 });
    const settled = (modal: string) =>
      page.waitForFunction((modal) => document.querySelector(modal)!.getAnimations({ subtree: true }).length === 0 && getComputedStyle(document.querySelector(modal)!).opacity === '1', { polling: 100, timeout: 10_000 }, modal);
    await settled('#cc-main .cm');
    // The banner slides in from below once the CMP is ready.
    await page.waitForFunction(
      () => {
        const notice = document.querySelector('#cc-main .ccm-tcf-first')!;
        return getComputedStyle(notice).visibility === 'visible' && notice.getBoundingClientRect().top < window.innerHeight;
      },
      { polling: 100, timeout: 10_000 },
    );
    await settled('#cc-main .cm');
    // Every locale of the domain carries the layers' texts.
    const locales = await page.evaluate(() => {
      const { config } = (window as unknown as { __ccmBanner: { config: { locales: string[]; texts: Record<string, { tcf?: Record<string, string> }> } } }).__ccmBanner;
      return config.locales.map((name) => [name, config.texts[name]?.tcf?.firstLayer ?? null]);
    });
    expect(locales.length).toBeGreaterThan(0);
    for (const [name, firstLayer] of locales) expect(firstLayer, name!).toMatch(/\{count\}/);
    // The fixture list's valid vendors: 1, 2 and 40 (3 is deleted).
    expect(await page.$eval('#cc-main .ccm-tcf-first', (notice) => (notice as HTMLElement).innerText)).toMatch(/We and our 3 partners|Wir und unsere 3 Partner/);
    await page.addScriptTag({ path: AXE });
    expect(await seriousIn(page, '#cc-main')).toEqual([]);

    await page.$eval('#cc-main .ccm-tcf-open', (button) => button.scrollIntoView({ block: 'center' }));
    await page.click('#cc-main .ccm-tcf-open');
    await page.waitForSelector('#cc-main .pm .ccm-tcf-second', { timeout: 10_000 });
    await settled('#cc-main .pm');
    expect(await page.$$eval('#cc-main .pm li[data-vendor]', (items) => items.map((item) => Number(item.getAttribute('data-vendor'))))).toEqual([1, 2, 40]);
    await page.$$eval('#cc-main .pm .ccm-tcf details', (all) => all.forEach((details) => ((details as HTMLDetailsElement).open = true)));
    await page.waitForFunction(() => [...document.querySelectorAll('#cc-main .pm li[data-vendor] details')].every((details) => details.childElementCount > 1), { polling: 100 });
    expect(await page.$eval('#cc-main .pm li[data-vendor="1"]', (item) => (item as HTMLElement).innerText)).toContain('Example Ad Tech GmbH');
    expect(await page.$$eval('#cc-main .pm li[data-vendor="1"] a', (anchors) => anchors.map((anchor) => anchor.getAttribute('href')))).toContain('https://adtech.example/privacy');
    expect(await seriousIn(page, '#cc-main .pm')).toEqual([]);
    const overflowing = await page.$$eval('#cc-main *', (elements) =>
      elements.filter((element) => {
        const box = element.getBoundingClientRect();
        return box.width > 0 && (box.left < -0.5 || box.right > window.innerWidth + 0.5);
      }).length,
    );
    expect(overflowing).toBe(0);
    await context.close();
  });

  it("a domain without TCF: app.js carries none of the layers' texts", async () => {
    const plain = await createDomain(service, 'plain.test');
    const embedding = await service.rest('POST', `${plain.base}/embedding`, { name: 'Ad network', purpose: 'cdcbd7c', active: true });
    expect(embedding.status, embedding.text).toBe(201);
    const app = await fetch(`${service.baseUrl}/app.js?domain=${plain.domainId}`).then((answer) => answer.text());
    expect(app).toContain('"texts"');
    expect(app).not.toContain('"firstLayer"');
    const withTcf = await fetch(`${service.baseUrl}/app.js?domain=${domain.domainId}`).then((answer) => answer.text());
    expect(withTcf).toContain('"firstLayer"');
  });
});
