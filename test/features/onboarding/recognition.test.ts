import { describe, expect, it } from 'vitest';
import { builtinPreset } from '../../support/presets.ts';
import { builtinCatalog, Catalog, type CatalogEntry } from '../../../src/features/catalog/catalog.ts';
import { scanAdvice } from '../../../src/features/onboarding/advice.ts';
import { recogniseServices } from '../../../src/features/onboarding/recognise.ts';
import type { ScanFindings, ScannedCookie } from '../../../src/scanner/scan.ts';
import { scanFindingsOf } from '../../support/scan-findings.ts';

/**
 * Which catalog services a scan's findings reveal (recogniseServices) and whom each cookie
 * belongs to (Catalog.attribute, which the cookies → embeddings operation uses as well), on
 * findings made up here: no browser, no database.
 */

const SITE = 'https://www.bakery.example/';

/** Scan findings of the bakery's site: nothing found unless a test says otherwise. */
function findings(found: Partial<ScanFindings> = {}): ScanFindings {
  return scanFindingsOf(SITE, found);
}

/** A cookie as the scanner reports it; first party when set on the bakery's own domain. */
function cookie(name: string, domain = 'www.bakery.example'): ScannedCookie {
  return {
    name,
    domain,
    path: '/',
    expires: null,
    httpOnly: false,
    secure: true,
    sameSite: null,
    party: domain.replace(/^\./, '').endsWith('bakery.example') ? 'first' : 'third',
    phase: 'before-consent',
    setBy: null,
  };
}

const preset = builtinPreset;
const GA4 = preset('Google Analytics 4');
const UA = preset('Google Analytics (Universal Analytics)');
const META_PIXEL = preset('Meta Pixel');
const STRIPE = preset('Stripe');
const YOUTUBE = preset('YouTube');
const GOOGLE_MAPS = preset('Google Maps');
const RECAPTCHA = preset('Google reCAPTCHA');
const GOOGLE_FONTS = preset('Google Fonts');
const ADOBE_FONTS = preset('Adobe Fonts');
const FONT_AWESOME = preset('Font Awesome');
const BUNNY_FONTS = preset('Bunny Fonts');
const AMPLITUDE = preset('Amplitude');
const GOOGLE_ADS = preset('Google Ads Conversion Tracking & Remarketing');

const GTAG = 'https://www.googletagmanager.com/gtag/js?id=G-BAKERY1';
const FBEVENTS = 'https://connect.facebook.net/en_US/fbevents.js';
const STRIPE_JS = 'https://js.stripe.com/v3/';

const recognise = (found: Partial<ScanFindings>) => recogniseServices(builtinCatalog(), findings(found));
const ids = (found: Partial<ScanFindings>) => recognise(found).map((service) => service.id);
const evidenceOf = (found: Partial<ScanFindings>, id: number) => recognise(found).find((service) => service.id === id)?.evidence;
/** Whom each cookie named goes to (preset id, or null), as the cookies → embeddings operation attributes them. */
const owners = (catalog: Catalog, cookies: { name: string; domain?: string }[]) =>
  catalog.attribute(cookies.map((c) => ({ ...c, storageType: 'cookie' as const }))).map((owner) => owner?.entry.id ?? null);

