import { z } from 'zod';
import type { PostalAddress } from '../../scanner/address.ts';
import type { FoundCookie, FoundStorageKey, VisitedPage } from '../../scanner/scan.ts';
import { isHttpUrl, list, MAX_INT32, purposeId, text, translations } from '../../kernel/contract/fields.ts';
import { placeholderResponse } from '../placeholders/placeholder.contract.ts';

/** Onboarding payloads (SERVICE.md §2 "Onboarding payloads"). */

/**
 * What `active` of an imported preset means. CCM19 documents false as its default; here an
 * omitted `active` is true, deliberately: an inactive embedding is not in the banner, so the
 * banner neither asks for the service nor holds back its scripts, and a site set up as the
 * onboarding goes (scan, import what was found, snippet) would load every service it found
 * before anyone consented.
 */
export const PRESET_ACTIVE_DESCRIPTION =
  'Whether the created embedding is active, that is in the banner, which asks for consent to it and holds back its scripts and frames until then. Default true (CCM19 documents false): an inactive embedding is not in the banner, so its scripts would load unasked. A preset the domain already has keeps its embedding as it is unless this is true.';

export const onboardingPresetList = list(
  z.strictObject({
    id: z.int().min(1).max(MAX_INT32).meta({ description: 'A preset id of the catalog (each at most once).' }),
    active: z.boolean().optional().meta({ description: PRESET_ACTIVE_DESCRIPTION }),
  }),
).superRefine((items, ctx) => {
  const seen = new Set<number>();
  items.forEach((item, index) => {
    if (seen.has(item.id)) ctx.addIssue({ code: 'custom', path: [index, 'id'], message: `repeats the preset id ${item.id}` });
    seen.add(item.id);
  });
});

export const ONBOARDING_STORAGE_TYPES = ['cookie', 'localStorage', 'sessionStorage'] as const;

/** A cookie domain (`.facebook.com`, `m.stripe.com`) or a host name. */
const HOST_PATTERN = /^\.?(?:[a-z0-9_-]+\.)*[a-z0-9_-]+$/i;

/** A host name with an optional leading dot, or an http(s) origin (`https://www.youtube.com`). */
const isDomainOrOrigin = (value: string) => HOST_PATTERN.test(value) || (isHttpUrl(value) && new URL(value).origin === value);

export const onboardingCookieList = list(
  z.strictObject({
    name: text()
      .min(1, 'must not be empty')
      .max(255, 'must be at most 255 characters')
      .meta({ description: 'A cookie or storage key name as found on the site.' }),
    storageType: z.enum(ONBOARDING_STORAGE_TYPES),
    domain: text()
      .max(255, 'must be at most 255 characters')
      .refine(isDomainOrOrigin, { message: 'must be a cookie domain or host name (such as .facebook.com) or an http(s) origin' })
      .optional()
      .meta({
        description:
          "Extra (not in CCM19; leave it out and names alone decide): where the browser kept it, as a scan reports it: a cookie's domain (`.facebook.com`) or a storage key's origin. A name set on the domain of a service recognised in the same list goes to that service, whatever the name (`fr` on `.facebook.com` next to Meta Pixel's `_fbp`).",
      }),
  }),
).meta({
  description:
    'Recognised names go to the embedding of their service (created or extended); the rest to one inactive "Unrecognised cookies" embedding (purpose other). Names are recognised by the catalog (exact names before patterns) and, for items that carry a `domain`, by the domain they were set on.',
});

export type OnboardingPreset = z.infer<typeof onboardingPresetList>[number];
export type OnboardingCookie = z.infer<typeof onboardingCookieList>[number];

/** One per preset, in request order. */
export const onboardingPresetResult = z.strictObject({
  presetId: z.int().meta({ description: 'The preset id, as sent.' }),
  embeddingId: z.uuid().meta({ description: 'The embedding just created from it, or the one the domain already had for it.' }),
  active: z.boolean().meta({
    description:
      'Extra (not in CCM19): whether that embedding is active now, so in the banner. A preset the domain already had keeps its embedding\'s state unless it was sent with `active: true`.',
  }),
}).meta({ id: 'OnboardingPresetResult' });

export type OnboardingPresetResult = z.output<typeof onboardingPresetResult>;

const nullableText = (description: string) => z.string().nullable().meta({ description });

const postalAddress = z
  .strictObject({
    company: nullableText('The operator, as the imprint names it, or null.'),
    street: nullableText('Street and house number, or null.'),
    zipCode: nullableText('Postcode, or null.'),
    city: nullableText('Town, or null.'),
  })
  .meta({ description: 'What the imprint page says (each part null when not found).' });

/** A URL a scan reported, or null when it found none. */
const foundUrl = (description: string) =>
  text()
    .max(2048, 'must be at most 2048 characters')
    .refine(isHttpUrl, { message: 'must be an absolute http(s) URL' })
    .nullable()
    .optional()
    .meta({ description });

/** A text a scan reported, or null when it found none. */
const foundText = (description: string) => text().max(500, 'must be at most 500 characters').nullable().optional().meta({ description });

/**
 * What a scan found about the operator (the `address`, `imprintUrl` and `privacyPolicyUrl` of a
 * scan result, which can be sent as they are), for the domain's placeholders.
 */
export const onboardingLegalFindings = z
  .strictObject({
    address: z
      .strictObject({
        company: foundText('The operator: fills {FIRMA}.'),
        street: foundText('Street and house number (no placeholder of its own; accepted as a scan reports it).'),
        zipCode: foundText('Postcode (no placeholder of its own; accepted as a scan reports it).'),
        city: foundText('Town: fills {Firma_Ort}.'),
      })
      .nullable()
      .optional(),
    imprintUrl: foundUrl('The imprint page: fills {Firma_Impressum}.'),
    privacyPolicyUrl: foundUrl('The privacy policy page: fills {Firma_Datenschutz}.'),
  })
  .meta({ id: 'OnboardingLegalFindings' });

