import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SITE_URL } from '../../fixtures/vendor-site.ts';
import { themePayload } from '../../support/fixtures.ts';
import { type OnboardedSite, onboardVendorSite, startVisit, type Visit, vendorRequestsSince } from '../../support/onboarded-site.ts';

/**
 * More settings of issue 38, seen by a visitor of the fixture site onboarded as the README says
 * (advised markup): the theme's `settingsAcceptAllButton`, the domain's
 * `deleteUnknownCookiesForceReload`, and the locale's ways into an embedding's details
 * (`embeddingLifetimeLabel`, `moreInformationLabel`, `questionMarkButtonText`,
 * `blockedContentConsentSwitchProviderDetails`), each set through the REST API.
 */

const LABELS = {
  moreInformationLabel: 'Mehr dazu lesen',
  questionMarkButtonText: 'Was steckt dahinter?',
  embeddingLifetimeLabel: 'So lange gespeichert',
  blockedContentConsentSwitchProviderDetails: 'Wer steckt dahinter?',
};

describe('more settings on the visitor’s banner', () => {
  let onboarded: OnboardedSite;
  let themePath: string;
  let youtube: string;

  beforeAll(async () => {
    onboarded = await onboardVendorSite();
    youtube = onboarded.embeddings.get('youtube')!.id;
    const created = await onboarded.service.rest('POST', `${onboarded.domain.base}/theme`, themePayload({ default: true }));
    expect(created.status, created.text).toBe(201);
    themePath = `${onboarded.domain.base}/theme/${created.body.id}`;
    const locales = await onboarded.service.rest('GET', `${onboarded.domain.base}/locale`);
    expect(locales.status, locales.text).toBe(200);
    for (const { name } of locales.body as { name: string }[]) {
      const answer = await onboarded.service.rest('PUT', `${onboarded.domain.base}/locale/${name}`, LABELS);
      expect(answer.status, answer.text).toBe(200);
    }
    // YouTube stores something with a lifetime, so its details have a storage period.
    const embedding = await onboarded.service.rest('PUT', `${onboarded.domain.base}/embedding/${youtube}`, {
      assets: [
        { name: 'YSC', storageType: 'cookie', lifetime: 'Sitzung' },
        { name: 'VISITOR_INFO1_LIVE', storageType: 'cookie', lifetime: '6 Monate' },
        { name: 'yt-remote', dynamic: true, storageType: 'localStorage', lifetime: '6 Monate' },
      ],
    });
    expect(embedding.status, embedding.text).toBe(200);
  }, 120_000);

  afterAll(async () => {
    await onboarded?.close();
  }, 60_000);

  const put = async (path: string, body: Record<string, unknown>) => {
    const answer = await onboarded.service.rest('PUT', path, body);
    expect(answer.status, answer.text).toBe(200);
  };

  async function visit(): Promise<Visit> {
    const visitor = await startVisit(onboarded, onboarded.markup('advised'));
    await visitor.open('/');
    expect(visitor.bannerStarted, 'the banner started').toBe(true);
    return visitor;
  }


  const settingsOpen = (visitor: Visit) =>
    visitor.page.waitForFunction(() => document.documentElement.classList.contains('show--preferences') && !!document.querySelector('#cc-main .pm'), { timeout: 5_000 });

  const closeSettings = async (visitor: Visit) => {
    await visitor.page.keyboard.press('Escape');
    await visitor.page.waitForFunction(
      () => !document.documentElement.classList.contains('show--preferences') && [...document.querySelectorAll('#cc-main .pm')].every((element) => getComputedStyle(element).visibility === 'hidden'),
    );
  };

  /** The purposes whose details are unfolded, and the visible text of those details. */
  const unfolded = (visitor: Visit) =>
    visitor.page.evaluate(() =>
      [...document.querySelectorAll('#cc-main .pm .pm__section--expandable.is-expanded')].map((section) => ({
        purpose: section.querySelector<HTMLInputElement>('input.section__toggle')?.value,
        text: (section as HTMLElement).innerText,
      })),
    );

  it(
    'settingsAcceptAllButton off, “more information”, the question marks, the storage period and “about the provider” on a blocked video',
    { timeout: 90_000 },
    async () => {
      await put(themePath, { settingsAcceptAllButton: false });
      const start = onboarded.site.requests.length;
      const visitor = await visit();
      const { page } = visitor;

      // The first layer's text ends with the "more information" link; it opens the settings.
      expect(await page.$eval('#cc-main .cm .ccm-more-information', (link) => link.textContent)).toBe(LABELS.moreInformationLabel);
      await visitor.click('#cc-main .cm .ccm-more-information');
      await settingsOpen(visitor);

      const settings = await page.evaluate(() => ({
        roles: [...document.querySelectorAll('#cc-main .pm .pm__btn')].map((button) => button.getAttribute('data-role')),
        questionMarks: [...document.querySelectorAll<HTMLButtonElement>('#cc-main .pm .ccm-question-mark')].map((button) => ({
          label: button.getAttribute('aria-label'),
          purpose: button.closest('.pm__section--expandable')?.querySelector<HTMLInputElement>('input.section__toggle')?.value,
        })),
        purposes: [...document.querySelectorAll<HTMLInputElement>('#cc-main .pm .pm__section--expandable input.section__toggle:not(.toggle-service input)')].map((input) => input.value),
      }));
      expect(settings.roles, 'no “accept all” in the settings, decline and save stay').not.toContain('all');
      expect(settings.roles).toEqual(expect.arrayContaining(['necessary', 'save']));
      expect(settings.questionMarks.length, 'a question mark beside each purpose').toBe(settings.purposes.length);
      expect(new Set(settings.questionMarks.map((mark) => mark.label))).toEqual(new Set([LABELS.questionMarkButtonText]));

      const youtubePurpose = onboarded.embeddings.get('youtube')!.category;
      expect(await unfolded(visitor), 'folded until asked').toEqual([]);
      await visitor.click(`#cc-main .pm .pm__section--expandable:has(input.section__toggle[value="${youtubePurpose}"]) .ccm-question-mark`);
      const afterQuestion = await unfolded(visitor);
      expect(afterQuestion.map((section) => section.purpose)).toEqual([youtubePurpose]);
      expect(afterQuestion[0]!.text, 'the storage period of YouTube, every lifetime once').toContain(`${LABELS.embeddingLifetimeLabel}: Sitzung, 6 Monate`);
      await closeSettings(visitor);

      // The video's notice links to its provider's details: the settings open there, unfolded.
      const details = `div[data-service="${youtube}"] .ccm-provider-details`;
      expect(await page.$eval(details, (link) => link.textContent)).toBe(LABELS.blockedContentConsentSwitchProviderDetails);
      await page.evaluate(() => document.querySelectorAll('#cc-main .pm .is-expanded').forEach((section) => section.classList.remove('is-expanded')));
      await page.click(details);
      await settingsOpen(visitor);
      await page.waitForFunction(() => document.querySelectorAll('#cc-main .pm .is-expanded').length > 0, { timeout: 5_000 });
      expect((await unfolded(visitor)).map((section) => section.purpose)).toEqual([youtubePurpose]);

      const evidence = await visitor.finish();
      expect(evidence.problems, 'the visit went as planned').toEqual([]);
      expect(vendorRequestsSince(onboarded, start), 'reading the details loads nothing').toEqual([]);
    },
  );

  it('settingsAcceptAllButton on: the settings have their “accept all” again', { timeout: 60_000 }, async () => {
    await put(themePath, { settingsAcceptAllButton: true });
    const visitor = await visit();
    await visitor.click('#cc-main .cm .ccm-more-information');
    await settingsOpen(visitor);
    expect(await visitor.page.$$eval('#cc-main .pm .pm__btn', (buttons) => buttons.map((button) => button.getAttribute('data-role')))).toContain('all');
    expect((await visitor.finish()).problems).toEqual([]);
  });

  it('deleteUnknownCookiesForceReload: the visitor’s choice that removed an unknown cookie reloads the page once', { timeout: 60_000 }, async () => {
    await put(onboarded.domain.base, { deleteUnknownCookies: true, deleteUnknownCookiesForceReload: true });
    try {
      const visitor = await visit();
      const { page } = visitor;
      await page.evaluate(() => {
        document.cookie = 'site_unknown=1; Path=/';
        (window as unknown as { __beforeChoice?: boolean }).__beforeChoice = true;
      });
      const reloaded = page.waitForNavigation({ waitUntil: 'load', timeout: 10_000 });
      await visitor.click('#cc-main .cm [data-role="necessary"]');
      await reloaded;
      await page.waitForFunction(() => (window as unknown as { __bannerLoaded?: boolean }).__bannerLoaded === true, { timeout: 8_000 });
      const after = await page.evaluate(() => ({
        sameDocument: (window as unknown as { __beforeChoice?: boolean }).__beforeChoice === true,
        cookies: document.cookie,
        consent: (window as unknown as { CCM?: { consent: boolean } }).CCM?.consent,
        bannerShown: document.documentElement.classList.contains('show--consent'),
      }));
      expect(after.sameDocument, 'the page was loaded again').toBe(false);
      expect(after.cookies).not.toContain('site_unknown');
      expect(after.consent, 'the choice is kept').toBe(true);
      expect(after.bannerShown, 'no banner after the reload').toBe(false);

      // The reloaded page, untouched by the visitor, is not reloaded again.
      await page.evaluate(() => {
        document.cookie = 'site_unknown=2; Path=/';
        (window as unknown as { __afterReload?: boolean }).__afterReload = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(await page.evaluate(() => (window as unknown as { __afterReload?: boolean }).__afterReload === true), 'no second reload').toBe(true);
      expect((await visitor.finish()).problems).toEqual([]);
    } finally {
      await put(onboarded.domain.base, { deleteUnknownCookies: false, deleteUnknownCookiesForceReload: false });
    }
  });

  it('deleteUnknownCookiesForceReload: a choice made for the visitor on load (Do Not Track) removes the cookie but never reloads', { timeout: 60_000 }, async () => {
    await put(onboarded.domain.base, { deleteUnknownCookies: true, deleteUnknownCookiesForceReload: true });
    await put(themePath, { complyWithDoNotTrack: true });
    try {
      const visitor = await startVisit(onboarded, onboarded.markup('advised'));
      const { page } = visitor;
      await page.evaluateOnNewDocument(() => {
        Object.defineProperty(Navigator.prototype, 'doNotTrack', { get: () => '1', configurable: true });
        if (window.top === window) sessionStorage.setItem('loads', String(Number(sessionStorage.getItem('loads')) + 1));
      });
      await page.setCookie({ name: 'site_unknown', value: '1', url: SITE_URL });
      await visitor.open('/');
      // The signal's choice is saved once the runtime has run; a reload, if one came, would follow within moments.
      await page.waitForFunction(() => (window as unknown as { CCM?: { consent: boolean } }).CCM?.consent === true, { timeout: 10_000 }).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const after = await page.evaluate(() => ({
        loads: sessionStorage.getItem('loads'),
        cookies: document.cookie,
        consent: (window as unknown as { CCM?: { consent: boolean } }).CCM?.consent,
      }));
      expect(after.consent, 'the signal chose “necessary only”').toBe(true);
      expect(after.cookies, 'the unknown cookie was removed').not.toContain('site_unknown');
      expect(after.loads, 'the page was loaded once').toBe('1');
      expect((await visitor.finish()).problems).toEqual([]);
    } finally {
      await put(themePath, { complyWithDoNotTrack: false });
      await put(onboarded.domain.base, { deleteUnknownCookies: false, deleteUnknownCookiesForceReload: false });
    }
  });
});