describe("cookies on a service's own domain", () => {
  it('gives `fr` on .facebook.com to Meta Pixel, found by its script: the short name counts through the domain', () => {
    const found = { scripts: [FBEVENTS], cookies: [cookie('_fbp'), cookie('fr', '.facebook.com')] };
    expect(ids(found)).toEqual([META_PIXEL.id]);
    expect(evidenceOf(found, META_PIXEL.id)).toEqual([
      { kind: 'cookie', value: '_fbp' },
      { kind: 'cookie', value: 'fr' },
      { kind: 'script', value: FBEVENTS },
    ]);
  });

  it("gives Stripe's `m` on m.stripe.com to Stripe, found by js.stripe.com (same registrable domain)", () => {
    const found = { scripts: [STRIPE_JS], cookies: [cookie('__stripe_mid'), cookie('m', 'm.stripe.com')] };
    expect(evidenceOf(found, STRIPE.id)).toEqual(
      expect.arrayContaining([
        { kind: 'cookie', value: '__stripe_mid' },
        { kind: 'cookie', value: 'm' },
      ]),
    );
    expect(owners(builtinCatalog(), [{ name: '__stripe_mid' }, { name: 'm', domain: 'm.stripe.com' }])).toEqual([STRIPE.id, STRIPE.id]);
  });

  it('gives a cookie the catalog does not list to the one found service whose domain it is set on', () => {
    const embed = 'https://www.youtube.com/embed/bakery-tour';
    const found = { iframes: [embed], cookies: [cookie('YSC', '.youtube.com'), cookie('__Secure-ROLLOUT_TOKEN', '.youtube.com')] };
    expect(ids(found)).toEqual([YOUTUBE.id]);
    expect(evidenceOf(found, YOUTUBE.id)).toEqual([
      { kind: 'cookie', value: 'YSC' },
      { kind: 'cookie', value: '__Secure-ROLLOUT_TOKEN' },
      { kind: 'iframe', value: embed },
    ]);
  });

  it('counts storage keys by the origin of the frame that wrote them', () => {
    const embed = 'https://www.youtube.com/embed/bakery-tour';
    const found = { iframes: [embed], localStorage: [{ name: 'ytidb::LAST_RESULT_ENTRY_KEY', origin: 'https://www.youtube.com', phase: 'before-consent' as const, setBy: null }] };
    expect(evidenceOf(found, YOUTUBE.id)).toContainEqual({ kind: 'localStorage', value: 'ytidb::LAST_RESULT_ENTRY_KEY' });
  });

  it('recognises a service by a short name on its own domain when it is the only service listing that name there', () => {
    // No js.stripe.com among the findings: `m` on m.stripe.com is still Stripe's alone.
    expect(ids({ cookies: [cookie('m', 'm.stripe.com')] })).toEqual([STRIPE.id]);
    expect(owners(builtinCatalog(), [{ name: 'm', domain: '.m.stripe.com' }])).toEqual([STRIPE.id]);
  });

  it('does not attribute generic names by name alone: `fr`, `m`, `sb` on the site or without a domain are nobody’s', () => {
    expect(ids({ cookies: [cookie('fr'), cookie('m'), cookie('sb'), cookie('session')] })).toEqual([]);
    expect(owners(builtinCatalog(), [{ name: 'fr' }, { name: 'm' }, { name: 'sb' }, { name: 'fr', domain: '.bakery.example' }])).toEqual([
      null,
      null,
      null,
      null,
    ]);
    // On facebook.com with no Facebook service found, `fr` is listed by two (Meta Pixel, Facebook social plugins): still nobody's.
    expect(owners(builtinCatalog(), [{ name: 'fr', domain: '.facebook.com' }])).toEqual([null]);
    // A common name on the domain of a service that is not found stays unattributed too.
    expect(ids({ cookies: [cookie('session', '.stripe.com')] })).toEqual([]);
  });

  it('gives an unlisted cookie on a domain several found services own to none of them, a listed one to its lister', () => {
    const found = {
      iframes: ['https://www.google.com/maps/embed?pb=bakery', 'https://www.google.com/recaptcha/api2/anchor'],
      cookies: [cookie('NID', '.google.com'), cookie('__Secure-3PSIDCC', '.google.com')],
    };
    expect(ids(found)).toEqual([GOOGLE_MAPS.id, RECAPTCHA.id]);
    expect(evidenceOf(found, GOOGLE_MAPS.id)).toContainEqual({ kind: 'cookie', value: 'NID' });
    expect(recognise(found).flatMap((service) => service.evidence)).not.toContainEqual({ kind: 'cookie', value: '__Secure-3PSIDCC' });
  });

  it('gives `fr` on .facebook.com to the Facebook service found, though two services list the name', () => {
    const plugins = preset('Facebook social plugins');
    const frame = 'https://www.facebook.com/plugins/page.php?href=bakery';
    const found = { iframes: [frame], cookies: [cookie('fr', '.facebook.com')] };
    expect(ids(found)).toEqual([plugins.id]);
    expect(evidenceOf(found, plugins.id)).toEqual([
      { kind: 'cookie', value: 'fr' },
      { kind: 'iframe', value: frame },
    ]);
  });
});

