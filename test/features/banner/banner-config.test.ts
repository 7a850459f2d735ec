import { describe, expect, it } from 'vitest';
import { buildBannerConfig, legalRevisionOf } from '../../../src/features/banner/banner-config.build.ts';
import { readPublishedConfiguration } from '../../../src/features/banner/published-configuration.ts';
import { embeddingPayload, themePayload } from '../../support/fixtures.ts';
import { useServiceWithDomain } from '../../support/service-with-domain.ts';

/**
 * What the banner of a domain is made of (banner-config.ts), built from what the API stored:
 * purposes → categories, embeddings → services, locale texts with placeholders filled in and
 * escaped, HTML sanitised, the theme → CSS, the settings → behaviour.
 */
describe('the banner configuration of a domain', () => {
  const { service, domain } = useServiceWithDomain();

  const published = async () => (await readPublishedConfiguration(service.database.orm, service.services, domain.domainId))!;
  const config = async (locale: string | null = null) => buildBannerConfig(await published(), locale);
  const created = async (path: string, body: unknown) => {
    const answer = await service.rest('POST', `${domain.base}${path}`, body);
    expect(answer.status, answer.text).toBe(201);
    return answer.body;
  };

  it('has no category while the domain has no active embedding, and none for purposes without one', async () => {
    expect((await config()).categories).toEqual([]);
    await created('/embedding', embeddingPayload({ name: 'Inactive', purpose: 'cdcbd7c', active: false }));
    await created('/embedding', embeddingPayload({ name: 'Matomo', purpose: 'a717ff5', assets: [] }));
    await created('/embedding', embeddingPayload({ name: 'Session', purpose: '41ba25c', assets: [] }));
    const { categories } = await config();
    expect(categories.map((category) => [category.key, category.purpose, category.readOnly])).toEqual([
      ['necessary', '41ba25c', true],
      ['analytics', 'a717ff5', false],
    ]);
    expect(categories[1]!.services.map((service) => service.label)).toEqual([{ de_DE: 'Matomo', en_US: 'Matomo' }]);
  });

  it('maps an embedding to a service: its assets by where they are stored, dynamic names as prefixes, translated labels', async () => {
    const youtube = await created(
      '/embedding',
      embeddingPayload({
        translations: { en_US: { name: 'YouTube <video>' } },
        iframeMarkers: ['youtube.com'],
        scriptLoaderGroup: 'yt',
        googleConsentMode: ['ad_storage'],
        assets: [
          { name: 'VISITOR_INFO1_LIVE' },
          { name: '_ga_*', dynamic: true },
          { name: 'yt-remote-*', dynamic: true, storageType: 'localStorage' },
          { name: 'yt-session', storageType: 'sessionStorage' },
        ],
      }),
    );
    const [category] = (await config()).categories;
    expect(category!.key).toBe('social_media');
    expect(category!.services[0]).toMatchObject({
      id: youtube.id,
      label: { de_DE: 'YouTube', en_US: 'YouTube &lt;video&gt;' },
      scriptLoaderGroup: 'yt',
      iframeMarkers: ['youtube.com'],
      googleConsentMode: ['ad_storage'],
      cookies: [
        { name: 'VISITOR_INFO1_LIVE', prefix: false },
        { name: '_ga_', prefix: true },
      ],
      localStorage: [{ name: 'yt-remote-', prefix: true }],
      sessionStorage: [{ name: 'yt-session', prefix: false }],
    });
    expect((await config()).googleConsentMode).toBe(true);
  });

  it('fills in placeholders, escapes texts and sanitises HTML texts', async () => {
    await created('/embedding', embeddingPayload());
    const put = await service.rest('PUT', `${domain.base}/placeholder`, [
      { name: 'FIRMA', value: 'Müller & <Söhne>' },
      { name: 'Firma_Datenschutz', value: 'https://www.example.org/datenschutz' },
    ]);
    expect(put.status, put.text).toBe(201);
    const locale = await service.rest('PUT', `${domain.base}/locale/de_DE`, {
      widgetTitle: 'Cookies bei {FIRMA}',
      widgetIntroText: 'Zeile 1\n<b>{UNBEKANNT}</b>',
      privacyPolicyHtmlCode: '<p onclick="x()">Von {FIRMA}<script>alert(1)</script> <a href="javascript:alert(1)">x</a> <a href="{Firma_Datenschutz}">DS</a></p>',
    });
    expect(locale.status, locale.text).toBe(200);
    const update = await service.rest('PUT', domain.base, { privacyPolicyDisplayMode: 'direct' });
    expect(update.status, update.text).toBe(200);

    const { translation } = (await config()).texts.de_DE!;
    expect(translation.consentModal.title).toBe('Cookies bei Müller &amp; &lt;Söhne&gt;');
    expect(translation.consentModal.description).toBe(
      'Zeile 1<br>&lt;b&gt;{UNBEKANNT}&lt;/b&gt; <a href="#CCM.openControlPanel" class="ccm-more-information">Weitere Informationen</a>',
    );
    const privacy = translation.preferencesModal.sections.at(-1)!;
    expect(privacy.title).toBe('Datenschutzerklärung');
    expect(privacy.description).toBe('<p>Von Müller &amp; &lt;Söhne&gt; <a>x</a> <a href="https://www.example.org/datenschutz">DS</a></p>');
  });

  it('links the legal pages whose addresses are known, in the banner footer', async () => {
    await created('/embedding', embeddingPayload());
    await service.rest('PUT', `${domain.base}/placeholder`, [{ name: 'Firma_Impressum', value: 'https://www.example.org/impressum' }]);
    await service.rest('PUT', domain.base, { imprintOpenInNewTab: true });
    const footer = (await config()).texts.de_DE!.translation.consentModal.footer!;
    expect(footer).toContain('<a href="https://www.example.org/impressum" target="_blank" rel="noopener noreferrer">Impressum</a>');
    // {Firma_Datenschutz} has no value: no link to nowhere.
    expect(footer).not.toContain('Datenschutz');
  });

  it('turns the default theme into CSS variables for all 17 colours, its position and its own CSS', async () => {
    await created('/embedding', embeddingPayload());
    await created('/theme', themePayload({ name: 'Other' }));
    await created(
      '/theme',
      themePayload({ default: true, primaryButtonBackgroundColor: '#0a0a0a', widgetPosition: 'bottomright', widgetBlocking: true, customCss: '.x{color:red}' }),
    );
    const { layout } = await config();
    expect(layout.consentModal).toEqual({ layout: 'box', position: 'bottom right' });
    expect(layout.blockPage).toBe(true);
    expect(layout.css).toContain('--ccm-primary-button-background-color:#0a0a0a;');
    expect(layout.css.match(/--ccm-[a-z-]+-color:/g)).toHaveLength(17);
    expect(layout.css.endsWith('.x{color:red}')).toBe(true);
  });

  it('follows the domain settings: consent storage, decline button, locales, iframe blocking', async () => {
    await created('/embedding', embeddingPayload());
    await service.rest('PUT', domain.base, {
      consentStorage: 'cookie',
      consentCookieLifetime: 30,
      consentResetBeforeDate: '2026-01-01',
      blockIframes: true,
      iframeBlockMode: 'blacklist',
      iframeMarkers: ['maps.google.com'],
      locales: ['en_US', 'de_DE'],
    });
    const built = await config('de_DE');
    expect(built.consent).toMatchObject({ storage: 'cookie', lifetimeDays: 30, resetBefore: '2026-01-01T00:00:00.000Z' });
    expect(built.showDeclineButton).toBe(true);
    expect(built.locales).toEqual(['en_US', 'de_DE']);
    expect(built.fixedLocale).toBe('de_DE');
    expect((await config('fr_FR')).fixedLocale).toBeNull();
    // A language alone, or written with a hyphen, finds the domain's locale of that language.
    expect((await config('de')).fixedLocale).toBe('de_DE');
    expect((await config('en-us')).fixedLocale).toBe('en_US');
    expect(built.iframes).toEqual({ block: true, mode: 'blacklist', markers: ['maps.google.com'], consentSwitch: false, rememberHosts: false });
  });

  it('hands the script blocker the domain’s developer settings, CCM19’s defaults first (new scripts blocked, own and inline scripts run)', async () => {
    await created('/embedding', embeddingPayload());
    expect((await config()).scripts).toEqual({
      blockUnknown: true,
      blockFirstParty: false,
      blockInline: false,
      evalInline: false,
      allowedMarkers: [],
      blockedMarkers: [],
    });
    await service.rest('PUT', domain.base, {
      blockNewScripts: false,
      blockFirstPartyScripts: true,
      blockInlineScripts: true,
      evalInlineScripts: true,
      allowedScriptMarkers: ['cdn.example/jquery', ' '],
      blockedScriptMarkers: ['ads.example'],
    });
    expect((await config()).scripts).toEqual({
      blockUnknown: false,
      blockFirstParty: true,
      blockInline: true,
      evalInline: true,
      allowedMarkers: ['cdn.example/jquery'],
      blockedMarkers: ['ads.example'],
    });
  });

  it('sends Consent Mode defaults when a service names Consent Mode types or loads Google’s tags, and not otherwise', async () => {
    const matomo = await created('/embedding', embeddingPayload({ name: 'Matomo', purpose: 'a717ff5', scriptMarkers: ['matomo.cloud'] }));
    expect((await config()).googleConsentMode).toBe(false);
    // Tag Manager names no type of its own: the tags it loads read Consent Mode.
    const tagManager = await created('/embedding', embeddingPayload({ name: 'Google Tag Manager', purpose: 'a717ff5', scriptMarkers: ['googletagmanager.com/gtm.js'] }));
    expect((await config()).googleConsentMode).toBe(true);
    await service.rest('PUT', `${domain.base}/embedding/${tagManager.id}`, { active: false });
    await service.rest('PUT', `${domain.base}/embedding/${matomo.id}`, { googleConsentMode: ['analytics_storage'] });
    expect((await config()).googleConsentMode).toBe(true);
  });

  it('asks again on a legal change only when the domain says so, and a cosmetic change is not legal', async () => {
    const embedding = await created('/embedding', embeddingPayload());
    expect((await config()).revision).toBe(0);
    await service.rest('PUT', domain.base, { consentResetOnLegalChange: true });
    const before = await config();
    expect(before.revision).toBeGreaterThan(0);

    await service.rest('PUT', `${domain.base}/locale/de_DE`, { widgetTitle: 'Anders formuliert' });
    await created('/theme', themePayload({ default: true }));
    const cosmetic = await config();
    expect(cosmetic.revision).toBe(before.revision);
    expect(cosmetic.contentRevision).not.toBe(before.contentRevision);

    await service.rest('PUT', `${domain.base}/embedding/${embedding.id}`, { purpose: 'cdcbd7c' });
    const legal = await config();
    expect(legal.legalRevision).not.toBe(before.legalRevision);
    expect(legal.revision).not.toBe(before.revision);
    expect(legalRevisionOf(await published())).toBe(legal.legalRevision);
  });
});
