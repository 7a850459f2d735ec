import { describe, expect, it } from 'vitest';
import { buildBannerConfig } from '../../../src/features/banner/banner-config.build.ts';
import { readPublishedConfiguration } from '../../../src/features/banner/published-configuration.ts';
import { embeddingPayload, themePayload } from '../../support/fixtures.ts';
import { useServiceWithDomain } from '../../support/service-with-domain.ts';

/**
 * Settings that reach the visitor through the banner configuration, each changed through the
 * REST API and looked for where the banner uses it (docs/SETTINGS.md names this file for them).
 * What the browser then does with the configuration is shown by runtime.test.ts.
 */

/** The smallest PNG: 1×1, one grey pixel. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

describe('settings in the banner configuration', () => {
  const { service, domain } = useServiceWithDomain();

  const config = async () => buildBannerConfig((await readPublishedConfiguration(service.database.orm, service.services, domain.domainId))!, 'de_DE');
  const created = async (path: string, body: unknown) => {
    const answer = await service.rest('POST', `${domain.base}${path}`, body);
    expect(answer.status, answer.text).toBe(201);
    return answer.body as { id: string };
  };
  const put = async (path: string, body: unknown) => {
    const answer = await service.rest('PUT', `${domain.base}${path}`, body);
    expect(answer.status, answer.text).toBe(200);
  };

  it('carries no branding whether the theme and the domain are whitelabel or not', async () => {
    await created('/embedding', embeddingPayload());
    const theme = await created('/theme', themePayload({ default: true, whitelabel: false }));
    const branded = /ccm19|powered by|papoo/i;
    for (const whitelabel of [false, true]) {
      await put(`/theme/${theme.id}`, { whitelabel });
      await put('', { whitelabel });
      const built = await config();
      const shown = JSON.stringify({ texts: built.texts, layout: built.layout });
      expect(shown).not.toMatch(branded);
    }
  });

  it("follows the theme: close button, logo, settings icon and what it opens, first-layer buttons, the iframe blocker's CSS", async () => {
    await created('/embedding', embeddingPayload());
    await put('/locale/de_DE', { detailsCloseButtonText: 'Fenster schliessen' });
    const theme = await created(
      '/theme',
      themePayload({
        default: true,
        widgetCloseButton: true,
        logoEnabled: true,
        logoImage: PNG,
        settingsIconImage: PNG,
        settingsIconTarget: 'main',
        widgetButtons: ['accept', 'cpanel'],
        customCssForIframeBlocker: '.ccm-blocked-iframe{outline:1px solid red}',
      }),
    );
    await put('', { declineButtonEnforced: false });
    const on = await config();
    expect(on.texts.de_DE!.translation.consentModal.closeIconLabel).toBe('Fenster schliessen');
    expect(on.layout.logo).toBe(`data:image/png;base64,${PNG}`);
    expect(on.layout.settingsIcon).toEqual({ image: `data:image/png;base64,${PNG}`, opens: 'consent' });
    expect([on.showAcceptButton, on.showDeclineButton, on.showSettingsButton]).toEqual([true, false, true]);
    expect(on.layout.css.endsWith('.ccm-blocked-iframe{outline:1px solid red}')).toBe(true);

    await put(`/theme/${theme.id}`, { widgetCloseButton: false, logoEnabled: false, settingsIconEnabled: false });
    await put('', { declineButtonEnforced: true });
    const off = await config();
    expect(off.texts.de_DE!.translation.consentModal.closeIconLabel).toBeUndefined();
    expect(off.layout.logo).toBeNull();
    expect(off.layout.settingsIcon).toBeNull();
    expect(off.showDeclineButton).toBe(true);
  });

  it('follows the domain: technically necessary embeddings, the consent cookie, unknown cookies', async () => {
    await created('/embedding', embeddingPayload({ name: 'Session', purpose: '41ba25c', assets: [] }));
    const before = await config();
    expect(before.categories.map((category) => [category.key, category.readOnly])).toEqual([['necessary', true]]);
    expect([before.consent.secure, before.deleteUnknownCookies]).toEqual([true, false]);
    await put('', { requireConsentForMandatoryEmbeddings: true, consentCookieSecure: false, deleteUnknownCookies: true });
    const after = await config();
    expect(after.categories.map((category) => [category.key, category.readOnly])).toEqual([['necessary', false]]);
    expect([after.consent.secure, after.deleteUnknownCookies]).toEqual([false, true]);
  });

  it('links the legal pages or shows them in the settings, opens them in a new tab, and offers the accessibility statement only when enabled', async () => {
    await created('/embedding', embeddingPayload());
    await put('/locale/de_DE', {
      imprint: 'Impressum',
      imprintUrl: 'https://www.example.org/impressum',
      imprintHtmlCode: '<p>Anbieter: Beispiel GmbH</p>',
      privacyPolicy: 'Datenschutz',
      privacyPolicyUrl: 'https://www.example.org/datenschutz',
      accessibility: 'Barrierefreiheit',
      accessibilityUrl: 'https://www.example.org/barrierefreiheit',
      accessibilityHtmlCode: '<p>Wir bemühen uns.</p>',
    });
    const footer = async () => (await config()).texts.de_DE!.translation.consentModal.footer!;
    const sections = async () => (await config()).texts.de_DE!.translation.preferencesModal.sections;

    expect(await footer()).toBe(
      '<a href="https://www.example.org/impressum">Impressum</a>\n<a href="https://www.example.org/datenschutz">Datenschutz</a>',
    );
    await put('', { privacyPolicyOpenInNewTab: true, imprintOpenInNewTab: true, accessibilityLinkEnabled: true });
    expect(await footer()).toBe(
      [
        '<a href="https://www.example.org/impressum" target="_blank" rel="noopener noreferrer">Impressum</a>',
        '<a href="https://www.example.org/datenschutz" target="_blank" rel="noopener noreferrer">Datenschutz</a>',
        '<a href="https://www.example.org/barrierefreiheit">Barrierefreiheit</a>',
      ].join('\n'),
    );

    await put('', { imprintDisplayMode: 'direct', accessibilityDisplayMode: 'direct' });
    expect(await footer()).toBe(
      [
        '<a href="#CCM.openControlPanel">Impressum</a>',
        '<a href="https://www.example.org/datenschutz" target="_blank" rel="noopener noreferrer">Datenschutz</a>',
        '<a href="#CCM.openControlPanel">Barrierefreiheit</a>',
      ].join('\n'),
    );
    expect((await sections()).slice(-2)).toEqual([
      { title: 'Impressum', description: '<p>Anbieter: Beispiel GmbH</p>' },
      { title: 'Barrierefreiheit', description: '<p>Wir bemühen uns.</p>' },
    ]);
  });

  it('builds the cookie declaration at the heading level the domain sets, with or without intro text and change link', async () => {
    await created('/embedding', embeddingPayload());
    await put('/locale/de_DE', { widgetIntroText: 'Wir fragen vorher.', changeConsentText: 'Auswahl ändern', purposeNames: { '6cd2721': 'Videos' } });
    const declaration = async () => (await config()).texts.de_DE!.cookieDeclaration;

    const full = await declaration();
    expect(full.startsWith('<p>Wir fragen vorher.</p>\n<p><a href="#CCM.openControlPanel">Auswahl ändern</a></p>\n<h3>Videos</h3>')).toBe(true);
    await put('', { cookieDeclarationTableHeadingStartLevel: 5, cookieDeclarationTablePrependIntroText: false, cookieDeclarationTablePrependConsentChangeLink: false });
    const bare = await declaration();
    expect(bare.startsWith('<h5>Videos</h5>')).toBe(true);
    expect(bare).not.toContain('Wir fragen vorher.');
    expect(bare).not.toContain('#CCM.openControlPanel');
  });

  it("puts every label of the locale and every text of an embedding and its assets where the banner shows them", async () => {
    const embedding = await created(
      '/embedding',
      embeddingPayload({
        vendor: 'Video GmbH',
        description: 'Zeigt Videos.',
        whatDataIsCollected: 'IP-Adresse',
        purposeOfDataCollection: 'Wiedergabe',
        legalBasis: 'Einwilligung',
        placeOfProcessing: 'Irland',
        privacyPolicyUrl: 'https://video.example/privacy',
        hideIframesUntilConsent: true,
        translations: { de_DE: { blockedContentButtonText: 'Video abspielen' } },
        assets: [
          {
            name: 'vid',
            lifetime: '1 year',
            description: 'Remembers the player',
            translations: { de_DE: { lifetime: '1 Jahr', description: 'Merkt sich den Player' } },
          },
        ],
      }),
    );
    await put('/locale/de_DE', {
      widgetFullConsentButtonText: 'Alle ja',
      widgetDeclineButtonText: 'Alle nein',
      widgetSettingsButtonText: 'Auswahl',
      categoriesTitle: 'Ihre Auswahl',
      categoriesFullConsentButtonText: 'Alles ja',
      categoriesSaveButtonText: 'Sichern',
      categoriesCancelButtonText: 'Abbrechen',
      changeConsentText: 'Neu wählen',
      detailsTitle: 'Dienst',
      embeddingVendorLabel: 'Anbieter',
      embeddingDescriptionLabel: 'Beschreibung',
      embeddingWhichDataIsCollectedLabel: 'Daten',
      embeddingPurposeOfDataCollectionLabel: 'Zweck',
      embeddingLegalBasisLabel: 'Rechtsgrundlage',
      embeddingPlaceOfProcessingLabel: 'Ort',
      embeddingPrivacyPolicyUrlLabel: 'Datenschutz des Anbieters',
      embeddingAssetNameLabel: 'Name',
      embeddingAssetLifetimeLabel: 'Laufzeit',
      embeddingAssetDescriptionLabel: 'Wofür',
      blockedContentTitle: 'gesperrt',
      blockedContentDisclaimer: 'Lädt von einem anderen Anbieter.',
      blockedContentConsentButtonText: 'Inhalt laden',
      blockedContentConsentSwitchAllowEmbedding: 'Immer erlauben',
      purposeNames: { '6cd2721': 'Videos' },
      purposeDescriptions: { '6cd2721': 'Eingebettete Videos.' },
    });
    const built = await config();
    const texts = built.texts.de_DE!;
    expect(texts.translation.consentModal).toMatchObject({ acceptAllBtn: 'Alle ja', acceptNecessaryBtn: 'Alle nein', showPreferencesBtn: 'Auswahl' });
    expect(texts.translation.preferencesModal).toMatchObject({
      title: 'Ihre Auswahl',
      acceptAllBtn: 'Alles ja',
      acceptNecessaryBtn: 'Alle nein',
      savePreferencesBtn: 'Sichern',
      closeIconLabel: 'Abbrechen',
    });
    expect(texts.settingsButtonLabel).toBe('Neu wählen');

    const section = texts.translation.preferencesModal.sections.find((candidate) => candidate.linkedCategory === 'social_media')!;
    expect(section.title).toBe('Videos');
    expect(section.description).toBe(
      'Eingebettete Videos.<p><strong>YouTube</strong></p><ul>' +
        '<li><strong>Anbieter:</strong> Video GmbH</li><li><strong>Beschreibung:</strong> Zeigt Videos.</li>' +
        '<li><strong>Daten:</strong> IP-Adresse</li><li><strong>Zweck:</strong> Wiedergabe</li>' +
        '<li><strong>Rechtsgrundlage:</strong> Einwilligung</li><li><strong>Ort:</strong> Irland</li>' +
        '<li><strong>Speicherdauer:</strong> 1 Jahr</li>' +
        '<li><a href="https://video.example/privacy" target="_blank" rel="noopener noreferrer">Datenschutz des Anbieters</a></li></ul>',
    );
    expect(section.cookieTable).toEqual({
      caption: 'Videos',
      headers: { name: 'Name', service: 'Dienst', lifetime: 'Laufzeit', description: 'Wofür' },
      body: [{ name: 'vid', service: 'YouTube', lifetime: '1 Jahr', description: 'Merkt sich den Player' }],
    });

    const [service] = built.categories.find((category) => category.key === 'social_media')!.services;
    expect(service!.id).toBe(embedding.id);
    expect(service!.hideIframesUntilConsent).toBe(true);
    // The embedding's own button text wins over the locale's; the other texts come from the locale.
    expect(service!.blockedContent.de_DE).toEqual({
      title: 'YouTube: gesperrt',
      text: 'Lädt von einem anderen Anbieter.',
      button: 'Video abspielen',
      allowAlways: 'Immer erlauben',
      details: expect.stringContaining('>Details zum Anbieter</a>'),
    });
    expect(texts.blockedIframe).toMatchObject({ text: 'Lädt von einem anderen Anbieter.', button: 'Inhalt laden' });
  });
});