export type OnboardingLegalFindings = z.output<typeof onboardingLegalFindings>;

/** The answer of `PUT …/onboarding/legalFindings`. */
export const onboardingLegalFindingsResult = z
  .strictObject({
    placeholders: z.array(placeholderResponse).meta({
      description: 'The placeholders written, in the order {FIRMA}, {Firma_Ort}, {Firma_Impressum}, {Firma_Datenschutz}; a finding that is null or empty writes none.',
    }),
    missingPlaceholders: z.array(z.string()).meta({
      description:
        "The placeholder names that a text of one of the domain's active locales refers to (`{Name}`) and that the domain does not define, or defines as empty: the banner would show them as written. Sorted; empty when nothing is missing.",
    }),
  })
  .meta({ id: 'OnboardingLegalFindingsResult' });

export type OnboardingLegalFindingsResult = z.output<typeof onboardingLegalFindingsResult>;

const EVIDENCE_KINDS = ['cookie', 'localStorage', 'sessionStorage', 'script', 'iframe', 'stylesheet', 'font'] as const;

const availablePreset = z.strictObject({
  id: z.int().min(1).meta({ description: 'A preset id of the catalog (built-in below 100000, imported from 100000).' }),
  name: z.string(),
  purpose: purposeId,
  vendor: z.string(),
  translations: translations(z.strictObject({ name: z.string(), description: z.string() })),
  evidence: z
    .array(z.strictObject({ kind: z.enum(EVIDENCE_KINDS), value: z.string() }))
    .meta({ description: 'Read-only extra: what on the site gave the service away.' }),
});

export type AvailablePreset = z.output<typeof availablePreset>;

const foundCookie = z.strictObject({
  name: z.string(),
  domain: z.string(),
  path: z.string(),
  expires: z.iso.datetime({ offset: true }).nullable().meta({ description: 'Read-only extra: ISO time, or null for a session cookie.' }),
  httpOnly: z.boolean().meta({ description: 'Read-only extra.' }),
  secure: z.boolean().meta({ description: 'Read-only extra.' }),
  sameSite: z.string().nullable().meta({ description: 'Read-only extra.' }),
  party: z.enum(['first', 'third']).meta({
    description: "Read-only extra: set for the site's own registrable domain (first party) or another one (third party).",
  }),
});

const foundStorageKey = z.strictObject({
  name: z.string(),
  origin: z.string().meta({ description: 'Read-only extra: the origin (frame) the key belongs to.' }),
});

const visitedPage = z.strictObject({
  url: z.string(),
  status: z.int().nullable().meta({ description: 'The HTTP status, or null when the page did not answer.' }),
  error: z.string().optional().meta({ description: 'Why the page could not be read, if it could not.' }),
  landedUrl: z.string().optional().meta({ description: 'Where the page landed after redirects, when it loaded.' }),
  slow: z.boolean().optional().meta({ description: 'Some of its requests had not finished when it was read; what had loaded was taken.' }),
});

export const onboardingScanResult = z.strictObject({
  address: postalAddress,
  imprintUrl: z.string().nullable().meta({ description: 'The imprint page found, or null.' }),
  privacyPolicyUrl: z.string().nullable().meta({ description: 'The privacy policy page found, or null.' }),
  availablePresets: z.array(availablePreset).meta({ description: 'The known services detected on the site, by preset id.' }),
  storage: z.strictObject({
    cookies: z.array(foundCookie).meta({ description: 'Every cookie the browser held, first and third party.' }),
    localStorage: z.array(foundStorageKey),
    sessionStorage: z.array(foundStorageKey),
    indexedDB: z.array(foundStorageKey).meta({ description: 'Read-only extra: IndexedDB databases, by name and origin.' }),
    cacheStorage: z.array(foundStorageKey).meta({ description: 'Read-only extra: Cache Storage caches, by name and origin.' }),
  }),
  url: z.string().meta({ description: 'Read-only extra: the address the scan opened.' }),
  pages: z.array(visitedPage).meta({ description: 'Read-only extra: the pages the crawl visited.' }),
  durationMs: z.number().min(0).meta({ description: 'Read-only extra: how long the scan took.' }),
}).meta({ id: 'OnboardingScanResult' });

export type OnboardingScanResult = z.output<typeof onboardingScanResult>;

/** `default` plus one snippet per active locale of the domain. */
export const onboardingEmbedCodeSnippets = z
  .object({
    default: z.string().meta({ description: "The HTML snippet that loads the consent manager in the visitor's language." }),
  })
  .catchall(z.string().meta({ description: 'The snippet that forces this locale.' }))
  .meta({ description: '`default` plus one snippet per active locale of the domain (`de_DE`, `en_US`, …), forcing that language.' }).meta({ id: 'OnboardingEmbedCodeSnippets' });

export type OnboardingEmbedCodeSnippets = z.output<typeof onboardingEmbedCodeSnippets>;

// The scanner keeps its own types; the response schemas must describe exactly those.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const agree = <_T extends true>() => undefined;
agree<Same<z.output<typeof postalAddress>, PostalAddress>>();
agree<Same<z.output<typeof foundCookie>, FoundCookie>>();
agree<Same<z.output<typeof foundStorageKey>, FoundStorageKey>>();
agree<Same<z.output<typeof visitedPage>, VisitedPage>>();