describe('stylesheets and fonts', () => {
  it('recognise Google Fonts by its stylesheet and font files, as evidence of kind stylesheet and font', () => {
    const css = 'https://fonts.googleapis.com/css2?family=Lora&display=swap';
    const font = 'https://fonts.gstatic.com/s/lora/v32/0QI6MX1D_JOuGQbT0gvTJPa787weuxJBkq0.woff2';
    expect(ids({ stylesheets: [css], fonts: [font] })).toEqual([GOOGLE_FONTS.id]);
    expect(evidenceOf({ stylesheets: [css], fonts: [font] }, GOOGLE_FONTS.id)).toEqual([
      { kind: 'stylesheet', value: css },
      { kind: 'font', value: font },
    ]);
  });

  it.each([
    ['Adobe Fonts', ADOBE_FONTS.id, 'https://use.typekit.net/abc1def.css', 'https://use.typekit.net/af/0a1b2c/00000000000000000001/27/l?fvd=n4'],
    ['Font Awesome (CDN)', FONT_AWESOME.id, 'https://use.fontawesome.com/releases/v6.5.1/css/all.css', 'https://use.fontawesome.com/releases/v6.5.1/webfonts/fa-solid-900.woff2'],
    ['Font Awesome (kit)', FONT_AWESOME.id, 'https://ka-f.fontawesome.com/releases/v6.5.1/css/free.min.css', 'https://ka-f.fontawesome.com/releases/v6.5.1/webfonts/free-fa-solid-900.woff2'],
    ['Bunny Fonts', BUNNY_FONTS.id, 'https://fonts.bunny.net/css?family=lora:400', 'https://fonts.bunny.net/lora/files/lora-latin-400-normal.woff2'],
  ])('recognise %s by stylesheet and by font file', (_, id, css, font) => {
    expect(ids({ stylesheets: [css] })).toEqual([id]);
    expect(ids({ fonts: [font] })).toEqual([id]);
    expect(evidenceOf({ stylesheets: [css], fonts: [font] }, id)).toEqual([
      { kind: 'stylesheet', value: css },
      { kind: 'font', value: font },
    ]);
  });

  it('match stylesheets and fonts against resource signals only: a stylesheet from a script-only host reveals nothing', () => {
    expect(ids({ stylesheets: ['https://connect.facebook.net/en_US/fbevents.css'], fonts: ['https://www.bakery.example/fonts/own.woff2'] })).toEqual([]);
  });
});

