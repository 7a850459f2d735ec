import type { BannerTcfTexts, TcfListEntry, TcfVendor, TcfVendorList } from '../../banner-config.ts';
import type { TcfChoice } from './choice.ts';
import { element, externalLink, filledIn, listOf } from './dom.ts';

/** The layers' words, plain text (unescaped once when the layers are mounted). */
export type LayerWords = Record<keyof BannerTcfTexts, string>;

type ListTexts = Omit<TcfVendorList, 'gvlSpecificationVersion' | 'vendorListVersion' | 'tcfPolicyVersion' | 'lastUpdated' | 'vendors' | 'translations'>;

/** The list's names in the visitor's language: its translation, the list's own (English) where the translation lacks an entry. */
export type Vocabulary = {
  entry(kind: keyof ListTexts, id: number): TcfListEntry | undefined;
  name(kind: keyof ListTexts, id: number): string;
};

export function vocabularyOf(list: TcfVendorList, locale: string): Vocabulary {
  const translated = list.translations?.[locale];
  const entry = (kind: keyof ListTexts, id: number) => translated?.[kind]?.[String(id)] ?? list[kind]?.[String(id)];
  return { entry, name: (kind, id) => entry(kind, id)?.name ?? `#${id}` };
}

const DAY_SECONDS = 86_400;

/** The vendor's addresses in the visitor's language, else English, else the first it gives. */
const urlsOf = (vendor: TcfVendor, language: string) =>
  vendor.urls?.find((urls) => urls.langId.toLowerCase() === language) ?? vendor.urls?.find((urls) => urls.langId.toLowerCase() === 'en') ?? vendor.urls?.[0];

/**
 * What the TCF Policies have a second layer say of a vendor: its privacy policy (and its
 * legitimate interest claim), its purposes by legal basis, special purposes, features and special
 * features, how long it keeps data per purpose, the data it uses, and how it stores on the device.
 */
export function vendorDetails(vendor: TcfVendor, words: LayerWords, vocabulary: Vocabulary, language: string, choice: TcfChoice): HTMLElement {
  const urls = urlsOf(vendor, language);
  const retention = (days: number | undefined) => (days === undefined ? '' : ` (${filledIn(words.retention, { days })})`);
  const stdRetention = vendor.dataRetention?.stdRetention;
  const purposeItem = (id: number) => vocabulary.name('purposes', id) + retention(vendor.dataRetention?.purposes?.[String(id)] ?? stdRetention);
  const group = (heading: string, items: string[]) =>
    items.length ? element('div', { class: 'ccm-tcf-facts' }, element('strong', {}, heading), listOf(items)) : null;

  const storage: (Node | string)[] = [];
  if (vendor.usesCookies === false) storage.push(words.noCookies);
  else if (typeof vendor.cookieMaxAgeSeconds === 'number')
    storage.push(`${words.cookieDuration}: ${filledIn(words.days, { days: Math.ceil(vendor.cookieMaxAgeSeconds / DAY_SECONDS) })}`);
  if (vendor.usesCookies !== false && vendor.cookieRefresh) storage.push(words.cookieRefresh);
  if (vendor.usesNonCookieAccess) storage.push(words.nonCookieStorage);
  const disclosure = externalLink(vendor.deviceStorageDisclosureUrl, words.storageDisclosure);
  if (disclosure) storage.push(Object.assign(disclosure, { className: 'ccm-tcf-disclosure' }));

  const links = [
    externalLink(urls?.privacy, words.privacyPolicy),
    vendor.legIntPurposes.length > 0 ? externalLink(urls?.legIntClaim, words.legitimateInterestClaim) : null,
  ].filter((link) => link !== null);

  return element(
    'div',
    { class: 'ccm-tcf-vendor-details' },
    listOf(links),
    group(words.purposes, vendor.purposes.map(purposeItem)),
    group(words.legitimateInterestPurposes, vendor.legIntPurposes.map(purposeItem)),
    group(
      words.specialPurposes,
      vendor.specialPurposes.map((id) => vocabulary.name('specialPurposes', id) + retention(vendor.dataRetention?.specialPurposes?.[String(id)] ?? stdRetention)),
    ),
    group(words.features, vendor.features.map((id) => vocabulary.name('features', id))),
    group(
      words.specialFeatures,
      vendor.specialFeatures.map((id) => vocabulary.name('specialFeatures', id) + (choice.specialFeatures.has(id) ? ` ${words.optedIn}` : '')),
    ),
    group(words.dataCategories, (vendor.dataDeclaration ?? []).map((id) => vocabulary.name('dataCategories', id))),
    storage.length ? element('div', { class: 'ccm-tcf-facts' }, listOf(storage)) : null,
  );
}

/** One entry of a vendor's device storage disclosure (IAB's "Vendor Device Storage & Operational Disclosures"), the fields shown. */
type StorageEntry = { identifier: string; type: string; maxAgeSeconds?: number | null; domains?: string[]; domain?: string; purposes?: number[] };

const isEntry = (value: unknown): value is StorageEntry =>
  typeof value === 'object' && value !== null && typeof (value as StorageEntry).identifier === 'string' && typeof (value as StorageEntry).type === 'string';

/** At most this many entries of one vendor are shown: the link leads to all of them. */
const MAX_ENTRIES = 50;

/**
 * The vendor's storage disclosure (its `deviceStorageDisclosureUrl`, which vendors must serve
 * with CORS), as a list: each stored item, its kind, lifetime, domains and purposes. Null when it
 * cannot be read: the link to it stays.
 */
export async function storageDisclosure(url: string, words: LayerWords, vocabulary: Vocabulary): Promise<HTMLElement | null> {
  if (!/^https?:\/\//i.test(url)) return null;
  try {
    const answer = await fetch(url, { credentials: 'omit' });
    const body = (await answer.json()) as { disclosures?: unknown };
    const entries = Array.isArray(body.disclosures) ? body.disclosures.filter(isEntry).slice(0, MAX_ENTRIES) : [];
    if (!answer.ok || entries.length === 0) return null;
    return listOf(
      entries.map((entry) => {
        const facts = [`${words.assetType}: ${entry.type}`];
        if (typeof entry.maxAgeSeconds === 'number' && entry.maxAgeSeconds > 0) facts.push(filledIn(words.days, { days: Math.ceil(entry.maxAgeSeconds / DAY_SECONDS) }));
        const domains = Array.isArray(entry.domains) ? entry.domains : entry.domain ? [entry.domain] : [];
        if (domains.length) facts.push(domains.join(', '));
        const purposes = Array.isArray(entry.purposes) ? entry.purposes.filter((id) => typeof id === 'number') : [];
        if (purposes.length) facts.push(`${words.assetPurposes}: ${purposes.map((id) => vocabulary.name('purposes', id)).join(', ')}`);
        return element('span', {}, element('strong', {}, entry.identifier), ` – ${facts.join('; ')}`);
      }),
      'ccm-tcf-list ccm-tcf-storage',
    );
  } catch {
    return null;
  }
}
