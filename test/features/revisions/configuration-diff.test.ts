import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { applyPatch, type Operation, Pointer } from 'rfc6902';
import { describe, expect, it } from 'vitest';
import type { PublishedConfiguration } from '../../../src/features/banner/published-configuration.ts';
import { type Domain, domainDefaults } from '../../../src/features/domains/domain.contract.ts';
import { assetDefaults, type EmbeddingAsset } from '../../../src/features/embeddings/embedding-asset.contract.ts';
import { type Embedding, embeddingDefaults } from '../../../src/features/embeddings/embedding.contract.ts';
import { defaultTextsFor } from '../../../src/features/locales/default-texts/index.ts';
import type { Locale } from '../../../src/features/locales/locale.contract.ts';
import { THEME_COLORS, type Theme, themeDefaults } from '../../../src/features/themes/theme.contract.ts';
import { diffConfigurations } from '../../../src/features/revisions/configuration-diff.ts';

/**
 * The difference of two published configurations of a domain (configuration-diff.ts): a JSON Patch
 * that turns the older into the newer, and a summary per change that people can read.
 */

// ── a published configuration, as the API shows one ─────────────────────────

const domain = (overrides: Partial<Domain> = {}): Domain => ({
  id: '0190a000-0000-7000-8000-00000000d001',
  name: 'www.example.org',
  path: '/',
  url: 'https://www.example.org/',
  ...structuredClone(domainDefaults),
  ...overrides,
});

let assetCount = 0;
const asset = (name: string, overrides: Partial<EmbeddingAsset> = {}): EmbeddingAsset => ({
  id: `0190a000-0000-7000-8000-${String(++assetCount).padStart(12, '0')}`,
  name,
  ...structuredClone(assetDefaults),
  ...overrides,
});

const embedding = (id: string, name: string, overrides: Partial<Embedding> = {}): Embedding => ({
  id,
  name,
  purpose: '15c61c3',
  ...structuredClone(embeddingDefaults),
  assets: [],
  ...overrides,
});

const colours = (first: number) =>
  Object.fromEntries(THEME_COLORS.map((key, i) => [key, `#${(first + i * 0x010101).toString(16).padStart(6, '0')}`])) as Pick<
    Theme,
    (typeof THEME_COLORS)[number]
  >;

const theme = (id: string, name: string, overrides: Partial<Theme> = {}): Theme => ({
  id,
  name,
  ...structuredClone(themeDefaults),
  ...colours(0x0a0a0a),
  ...overrides,
});

const locale = (name: string): Locale => ({ name, active: true, ...defaultTextsFor(name) });

const YOUTUBE = '0190a000-0000-7000-8000-0000000e0001';
const MATOMO = '0190a000-0000-7000-8000-0000000e0002';
const ANALYTICS = '0190a000-0000-7000-8000-0000000e0003';

const configuration = (): PublishedConfiguration => ({
  clientId: '0190a000-0000-7000-8000-00000000c001',
  domain: domain(),
  embeddings: [
    embedding(YOUTUBE, 'YouTube', {
      purpose: '6cd2721',
      vendor: 'Google Ireland Limited',
      privacyPolicyUrl: 'https://policies.google.com/privacy',
      iframeMarkers: ['youtube.com'],
      translations: { en_US: { name: 'YouTube video' } },
      assets: [
        asset('VISITOR_INFO1_LIVE', { lifetime: '6 months', description: 'Estimates bandwidth' }),
        asset('yt-remote-*', { dynamic: true, storageType: 'localStorage' }),
      ],
    }),
    embedding(MATOMO, 'Matomo', { purpose: 'a717ff5', assets: [asset('_pk_id.*', { dynamic: true, lifetime: '13 months' })] }),
  ],
  placeholders: [
    { name: 'FIRMA', value: 'ACME' },
    { name: 'Firma_Datenschutz', value: 'https://www.example.org/datenschutz' },
  ],
  theme: theme('0190a000-0000-7000-8000-0000000f0001', 'Default'),
  locales: [locale('de_DE'), locale('en_US')],
});