describe('what the banner cannot hold back', () => {
  const advise = (unblockable: ScanFindings['unblockable']) => scanAdvice(builtinCatalog(), findings({ unblockable }));
  const HOME = SITE;
  const CONTACT = `${SITE}kontakt`;

  it('gives one entry per kind, host and service, with its pages and addresses sorted, entries by kind then host', () => {
    const maps = 'https://www.google.com/maps/embed?pb=bakery';
    const captcha = 'https://www.google.com/recaptcha/api2/anchor?k=bakery';
    const advice = advise([
      { kind: 'font', url: 'https://fonts.gstatic.com/s/lora/v32/lora.woff2', page: HOME },
      { kind: 'iframe', url: captcha, page: CONTACT },
      { kind: 'iframe', url: maps, page: CONTACT },
      { kind: 'iframe', url: maps, page: HOME },
      { kind: 'stylesheet', url: 'https://fonts.googleapis.com/css2?family=Lora', page: CONTACT },
      { kind: 'stylesheet', url: 'https://fonts.googleapis.com/css2?family=Lora', page: HOME },
    ]);
    expect(advice.map(({ kind, host, presetId, pages, sources }) => ({ kind, host, presetId, pages, sources }))).toEqual([
      { kind: 'iframe-src', host: 'www.google.com', presetId: GOOGLE_MAPS.id, pages: [HOME, CONTACT], sources: [maps] },
      { kind: 'iframe-src', host: 'www.google.com', presetId: RECAPTCHA.id, pages: [CONTACT], sources: [captcha] },
      { kind: 'third-party-stylesheet', host: 'fonts.googleapis.com', presetId: GOOGLE_FONTS.id, pages: [HOME, CONTACT], sources: ['https://fonts.googleapis.com/css2?family=Lora'] },
      { kind: 'third-party-font', host: 'fonts.gstatic.com', presetId: GOOGLE_FONTS.id, pages: [HOME], sources: ['https://fonts.gstatic.com/s/lora/v32/lora.woff2'] },
    ]);
    expect(advice[0]!.fix).toContain('until the banner finds consent to Google Maps');
    expect(advice[1]!.fix).toContain('until the banner finds consent to Google reCAPTCHA');
  });

  it("advises on a frame of a host the catalog does not know, and tells how to make an embedding hold it", () => {
    const [entry] = advise([{ kind: 'iframe', url: 'https://booking.example-widget.com/embed/42', page: HOME }]);
    expect(entry).toMatchObject({ kind: 'iframe-src', host: 'booking.example-widget.com', presetId: null });
    expect(entry!.fix).toContain("add booking.example-widget.com to an embedding's iframeMarkers");
  });

  it('has nothing to advise on when nothing was unblockable', () => {
    expect(advise([])).toEqual([]);
  });

  it('marks a found service blockable unless the banner cannot hold it as the site loads it', () => {
    const css = 'https://use.typekit.net/abc1def.css';
    const kit = 'https://use.typekit.net/abc1def.js';
    const blockable = (found: Partial<ScanFindings>) => recognise(found).map(({ id, blockable, note }) => ({ id, blockable, note }));
    // Adobe Fonts by its JavaScript embed code: the banner holds the script, and with it the fonts.
    expect(blockable({ scripts: [kit], stylesheets: [css] })).toEqual([{ id: ADOBE_FONTS.id, blockable: true, note: undefined }]);
    // By its stylesheet alone, on this site: not.
    expect(blockable({ stylesheets: [css] })).toEqual([
      { id: ADOBE_FONTS.id, blockable: false, note: expect.stringContaining('On this site Adobe Fonts showed itself only by stylesheets and fonts') },
    ]);
    // Google Fonts never.
    expect(blockable({ stylesheets: ['https://fonts.googleapis.com/css2?family=Lora'] })).toEqual([
      { id: GOOGLE_FONTS.id, blockable: false, note: expect.stringContaining('Google Fonts loads only as stylesheets and fonts') },
    ]);
    // A service found by its cookies alone stays blockable.
    expect(blockable({ cookies: [cookie('_ga_BAKERY1')] })).toEqual([{ id: GA4.id, blockable: true, note: undefined }]);
  });
});

