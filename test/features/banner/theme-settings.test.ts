import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INNER_PAGE, type VendorKey, VENDORS } from '../../fixtures/vendor-site.ts';
import { themePayload } from '../../support/fixtures.ts';
import { type Evidence, findingsOf, type OnboardedSite, onboardVendorSite, startVisit, type Visit, vendorRequestsSince } from '../../support/onboarded-site.ts';

/**
 * The theme settings that change the banner's parts (issue 38), seen by a visitor of the fixture
 * site onboarded as the README says (test/support/onboarded-site.ts), each set through the
 * theme's REST API: `showPurposesInMainWindow`, `widgetSwitchType`, `settingsFooter`,
 * `settingsCheckAndUncheckAllButtons`, `manipulationPrevention`. Pages use the advised markup
 * (every onboarded tag held), so before a choice no vendor host is asked for anything but
 * Google Fonts' stylesheet.
 */

const ALL_OFF = {
  showPurposesInMainWindow: false,
  widgetSwitchType: '',
  settingsFooter: false,
  settingsCheckAndUncheckAllButtons: false,
  manipulationPrevention: false,
};

describe('theme settings on the visitor’s banner', () => {
  let onboarded: OnboardedSite;
  let themePath: string;

  beforeAll(async () => {
    onboarded = await onboardVendorSite();
    const created = await onboarded.service.rest('POST', `${onboarded.domain.base}/theme`, themePayload({ default: true }));
    expect(created.status, created.text).toBe(201);
    themePath = `${onboarded.domain.base}/theme/${created.body.id}`;
  }, 120_000);

  afterAll(async () => {
    await onboarded?.close();
  }, 60_000);

  async function setTheme(settings: Record<string, unknown>) {
    const answer = await onboarded.service.rest('PUT', themePath, { ...ALL_OFF, ...settings });
    expect(answer.status, answer.text).toBe(200);
  }

  async function visit(): Promise<Visit> {
    const visitor = await startVisit(onboarded, onboarded.markup('advised'));
    await visitor.open('/');
    expect(visitor.bannerStarted, 'the banner started').toBe(true);
    return visitor;
  }


  /** Exactly the vendors `allowed` ran; the others neither ran nor were contacted. */
  function expectOnly(evidence: Evidence, allowed: (vendor: VendorKey) => boolean) {
    expect(evidence.problems, 'the visit went as planned').toEqual([]);
    const { byVendor } = findingsOf(evidence);
    for (const vendor of VENDORS) {
      const finding = byVendor.get(vendor.key)!;
      if (allowed(vendor.key)) {
        if (vendor.runs) expect.soft(finding.ran, `${vendor.label} runs`).toBe(true);
      } else {
        expect.soft(finding.ran, `${vendor.label} must not run`).toBe(false);
        expect.soft(finding.contacts, `${vendor.label}: requests to its hosts`).toEqual([]);
      }
    }
  }

  const inBanner = (vendor: VendorKey) => !!onboarded.embeddings.get(vendor)?.active;
  const inCategory = (category: string) => (vendor: VendorKey) => inBanner(vendor) && onboarded.embeddings.get(vendor)!.category === category;

  it('showPurposesInMainWindow: the purposes with switches in the first layer; switching analytics on and saving runs only analytics vendors', { timeout: 90_000 }, async () => {
    expect(VENDORS.some((vendor) => inCategory('analytics')(vendor.key)), 'the onboarding put analytics vendors in the banner').toBe(true);
    await setTheme({ showPurposesInMainWindow: true });
    const visitor = await visit();
    const firstLayer = await visitor.page.evaluate(() => {
      const inputs = [...document.querySelectorAll<HTMLInputElement>('#cc-main .cm .ccm-purpose input')];
      const save = document.querySelector('#cc-main .cm .cm__btn[data-role="save"]');
      const settings = document.querySelector<HTMLElement>('#cc-main .cm [data-role="show"]');
      return {
        purposes: inputs.map((input) => ({ key: input.value, checked: input.checked, locked: input.disabled, name: input.parentElement!.textContent!.trim() })),
        saveBesideAccept: !!save && save.parentElement === document.querySelector('#cc-main .cm .cm__btn[data-role="all"]')?.parentElement,
        saveText: save?.textContent?.trim(),
        settingsIsLink: !!settings?.closest('.ccm-settings-link') && getComputedStyle(settings).textDecorationLine === 'underline',
        switchShape: inputs[0] ? inputs[0].getBoundingClientRect().width / inputs[0].getBoundingClientRect().height : 0,
      };
    });
    const keys = firstLayer.purposes.map((purpose) => purpose.key);
    expect(keys).toContain('analytics');
    for (const purpose of firstLayer.purposes) {
      expect(purpose.name, `${purpose.key} is named`).not.toBe('');
      // Opt-in: nothing is on but what is necessary, which cannot be switched off.
      expect({ key: purpose.key, checked: purpose.checked }).toEqual({ key: purpose.key, checked: purpose.locked });
    }
    expect(firstLayer.saveBesideAccept, 'Save stands beside “accept all”').toBe(true);
    expect(firstLayer.saveText).toBeTruthy();
    expect(firstLayer.settingsIsLink, 'the settings button became a text link').toBe(true);
    expect(firstLayer.switchShape, 'drawn as a switch (wider than high)').toBeGreaterThan(1.5);

    await visitor.click('#cc-main .ccm-purpose input[value="analytics"]');
    // What is switched in the first layer is what the settings show.
    await visitor.click('#cc-main .ccm-settings-link [data-role="show"]');
    await visitor.page.waitForSelector('#cc-main .pm input.section__toggle[value="analytics"]', { visible: true });
    expect(
      await visitor.page.$$eval('#cc-main .pm input.section__toggle:not(:disabled)', (inputs) =>
        Object.fromEntries((inputs as HTMLInputElement[]).filter((input) => !input.closest('.toggle-service')).map((input) => [input.value, input.checked])),
      ),
    ).toEqual(Object.fromEntries(firstLayer.purposes.filter((purpose) => !purpose.locked).map((purpose) => [purpose.key, purpose.key === 'analytics'])));
    await visitor.page.keyboard.press('Escape');
    // The settings fade out over the first layer: a click lands on them until they are gone.
    await visitor.page.waitForFunction(
      () => !document.documentElement.classList.contains('show--preferences') && [...document.querySelectorAll('#cc-main .pm, #cc-main .pm-overlay')].every((element) => getComputedStyle(element).visibility === 'hidden'),
    );
    await visitor.click('#cc-main .cm__btn[data-role="save"]');
    await visitor.chosen();
    expect(await visitor.page.evaluate(() => document.documentElement.classList.contains('show--consent')), 'the banner closed').toBe(false);
    await visitor.open(INNER_PAGE);
    expectOnly(await visitor.finish(), inCategory('analytics'));
  });

  it('widgetSwitchType checkbox, settingsFooter and settingsCheckAndUncheckAllButtons: checkboxes, the links at the foot of the settings, buttons that switch everything', { timeout: 90_000 }, async () => {
    await setTheme({ showPurposesInMainWindow: true, widgetSwitchType: 'checkbox', settingsFooter: true, settingsCheckAndUncheckAllButtons: true });
    const visitor = await visit();
    const { page } = visitor;
    expect(
      await page.evaluate(() => {
        const box = document.querySelector('#cc-main .ccm-purpose input')!.getBoundingClientRect();
        return Math.round((box.width / box.height) * 10) / 10;
      }),
      'the first layer’s inputs are square boxes',
    ).toBe(1);

    await visitor.click('#cc-main .cm [data-role="show"]');
    await page.waitForSelector('#cc-main .pm input.section__toggle', { visible: true });
    const settings = await page.evaluate(() => {
      const icon = document.querySelector('#cc-main .pm .toggle__icon')!;
      const links = (selector: string) => [...document.querySelectorAll<HTMLAnchorElement>(selector)].map((link) => link.href);
      return {
        toggleShape: Math.round((icon.getBoundingClientRect().width / icon.getBoundingClientRect().height) * 10) / 10,
        knob: getComputedStyle(document.querySelector('#cc-main .pm .toggle__icon-circle')!).display,
        footer: links('#cc-main .pm .ccm-settings-footer a'),
        firstLayerLinks: links('#cc-main .cm .cm__links a, #cc-main .cm .cm__footer a'),
        checkAll: [...document.querySelectorAll('#cc-main .pm .ccm-check-all button')].map((button) => button.textContent),
      };
    });
    expect(settings.toggleShape, 'the settings’ toggles are square boxes').toBe(1);
    expect(settings.knob, 'no switch knob').toBe('none');
    expect(settings.footer.length, 'links at the foot of the settings').toBeGreaterThan(0);
    expect(settings.footer).toEqual(settings.firstLayerLinks);
    expect(settings.footer.some((href) => /impressum/.test(href)), `the imprint among ${settings.footer.join(', ')}`).toBe(true);
    expect(settings.checkAll).toEqual(['Alle auswählen', 'Alle abwählen']);

    const toggles = () => page.$$eval('#cc-main .pm input.section__toggle', (inputs) => (inputs as HTMLInputElement[]).map((input) => ({ on: input.checked, locked: input.disabled })));
    await visitor.click('#cc-main .pm [data-role="check-all"]');
    expect((await toggles()).every((toggle) => toggle.on)).toBe(true);
    await visitor.click('#cc-main .pm [data-role="uncheck-all"]');
    expect((await toggles()).every((toggle) => toggle.on === toggle.locked)).toBe(true);
    await visitor.click('#cc-main .pm [data-role="check-all"]');
    await visitor.click('#cc-main .pm__btn[data-role="save"]');
    await visitor.chosen();
    await visitor.open(INNER_PAGE);
    expectOnly(await visitor.finish(), inBanner);
  });

  it('all off: the first layer as before, nothing added to the settings; a page script can remove the banner and consent by a simulated click', { timeout: 90_000 }, async () => {
    await setTheme({});
    const visitor = await visit();
    const { page } = visitor;
    expect(await page.$('#cc-main .ccm-purposes')).toBeNull();
    expect(await page.$('#cc-main .cm .cm__btns .cm__btn[data-role="show"]')).not.toBeNull();
    await visitor.click('#cc-main .cm__btn[data-role="show"]');
    await page.waitForSelector('#cc-main .pm input.section__toggle', { visible: true });
    const settings = await page.evaluate(() => {
      const icon = document.querySelector('#cc-main .pm .toggle__icon')!.getBoundingClientRect();
      return { footer: !!document.querySelector('#cc-main .ccm-settings-footer'), checkAll: !!document.querySelector('#cc-main .ccm-check-all'), toggleShape: icon.width / icon.height };
    });
    expect(settings).toEqual({ footer: false, checkAll: false, toggleShape: expect.any(Number) });
    expect(settings.toggleShape, 'switches').toBeGreaterThan(1.5);

    await page.evaluate(() => {
      const root = document.getElementById('cc-main')!;
      (window as unknown as { removedBanner: Element }).removedBanner = root;
      root.remove();
    });
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await page.evaluate(() => document.getElementById('cc-main')), 'the banner stays removed').toBeNull();
    // Detached, but its listeners are there: without the protection, a script's click consents.
    await page.evaluate(() => (window as unknown as { removedBanner: Element }).removedBanner.querySelector<HTMLElement>('.cm__btn[data-role="all"]')!.click());
    expect(await page.evaluate(() => (window as unknown as { CCM?: { consent: boolean } }).CCM?.consent), 'a simulated click consented').toBe(true);
    await visitor.finish();
  });

  it('manipulationPrevention: simulated clicks do not consent, a banner removed or hidden comes back, and nothing runs meanwhile', { timeout: 90_000 }, async () => {
    await setTheme({ manipulationPrevention: true });
    const start = onboarded.site.requests.length;
    const visitor = await visit();
    const { page } = visitor;
    const consent = () => page.evaluate(() => (window as unknown as { CCM?: { consent: boolean } }).CCM?.consent ?? null);
    const bannerShown = () =>
      page.evaluate(() => {
        const root = document.getElementById('cc-main');
        const modal = root?.querySelector('.cm');
        if (!root?.isConnected || !modal || !document.documentElement.classList.contains('show--consent')) return false;
        const rootStyle = getComputedStyle(root);
        const modalStyle = getComputedStyle(modal);
        return rootStyle.display !== 'none' && rootStyle.visibility === 'visible' && modalStyle.display !== 'none' && modalStyle.visibility === 'visible';
      });
    const comesBack = async (what: string) => {
      await page.waitForFunction(
        () => {
          const root = document.getElementById('cc-main');
          const modal = root?.querySelector('.cm');
          return !!root?.isConnected && !!modal && document.documentElement.classList.contains('show--consent') && getComputedStyle(root).display !== 'none' && getComputedStyle(modal).visibility === 'visible';
        },
        { timeout: 3_000 },
      ).catch(() => undefined);
      expect(await bannerShown(), `the banner is back after ${what}`).toBe(true);
    };

    await page.evaluate(() => document.querySelector<HTMLElement>('#cc-main .cm__btn[data-role="all"]')!.click());
    await page.evaluate(() => document.querySelector('#cc-main .cm__btn[data-role="all"]')!.dispatchEvent(new MouseEvent('click', { bubbles: true })));
    expect(await consent(), 'a simulated click on “accept all” gives no consent').toBe(false);
    expect(await bannerShown()).toBe(true);

    await page.evaluate(() => {
      const root = document.getElementById('cc-main')!;
      root.remove();
      root.querySelector<HTMLElement>('.cm__btn[data-role="all"]')!.click();
    });
    await comesBack('removing #cc-main');
    expect(await consent(), 'nor one on the removed banner').toBe(false);

    await page.evaluate(() => {
      const style = document.createElement('style');
      style.textContent = '#cc-main{display:none!important}';
      document.head.append(style);
    });
    await comesBack('a stylesheet hiding it');
    await page.evaluate(() => document.documentElement.classList.remove('show--consent'));
    await comesBack('the page taking its class away');
    await page.evaluate(() => {
      const sheet = new CSSStyleSheet();
      sheet.insertRule('#cc-main .cm{visibility:hidden!important}');
      document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
    });
    await comesBack('a constructed stylesheet hiding the modal');

    expect(await consent()).toBe(false);
    const ran = await page.evaluate(() => Object.keys((window as unknown as { __ran?: object }).__ran ?? {}));
    expect(ran.filter((key) => VENDORS.some((vendor) => vendor.key === key)), 'no vendor script ran').toEqual([]);
    expect(vendorRequestsSince(onboarded, start), 'no vendor host was contacted').toEqual([]);

    // The visitor's own click still consents, and the banner then goes.
    await visitor.click('#cc-main .cm__btn[data-role="all"]');
    await visitor.chosen();
    expect(await consent()).toBe(true);
    expect(await page.evaluate(() => document.documentElement.classList.contains('show--consent'))).toBe(false);
    expect(await page.evaluate(() => document.querySelector<HTMLElement>('#cc-main .cm')!.style.cssText)).toBe('');
    await visitor.open(INNER_PAGE);
    expectOnly(await visitor.finish(), inBanner);
  });
});