const googleAnalytics = () =>
  embedding(ANALYTICS, 'Google Analytics', {
    purpose: 'a717ff5',
    assets: [asset('_ga', { lifetime: '2 years' }), asset('_gid', { lifetime: '1 day' })],
  });

/** The configuration after `edit`, and the difference to it, whose patch must turn one into the other. */
function diffAfter(edit: (draft: PublishedConfiguration) => void, older = configuration()) {
  const newer = structuredClone(older);
  edit(newer);
  const diff = diffConfigurations(older, newer);
  expectPatchTurns(older, newer, diff.patch);
  return { ...diff, summaries: diff.changes.map((change) => change.summary) };
}

function expectPatchTurns(older: PublishedConfiguration, newer: PublishedConfiguration, patch: Operation[]) {
  const patched = structuredClone(older);
  expect(applyPatch(patched, patch).filter((error) => error !== null)).toEqual([]);
  expect(patched).toEqual(newer);
}

// ── each kind of change ─────────────────────────────────────────────────────

describe('the difference of two published configurations', () => {
  it('is nothing for equal configurations', () => {
    const older = configuration();
    expect(diffConfigurations(older, older)).toEqual({ patch: [], changes: [] });
    expect(diffConfigurations(older, structuredClone(older))).toEqual({ patch: [], changes: [] });
  });

  it('says which domain settings changed, with their values', () => {
    const { changes } = diffAfter((draft) => {
      draft.domain.consentCookieLifetime = 180;
      draft.domain.blockIframes = false;
      draft.domain.country = 'DE';
      draft.domain.locales = ['de_DE', 'en_US', 'fr_FR'];
      draft.domain.iframeMarkers = ['maps.google.com'];
    });
    expect(changes).toEqual([
      { path: '/domain/country', summary: 'domain settings: country none → "DE"' },
      { path: '/domain/locales', summary: 'domain settings: locales "de_DE", "en_US" → "de_DE", "en_US", "fr_FR"' },
      { path: '/domain/consentCookieLifetime', summary: 'domain settings: consentCookieLifetime 365 → 180' },
      { path: '/domain/blockIframes', summary: 'domain settings: blockIframes yes → no' },
      { path: '/domain/iframeMarkers', summary: 'domain settings: iframeMarkers none → "maps.google.com"' },
    ]);
  });

  it("names an embedding's purpose by its category", () => {
    const { changes, patch } = diffAfter((draft) => {
      draft.embeddings[0]!.purpose = 'cdcbd7c';
    });
    expect(changes).toEqual([{ path: '/embeddings/0/purpose', summary: 'embedding YouTube: purpose social_media → marketing' }]);
    expect(patch).toEqual([{ op: 'replace', path: '/embeddings/0/purpose', value: 'cdcbd7c' }]);
  });

  it('says which embeddings were added and removed, removed ones after the others, where they were', () => {
    const { changes } = diffAfter((draft) => {
      draft.embeddings.splice(1, 1, googleAnalytics());
      draft.embeddings[0]!.vendor = 'Google LLC';
    });
    expect(changes).toEqual([
      { path: '/embeddings/0/vendor', summary: 'embedding YouTube: vendor "Google Ireland Limited" → "Google LLC"' },
      { path: '/embeddings/1', summary: 'embedding Google Analytics added' },
      { path: '/embeddings/1', summary: 'embedding Matomo removed' },
    ]);
  });

  it('tells a renamed embedding by its old name, and its other changes by the new one', () => {
    const { summaries } = diffAfter((draft) => {
      draft.embeddings[0]!.name = 'YouTube (no cookie)';
      draft.embeddings[0]!.iframeMarkers = ['youtube-nocookie.com', 'youtube.com'];
    });
    expect(summaries).toEqual([
      'embedding YouTube: name "YouTube" → "YouTube (no cookie)"',
      'embedding YouTube (no cookie): iframeMarkers "youtube.com" → "youtube-nocookie.com", "youtube.com"',
    ]);
  });

  it('says only that the embeddings were reordered when that is all', () => {
    const { changes } = diffAfter((draft) => {
      draft.embeddings.reverse();
    });
    expect(changes).toEqual([{ path: '/embeddings', summary: 'embeddings reordered' }]);
  });

  it('tells a change in nested translations by its path', () => {
    const { changes } = diffAfter((draft) => {
      draft.embeddings[0]!.translations = { en_US: { name: 'YouTube videos' }, fr_FR: { name: 'Vidéos YouTube', description: 'Vidéos' } };
    });
    expect(changes).toEqual([
      { path: '/embeddings/0/translations/en_US/name', summary: 'embedding YouTube: translations.en_US.name "YouTube video" → "YouTube videos"' },
      { path: '/embeddings/0/translations/fr_FR/name', summary: 'embedding YouTube: translations.fr_FR.name none → "Vidéos YouTube"' },
      { path: '/embeddings/0/translations/fr_FR/description', summary: 'embedding YouTube: translations.fr_FR.description none → "Vidéos"' },
    ]);
    const { changes: removed } = diffAfter((draft) => {
      draft.embeddings[0]!.translations = {};
    });
    expect(removed).toEqual([
      { path: '/embeddings/0/translations/en_US/name', summary: 'embedding YouTube: translations.en_US.name "YouTube video" → none' },
    ]);
  });

  it('calls assets cookies: added, removed and changed ones, matched by id', () => {
    const older = configuration();
    older.embeddings.push(googleAnalytics());
    const { changes } = diffAfter((draft) => {
      const analytics = draft.embeddings[2]!;
      analytics.assets[1]!.lifetime = '2 days';
      analytics.assets.push(asset('_gat', { lifetime: '1 minute' }));
      analytics.assets.shift();
    }, older);
    expect(changes).toEqual([
      { path: '/embeddings/2/assets/0/lifetime', summary: 'embedding Google Analytics: cookie _gid: lifetime "1 day" → "2 days"' },
      { path: '/embeddings/2/assets/1', summary: 'embedding Google Analytics: cookie _gat added' },
      { path: '/embeddings/2/assets/0', summary: 'embedding Google Analytics: cookie _ga removed' },
    ]);
  });

  it('matches a recreated cookie by its name, and points at a removed one in the older configuration', () => {
    const { changes } = diffAfter((draft) => {
      draft.embeddings.shift();
      const [matomo] = draft.embeddings;
      matomo!.assets = [asset('_pk_id.*', { dynamic: true, lifetime: '12 months' })];
    });
    const newId = changes.find((change) => change.path === '/embeddings/0/assets/0/id');
    expect(newId?.summary).toMatch(/^embedding Matomo: cookie _pk_id\.\*: id "[-0-9a-f]+" → "[-0-9a-f]+"$/);
    expect(changes.filter((change) => change !== newId)).toEqual([
      { path: '/embeddings/0/assets/0/lifetime', summary: 'embedding Matomo: cookie _pk_id.*: lifetime "13 months" → "12 months"' },
      { path: '/embeddings/0', summary: 'embedding YouTube removed' },
    ]);

    const { changes: gone } = diffAfter((draft) => {
      draft.embeddings.shift();
      draft.embeddings[0]!.assets = [];
    });
    expect(gone).toEqual([
      { path: '/embeddings/1/assets/0', summary: 'embedding Matomo: cookie _pk_id.* removed' },
      { path: '/embeddings/0', summary: 'embedding YouTube removed' },
    ]);
  });

  it('says which cookies were renamed and reordered', () => {
    const { summaries } = diffAfter((draft) => {
      const assets = draft.embeddings[0]!.assets;
      assets.reverse();
      assets[1]!.name = 'VISITOR_INFO2_LIVE';
    });
    expect(summaries).toEqual([
      'embedding YouTube: cookie VISITOR_INFO1_LIVE: name "VISITOR_INFO1_LIVE" → "VISITOR_INFO2_LIVE"',
      'embedding YouTube: cookies reordered',
    ]);
  });

  it('says which placeholders changed, came and went', () => {
    const { changes } = diffAfter((draft) => {
      draft.placeholders[0]!.value = 'ACME GmbH';
      draft.placeholders[1] = { name: 'Firma_Ort', value: 'Berlin' };
    });
    expect(changes).toEqual([
      { path: '/placeholders/0/value', summary: 'placeholder FIRMA: value "ACME" → "ACME GmbH"' },
      { path: '/placeholders/1', summary: 'placeholder Firma_Ort added' },
      { path: '/placeholders/1', summary: 'placeholder Firma_Datenschutz removed' },
    ]);
  });

  it("names a theme's colours in words and shows them bare", () => {
    const { changes } = diffAfter((draft) => {
      draft.theme!.primaryButtonBackgroundColor = '#222222';
      draft.theme!.windowLinkColor = '#0000ee';
      draft.theme!.widgetPosition = 'top';
      draft.theme!.widgetButtons = ['accept', 'cpanel'];
    });
    expect(changes).toEqual([
      { path: '/theme/widgetButtons', summary: 'theme Default: widgetButtons "accept", "decline", "cpanel" → "accept", "cpanel"' },
      { path: '/theme/widgetPosition', summary: 'theme Default: widgetPosition "bottom" → "top"' },
      { path: '/theme/primaryButtonBackgroundColor', summary: 'theme Default: primary button background colour #0a0a0a → #222222' },
      { path: '/theme/windowLinkColor', summary: `theme Default: window link colour ${configuration().theme!.windowLinkColor} → #0000ee` },
    ]);
  });

  it('says that another theme is published, or none, or one again', () => {
    const dark = theme('0190a000-0000-7000-8000-0000000f0002', 'Dark', colours(0x202020));
    expect(diffAfter((draft) => void (draft.theme = dark)).changes).toEqual([{ path: '/theme', summary: 'theme Default → theme Dark' }]);
    expect(diffAfter((draft) => void (draft.theme = null)).changes).toEqual([{ path: '/theme', summary: 'theme Default removed' }]);
    const bare = { ...configuration(), theme: null };
    expect(diffAfter((draft) => void (draft.theme = dark), bare).changes).toEqual([{ path: '/theme', summary: 'theme Dark added' }]);
  });

  it('says which locale texts changed, naming purposes by their category, and which locales came and went', () => {
    const { changes } = diffAfter((draft) => {
      draft.locales[1]!.widgetTitle = 'We use cookies';
      draft.locales[1]!.purposeNames.cdcbd7c = 'Ads';
      draft.locales[0] = locale('fr_FR');
    });
    const englishTitle = configuration().locales[1]!.widgetTitle;
    const englishAds = configuration().locales[1]!.purposeNames.cdcbd7c;
    expect(changes).toEqual([
      { path: '/locales/0', summary: 'locale fr_FR added' },
      { path: '/locales/1/widgetTitle', summary: `locale en_US: widgetTitle ${JSON.stringify(englishTitle)} → "We use cookies"` },
      { path: '/locales/1/purposeNames/cdcbd7c', summary: `locale en_US: purposeNames.marketing ${JSON.stringify(englishAds)} → "Ads"` },
      { path: '/locales/0', summary: 'locale de_DE removed' },
    ]);
  });

  it('shortens long texts around where they first differ', () => {
    const start = 'We and our partners store and read information on your device. ';
    const older = configuration();
    older.locales[1]!.widgetIntroText = `${start}Some of it is necessary, some helps us improve this site.`;
    older.locales[1]!.imprintHtmlCode = '<p>{FIRMA}<br>{Firma_Ort}</p><p>You will find full details of the company below.</p>';
    const { summaries } = diffAfter((draft) => {
      draft.locales[1]!.widgetIntroText = `${start}Some of it is necessary, other parts help us improve this site.`;
      draft.locales[1]!.imprintHtmlCode = `<p>${'Lorem ipsum dolor sit amet. '.repeat(5)}</p>`;
    }, older);
    expect(summaries).toEqual([
      // Cut 20 characters before the first difference; both end within 60 characters of there.
      'locale en_US: widgetIntroText "…of it is necessary, some helps us improve this site." → "…of it is necessary, other parts help us improve this site."',
      // Different from the start: the first 60 characters of each.
      'locale en_US: imprintHtmlCode "<p>{FIRMA}<br>{Firma_Ort}</p><p>You will find full details o…" → ' +
        '"<p>Lorem ipsum dolor sit amet. Lorem ipsum dolor sit amet. L…"',
    ]);
  });

  it('lists changes by part: domain settings, embeddings, placeholders, theme, locales', () => {
    const { summaries } = diffAfter((draft) => {
      draft.locales[0]!.widgetTitle = 'Cookies!';
      draft.theme!.name = 'House style';
      draft.placeholders.pop();
      draft.embeddings.shift();
      draft.embeddings.unshift(googleAnalytics());
      draft.domain.tcfEnabled = true;
    });
    expect(summaries).toEqual([
      'domain settings: tcfEnabled no → yes',
      'embedding Google Analytics added',
      'embedding YouTube removed',
      'placeholder Firma_Datenschutz removed',
      'theme Default: name "Default" → "House style"',
      `locale de_DE: widgetTitle ${JSON.stringify(configuration().locales[0]!.widgetTitle)} → "Cookies!"`,
    ]);
  });
});