describe('precedence of names', () => {
  /** An Open Cookie Database service, as loadCatalog makes one of imported rows. */
  const imported = (id: number, name: string, cookies: { name: string; wildcard?: boolean }[], domains: string[] = []): CatalogEntry => ({
    id,
    name,
    vendor: name,
    purpose: 'a717ff5',
    category: 'imported',
    privacyPolicyUrl: '',
    translations: { en_US: { name, description: `${name}, recognised from an imported cookie list.` } },
    cookies: cookies.map((c) => ({ name: c.wildcard ? `${c.name}*` : c.name, wildcard: c.wildcard ?? false, storageType: null, lifetime: '1 year', description: { en_US: '' } })),
    signals: { scripts: [], iframes: [], resources: [] },
    domains,
    googleConsentMode: [],
    blockable: true,
    source: 'imported',
  });
  const withImported = (...entries: CatalogEntry[]) => new Catalog([...builtinCatalog().entries, ...entries]);

  it('puts an imported exact name before a built-in pattern: AMP_TOKEN is Google’s, not Amplitude’s AMP_*', () => {
    const google = imported(100_000, 'Google Analytics', [{ name: 'AMP_TOKEN' }, { name: '_gat_gtag_', wildcard: true }]);
    const catalog = withImported(google);
    expect(catalog.matchStorageKey('AMP_TOKEN', 'cookie')).toMatchObject({ rule: 'imported', entry: { id: google.id } });
    // Amplitude keeps the rest of its pattern.
    expect(catalog.matchStorageKey('AMP_1a2b3c4d5e', 'cookie')).toMatchObject({ rule: 'wildcard', entry: { id: AMPLITUDE.id } });
    expect(owners(catalog, [{ name: 'AMP_TOKEN' }])).toEqual([google.id]);
  });

  it('keeps a built-in exact name before an imported exact name, and a built-in pattern before an imported one', () => {
    const hotjar = imported(100_001, 'Hotjar', [{ name: '_hjid' }, { name: '_hjSession_', wildcard: true }]);
    const catalog = withImported(hotjar);
    expect(catalog.matchStorageKey('_hjid', 'cookie')).toMatchObject({ rule: 'exact', entry: { id: preset('Hotjar').id } });
    expect(catalog.matchStorageKey('_hjSession_4711', 'cookie')).toMatchObject({ rule: 'wildcard', entry: { id: preset('Hotjar').id } });
  });

  it('prefers the most specific pattern: _gac_gb_<id> is Google Ads’ _gac_gb_*, not Universal Analytics’ _gac_*', () => {
    expect(builtinCatalog().matchStorageKey('_gac_gb_123456', 'cookie')).toMatchObject({ rule: 'wildcard', entry: { id: GOOGLE_ADS.id } });
    expect(builtinCatalog().matchStorageKey('_gac_UA-12345-1', 'cookie')).toMatchObject({ rule: 'wildcard', entry: { id: UA.id } });
    // So a GA4 site linked with Google Ads shows no Universal Analytics.
    expect(ids({ scripts: [GTAG], cookies: [cookie('_ga'), cookie('_ga_BAKERY1'), cookie('_gac_gb_123456')] })).toEqual([GA4.id, GOOGLE_ADS.id]);
  });

  it('gives a name several services list to the one the site shows: MUID next to bat.bing.com is UET’s, not Clarity’s', () => {
    const uet = preset('Microsoft Advertising (UET)');
    const found = { scripts: ['https://bat.bing.com/bat.js'], cookies: [cookie('MUID', '.bing.com'), cookie('_uetvid')] };
    expect(ids(found)).toEqual([uet.id]);
    expect(evidenceOf(found, uet.id)).toContainEqual({ kind: 'cookie', value: 'MUID' });
    // Without other evidence the first that lists it keeps it, as before.
    expect(ids({ cookies: [cookie('MUID', '.clarity.ms')] })).toEqual([preset('Microsoft Clarity').id]);
  });

  it("counts an imported service's Domain column as its own domain", () => {
    const ads = imported(100_002, 'Sample Ads Network', [{ name: 'sadn_uid' }], ['ads.sample-network.example']);
    expect(owners(withImported(ads), [{ name: 'sadn_uid' }, { name: 'xyz', domain: '.sample-network.example' }])).toEqual([ads.id, ads.id]);
    expect(owners(withImported(ads), [{ name: 'xyz', domain: '.sample-network.example' }])).toEqual([null]);
  });
});

