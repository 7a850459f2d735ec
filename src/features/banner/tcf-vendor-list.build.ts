import type { EntityManager } from '@mikro-orm/postgresql';
import { type GvlDocument, type GvlTranslation, translationDocuments, vendorListDocuments } from '../tcf-vendors/gvl-documents.ts';
import { languageOf, type PublishedTcf } from '../tcf-vendors/published-tcf.ts';
import type { TcfListEntry, TcfVendor, TcfVendorList } from './banner-config.ts';

/**
 * The answer at a TCF domain's `vendorListUrl` (banner-config.ts `TcfVendorList`): the list of the
 * version its revision names, with only the domain's vendors (and of each, only what the banner
 * uses), and the list's texts per locale of the domain: the imported translation for the
 * locale's language, section by section, else the list's own English.
 */

const TEXT_SECTIONS = ['purposes', 'specialPurposes', 'features', 'specialFeatures', 'stacks', 'dataCategories'] as const;
type Texts = Pick<TcfVendorList, (typeof TEXT_SECTIONS)[number]>;

const VENDOR_FIELDS = [
  'id', 'name', 'purposes', 'legIntPurposes', 'flexiblePurposes', 'specialPurposes', 'features', 'specialFeatures',
  'cookieMaxAgeSeconds', 'usesCookies', 'cookieRefresh', 'usesNonCookieAccess', 'deviceStorageDisclosureUrl',
  'urls', 'dataRetention', 'dataDeclaration',
] as const;

const section = (value: unknown): Record<string, TcfListEntry> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, TcfListEntry>) : {};

const textsOf = (document: GvlDocument | GvlTranslation, fallback?: Texts): Texts =>
  Object.fromEntries(
    TEXT_SECTIONS.map((name) => {
      const own = section(document[name]);
      return [name, fallback && Object.keys(own).length === 0 ? fallback[name] : own];
    }),
  ) as Texts;

export function buildVendorList(list: GvlDocument, tcf: PublishedTcf, locales: readonly string[], translations: ReadonlyMap<string, GvlTranslation>): TcfVendorList {
  const english = textsOf(list);
  const vendors = Object.fromEntries(
    tcf.vendors.map(({ id }) => {
      const vendor = list.vendors[String(id)]!;
      const kept = Object.fromEntries(VENDOR_FIELDS.filter((field) => vendor[field] !== undefined).map((field) => [field, vendor[field]]));
      return [String(id), kept as TcfVendor];
    }),
  );
  return {
    gvlSpecificationVersion: 3,
    vendorListVersion: list.vendorListVersion,
    tcfPolicyVersion: list.tcfPolicyVersion,
    lastUpdated: list.lastUpdated,
    ...english,
    vendors,
    translations: Object.fromEntries(
      locales.map((locale) => {
        const translation = translations.get(languageOf(locale));
        return [locale, translation ? textsOf(translation, english) : english];
      }),
    ),
  };
}

/** The domain's vendor list, read (a statement or two, for what this process has not parsed yet) and built. */
export async function readVendorList(em: EntityManager, tcf: PublishedTcf, locales: readonly string[]): Promise<TcfVendorList> {
  const [lists, translations] = await Promise.all([
    vendorListDocuments(em, [{ version: tcf.vendorListVersion, hash: tcf.listHash }]),
    translationDocuments(em, tcf.translations),
  ]);
  return buildVendorList(lists.get(tcf.vendorListVersion)!, tcf, locales, translations);
}