// ── any small edits ─────────────────────────────────────────────────────────

type Edit = (draft: PublishedConfiguration) => void;

/** Picks the item at `at` (any integer) of a non-empty list. */
const pick = <T,>(items: T[], at: number): T | undefined => (items.length === 0 ? undefined : items[at % items.length]);

const someText = fc.oneof(fc.constantFrom('', 'ACME', 'de_DE', 'a/b~c', '"quoted"'), fc.string({ unit: 'grapheme', maxLength: 90 }));
const index = fc.nat(20);
const purpose = fc.constantFrom('41ba25c', 'cdcbd7c', 'a717ff5', '7c19e32', '6cd2721', '15c61c3') as fc.Arbitrary<Embedding['purpose']>;

const anEdit: fc.Arbitrary<Edit> = fc.oneof(
  fc.integer({ min: 1, max: 3650 }).map((days): Edit => (draft) => void (draft.domain.consentCookieLifetime = days)),
  fc.boolean().map((on): Edit => (draft) => void (draft.domain.blockIframes = on)),
  fc.array(someText, { maxLength: 3 }).map((markers): Edit => (draft) => void (draft.domain.allowedScriptMarkers = markers)),
  fc.tuple(index, purpose).map(([at, to]): Edit => (draft) => void (pick(draft.embeddings, at) && (pick(draft.embeddings, at)!.purpose = to))),
  fc.tuple(index, someText).map(([at, name]): Edit => (draft) => void (pick(draft.embeddings, at) && (pick(draft.embeddings, at)!.name = name))),
  fc.tuple(index, fc.constantFrom('de_DE', 'en_US', 'fr_FR'), someText).map(
    ([at, localeName, name]): Edit =>
      (draft) => {
        const target = pick(draft.embeddings, at);
        if (target) target.translations = { ...target.translations, [localeName]: { ...target.translations[localeName], name } };
      },
  ),
  fc.tuple(index, someText).map(
    ([at, name]): Edit =>
      (draft) => void draft.embeddings.splice(at % (draft.embeddings.length + 1), 0, embedding(`new-${name}-${at}`, name, { assets: [asset(name)] })),
  ),
  index.map((at): Edit => (draft) => void draft.embeddings.splice(at % Math.max(1, draft.embeddings.length), 1)),
  fc.tuple(index, index).map(
    ([from, to]): Edit =>
      (draft) => {
        const [moved] = draft.embeddings.splice(from % Math.max(1, draft.embeddings.length), 1);
        if (moved) draft.embeddings.splice(to % (draft.embeddings.length + 1), 0, moved);
      },
  ),
  fc.tuple(index, someText).map(([at, name]): Edit => (draft) => void pick(draft.embeddings, at)?.assets.push(asset(name))),
  fc.tuple(index, index).map(([at, which]): Edit => (draft) => {
    const assets = pick(draft.embeddings, at)?.assets;
    if (assets?.length) assets.splice(which % assets.length, 1);
  }),
  fc.tuple(index, index, someText).map(([at, which, lifetime]): Edit => (draft) => {
    const target = pick(pick(draft.embeddings, at)?.assets ?? [], which);
    if (target) target.lifetime = lifetime;
  }),
  fc.tuple(index, someText).map(([at, value]): Edit => (draft) => void (pick(draft.placeholders, at) && (pick(draft.placeholders, at)!.value = value))),
  fc.tuple(fc.stringMatching(/^[A-Za-z0-9_.-]{3,12}$/), someText).map(([name, value]): Edit => (draft) => {
    if (!draft.placeholders.some((placeholder) => placeholder.name === name)) draft.placeholders.push({ name, value });
  }),
  index.map((at): Edit => (draft) => void draft.placeholders.splice(at % Math.max(1, draft.placeholders.length), 1)),
  fc.tuple(fc.constantFrom(...THEME_COLORS), fc.integer({ min: 0, max: 0xffffff })).map(
    ([field, rgb]): Edit => (draft) => void (draft.theme && (draft.theme[field] = `#${rgb.toString(16).padStart(6, '0')}`)),
  ),
  fc.constantFrom<Theme | null>(null, theme('0190a000-0000-7000-8000-0000000f0002', 'Dark', colours(0x202020))).map(
    (next): Edit => (draft) => void (draft.theme = structuredClone(next)),
  ),
  fc.tuple(index, someText).map(([at, title]): Edit => (draft) => void (pick(draft.locales, at) && (pick(draft.locales, at)!.widgetTitle = title))),
  fc.tuple(index, purpose, someText).map(
    ([at, id, name]): Edit => (draft) => void (pick(draft.locales, at) && (pick(draft.locales, at)!.purposeNames[id] = name)),
  ),
  index.map((at): Edit => (draft) => void draft.locales.splice(at % Math.max(1, draft.locales.length), 1)),
  fc.constantFrom('fr_FR', 'it_IT').map((name): Edit => (draft) => {
    if (!draft.locales.some((existing) => existing.name === name)) draft.locales.push(locale(name));
  }),
);

describe('the difference of any two configurations a few edits apart', () => {
  it('has a patch that turns either into the other, says something exactly when they differ, and nothing for a copy', () => {
    const base = configuration();
    fc.assert(
      fc.property(fc.array(anEdit, { maxLength: 6 }), (edits) => {
        const newer = structuredClone(base);
        for (const edit of edits) edit(newer);
        for (const [from, to] of [
          [base, newer],
          [newer, base],
        ] as const) {
          const diff = diffConfigurations(from, to);
          const patched = structuredClone(from);
          expect(applyPatch(patched, diff.patch).filter((error) => error !== null)).toEqual([]);
          expect(patched).toEqual(to);
          expect(diff.changes.length > 0).toBe(!isDeepStrictEqual(from, to));
          // Each change points at something in the newer configuration, or in the older for what went.
          const pointsInto = (document: PublishedConfiguration, path: string) => Pointer.fromJSON(path).evaluate(document).value !== undefined;
          expect(diff.changes.filter((change) => !pointsInto(to, change.path) && !pointsInto(from, change.path))).toEqual([]);
        }
        expect(diffConfigurations(newer, structuredClone(newer))).toEqual({ patch: [], changes: [] });
      }),
      { numRuns: 300 },
    );
  });
});
