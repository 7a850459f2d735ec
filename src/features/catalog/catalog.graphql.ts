import { builder, oneOf } from '../../graphql/builder.ts';
import { type CatalogCookie, type CatalogEntry, loadCatalog } from './catalog.ts';
import { PRESET_CATEGORIES } from './preset.ts';

/** The preset catalog, searchable by name, vendor or cookie name. */

type LocalizedText = { locale: string; text: string };
export type PresetTranslationEntry = { locale: string; name: string; description: string };

export const toTranslationEntries = (translations: CatalogEntry['translations']): PresetTranslationEntry[] =>
  Object.entries(translations).map(([locale, texts]) => ({ locale, ...texts }));

export const PresetTranslationType = builder.objectRef<PresetTranslationEntry>('PresetTranslation').implement({
  fields: (t) => ({
    locale: t.exposeString('locale'),
    name: t.exposeString('name'),
    description: t.exposeString('description'),
  }),
});

const LocalizedTextType = builder.objectRef<LocalizedText>('LocalizedText').implement({
  fields: (t) => ({ locale: t.exposeString('locale'), text: t.exposeString('text') }),
});

const PresetCookieType = builder.objectRef<CatalogCookie>('PresetCookie').implement({
  description: 'A cookie or storage key a catalog service sets.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'The name, or with `wildcard` a pattern in which * stands for anything.' }),
    wildcard: t.exposeBoolean('wildcard'),
    storageType: t.exposeString('storageType', { nullable: true, description: 'null for imported rows, which match any storage.' }),
    lifetime: t.exposeString('lifetime'),
    descriptions: t.field({
      type: [LocalizedTextType],
      resolve: (cookie) =>
        Object.entries(cookie.description).flatMap(([locale, text]) => (text === undefined ? [] : [{ locale, text }])),
    }),
  }),
});

const PresetSignalsType = builder.objectRef<CatalogEntry['signals']>('PresetSignals').implement({
  description: 'Script, frame, stylesheet and font sources (host or host/path-prefix) that reveal the service in a scan.',
  fields: (t) => ({
    scripts: t.exposeStringList('scripts'),
    iframes: t.exposeStringList('iframes'),
    resources: t.exposeStringList('resources', { description: 'Stylesheets and fonts.' }),
  }),
});

const PresetType = builder.objectRef<CatalogEntry>('Preset').implement({
  description: 'A known service of the catalog: built in, or imported from an Open Cookie Database file.',
  fields: (t) => ({
    id: t.exposeInt('id'),
    name: t.exposeString('name'),
    vendor: t.exposeString('vendor'),
    purpose: t.exposeString('purpose'),
    category: t.exposeString('category', { description: `${oneOf(PRESET_CATEGORIES)} Imported services: imported.` }),
    privacyPolicyUrl: t.exposeString('privacyPolicyUrl'),
    source: t.exposeString('source', { description: 'builtin or imported.' }),
    translations: t.field({ type: [PresetTranslationType], resolve: (entry) => toTranslationEntries(entry.translations) }),
    cookies: t.expose('cookies', { type: [PresetCookieType] }),
    signals: t.expose('signals', { type: PresetSignalsType }),
    domains: t.exposeStringList('domains', { description: 'Cookie domains of the service besides its signal hosts: a cookie set there belongs to it.' }),
    googleConsentMode: t.exposeStringList('googleConsentMode', {
      description: 'The Google Consent Mode types the service reads, which an embedding imported from it carries; empty for imported services.',
    }),
    blockable: t.exposeBoolean('blockable', {
      description:
        'Whether the banner can hold the service back until consent. False for a service that shows itself only by stylesheets and fonts (resource signals, no script or iframe signals: Google Fonts, Bunny Fonts), which the browser requests as it reads the page: importPresets makes its embedding inactive (documented, not offered as a choice that would do nothing), and the scan advises self-hosting.',
    }),
  }),
});

builder.queryField('presets', (t) =>
  t.field({
    type: [PresetType],
    description: 'Catalog services whose name, vendor or cookie names contain `search` (all when absent), by id, a page at a time.',
    args: {
      search: t.arg.string(),
      first: t.arg.int({ defaultValue: 100, description: 'At most this many (1–200).' }),
      offset: t.arg.int({ defaultValue: 0, description: 'Skip this many matches first (for the next page).' }),
    },
    resolve: async (_, { search, first, offset }, ctx) => {
      const limit = Math.min(Math.max(first ?? 100, 1), 200);
      const skip = Math.max(offset ?? 0, 0);
      return (await loadCatalog(ctx.em)).search(search ?? undefined).slice(skip, skip + limit);
    },
  }),
);

builder.queryField('preset', (t) =>
  t.field({
    type: PresetType,
    nullable: true,
    description: 'One catalog service by its preset id (null when there is none).',
    args: { id: t.arg.int({ required: true }) },
    resolve: async (_, { id }, ctx) => (await loadCatalog(ctx.em)).byId(id) ?? null,
  }),
);