describe('Google Analytics 4 and Universal Analytics (both list _ga; gtag.js sets _gid too)', () => {
  const cookies = (...names: string[]) => names.map((name) => cookie(name));

  it('a GA4 site (gtag.js, _ga, _ga_<id>) is GA4 alone, _ga included', () => {
    const found = { scripts: [GTAG], cookies: cookies('_ga', '_ga_BAKERY1') };
    expect(ids(found)).toEqual([GA4.id]);
    expect(evidenceOf(found, GA4.id)).toEqual(expect.arrayContaining([{ kind: 'cookie', value: '_ga' }, { kind: 'cookie', value: '_ga_BAKERY1' }]));
  });

  it('_gid next to GA4 evidence goes to GA4 and recognises no Universal Analytics', () => {
    expect(ids({ cookies: cookies('_ga', '_ga_BAKERY1', '_gid') })).toEqual([GA4.id]);
    expect(ids({ scripts: [GTAG], cookies: cookies('_ga', '_gid') })).toEqual([GA4.id]);
    expect(evidenceOf({ scripts: [GTAG], cookies: cookies('_ga', '_gid') }, GA4.id)).toContainEqual({ kind: 'cookie', value: '_gid' });
  });

  it('a classic Universal Analytics site (_ga, _gid, _gat) is UA alone, _ga included', () => {
    const found = { cookies: cookies('_ga', '_gid', '_gat') };
    expect(ids(found)).toEqual([UA.id]);
    expect(evidenceOf(found, UA.id)).toEqual([
      { kind: 'cookie', value: '_ga' },
      { kind: 'cookie', value: '_gid' },
      { kind: 'cookie', value: '_gat' },
    ]);
  });

  it('_gid with no GA4 evidence is Universal Analytics evidence, and _ga follows it', () => {
    expect(ids({ cookies: cookies('_ga', '_gid') })).toEqual([UA.id]);
  });

  it.each<[string, { scripts?: string[]; cookies?: ScannedCookie[] }]>([
    ['analytics.js', { scripts: ['https://www.google-analytics.com/analytics.js'] }],
    ['ga.js', { scripts: ['https://ssl.google-analytics.com/ga.js'] }],
    ['__utma', { cookies: [cookie('__utma')] }],
    ['_gat_<tracker>', { cookies: [cookie('_gat_UA-12345-1')] }],
  ])('UA-specific evidence (%s) shows UA next to GA4 on a site tagged twice; _ga stays with GA4', (_, extra) => {
    const found = { scripts: [GTAG, ...(extra.scripts ?? [])], cookies: [...cookies('_ga', '_ga_BAKERY1', '_gid'), ...(extra.cookies ?? [])] };
    expect(ids(found)).toEqual([GA4.id, UA.id]);
    expect(evidenceOf(found, GA4.id)).toContainEqual({ kind: 'cookie', value: '_ga' });
    expect(evidenceOf(found, UA.id)).not.toContainEqual({ kind: 'cookie', value: '_ga' });
    // _gid is listed by UA, which the site shows: it goes there.
    expect(evidenceOf(found, UA.id)).toContainEqual({ kind: 'cookie', value: '_gid' });
  });

  it('_ga alone goes to GA4', () => {
    expect(ids({ cookies: cookies('_ga') })).toEqual([GA4.id]);
  });

  it('attributes the same way for a list of names (the cookies → embeddings operation)', () => {
    const catalog = builtinCatalog();
    expect(owners(catalog, [{ name: '_ga' }, { name: '_ga_ABC123' }])).toEqual([GA4.id, GA4.id]);
    expect(owners(catalog, [{ name: '_ga' }, { name: '_gid' }, { name: '_gat' }])).toEqual([UA.id, UA.id, UA.id]);
    expect(owners(catalog, [{ name: '_ga' }, { name: '_ga_ABC123' }, { name: '_gid' }])).toEqual([GA4.id, GA4.id, GA4.id]);
  });
});
