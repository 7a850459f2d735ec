import { z } from 'zod';
import type { PostalAddress } from '../../scanner/address.ts';
import type { FoundStorageKey, ScannedCookie, VisitedPage } from '../../scanner/scan.ts';
import { REQUEST_KINDS, SCAN_PHASES } from '../../scanner/traffic.ts';
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
  'Whether the created embedding is active, that is in the banner, which asks for consent to it and holds back its scripts and frames until then. Default true (CCM19 documents false): an inactive embedding is not in the banner, so its scripts would load unasked. A preset the domain already has keeps its embedding as it is unless this is true. A preset that is not blockable (Preset.blockable: it loads only as stylesheets and fonts, such as Google Fonts) is imported inactive whatever this says, and its result has a note saying why.';

/**
 * Why a preset the banner cannot hold back is not offered as a choice: the banner holds scripts
 * and frames, and a service that loads only as stylesheets and fonts would get a switch that does
 * nothing. Its embedding is made inactive (documented, not in the banner); the fix is on the site.
 */
export const PRESET_NOTE_DESCRIPTION =
  "Extra (not in CCM19): present when the preset is not blockable (it loads only as stylesheets and fonts, such as Google Fonts, which the banner cannot hold back): it says that its embedding is inactive, so documented but not offered to visitors as a choice that would do nothing, or, for an embedding the domain already had active, that it should be switched off; and that the fix is serving the files from the site itself (the scan's advice says where they load).";

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
}).meta({ examples: [[{ id: 1 }, { id: 200, active: true }]] });

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
  examples: [
    [
      { name: '_ga', storageType: 'cookie' },
      { name: '_fbp', storageType: 'cookie', domain: '.example.org' },
      { name: 'fr', storageType: 'cookie', domain: '.facebook.com' },
    ],
  ],
});

export type OnboardingPreset = z.infer<typeof onboardingPresetList>[number];
export type OnboardingCookie = z.infer<typeof onboardingCookieList>[number];

/** One per preset, in request order. */
export const onboardingPresetResult = z.strictObject({
  presetId: z.int().meta({ description: 'The preset id, as sent.' }),
  embeddingId: z.uuid().meta({ description: 'The embedding just created from it, or the one the domain already had for it.' }),
  active: z.boolean().meta({
    description:
      'Extra (not in CCM19): whether that embedding is active now, so in the banner. A preset the domain already had keeps its embedding\'s state unless it was sent with `active: true`; a preset that is not blockable is never switched on (see `note`).',
  }),
  note: z.string().optional().meta({ description: PRESET_NOTE_DESCRIPTION }),
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
  .meta({
    id: 'OnboardingLegalFindings',
    examples: [
      {
        address: { company: 'Example GmbH', street: 'Musterstraße 1', zipCode: '10115', city: 'Berlin' },
        imprintUrl: 'https://www.example.org/impressum',
        privacyPolicyUrl: 'https://www.example.org/datenschutz',
      },
    ],
  });

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

export const AVAILABLE_PRESET_BLOCKABLE_DESCRIPTION =
  "Read-only extra: whether the banner can hold the service back on this site as the site loads it. False when the preset is not blockable (it loads only as stylesheets and fonts, such as Google Fonts: importPresets makes its embedding inactive by itself), and when everything that revealed it here is a stylesheet or font (Adobe Fonts' CSS embed code): a switch for it would do nothing, so import it with `active: false` to document it, and see `advice` for the fix.";

/** Said of the fields a scan records since they exist: a scan job's older result lacks them. */
export const RECORDED_SINCE = 'Absent (null in GraphQL) in the result of a scan made before the service recorded it.';

export const AVAILABLE_PRESET_NOTE_DESCRIPTION = 'Read-only extra: why the service is not blockable on this site, when it is not.';

export const PRESET_WHY_KINDS = ['script', 'frame', 'stylesheet', 'font', 'cookie', 'localStorage', 'sessionStorage'] as const;

/**
 * Why a service is suggested: its own evidence. A script, frame, stylesheet or font by its address;
 * a cookie or storage key it set, with where the browser kept it.
 */
export const AVAILABLE_PRESET_WHY_DESCRIPTION =
  "Extra (not in CCM19): why the service is suggested, its own evidence on the site: a script, frame, stylesheet or font it loads (`url`, matched by host and path), or a cookie (`name`, `domain`) or storage key (`name`, `origin`) it set. A cookie counts when it is on the service's own domain, or first party and no other service found on the site is known to set it (the catalog's `alsoSetBy`: Google Tag Manager's conversion linker sets `_gcl_au`, YouTube's player sets `IDE` on doubleclick.net); a cookie another service found sets is listed under that service and suggests no other.";

const presetWhy = z.union([
  z.strictObject({
    kind: z.enum(['script', 'frame', 'stylesheet', 'font']),
    url: z.string().meta({ description: 'The address the page loaded.' }),
  }),
  z.strictObject({
    kind: z.literal('cookie'),
    name: z.string(),
    domain: z.string().meta({ description: "The cookie's domain, as the scan's storage reports it." }),
  }),
  z.strictObject({
    kind: z.enum(['localStorage', 'sessionStorage']),
    name: z.string(),
    origin: z.string().meta({ description: 'The origin (frame) the key belongs to.' }),
  }),
]);

export type PresetWhy = z.output<typeof presetWhy>;

const availablePreset = z.strictObject({
  id: z.int().min(1).meta({ description: 'A preset id of the catalog (built-in below 100000, imported from 100000).' }),
  name: z.string(),
  purpose: purposeId,
  vendor: z.string(),
  translations: translations(z.strictObject({ name: z.string(), description: z.string() })),
  evidence: z
    .array(z.strictObject({ kind: z.enum(EVIDENCE_KINDS), value: z.string() }))
    .meta({ description: 'Read-only extra: what on the site gave the service away.' }),
  // Optional: a scan job's result stored before the field existed has none (nothing can be said of it afterwards).
  blockable: z.boolean().optional().meta({ description: `${AVAILABLE_PRESET_BLOCKABLE_DESCRIPTION} ${RECORDED_SINCE}` }),
  note: z.string().optional().meta({ description: AVAILABLE_PRESET_NOTE_DESCRIPTION }),
  why: z.array(presetWhy).optional().meta({ description: `${AVAILABLE_PRESET_WHY_DESCRIPTION} ${RECORDED_SINCE}` }),
});

/**
 * What a scan advises changing on the site: what its pages load from other sites that no consent
 * banner can hold back (Chromium requests it as it reads the page), one entry per kind, host and
 * service. Ours, not CCM19's.
 */
export const SCAN_ADVICE_KINDS = ['iframe-src', 'third-party-stylesheet', 'third-party-font'] as const;

export const SCAN_ADVICE_KIND_DESCRIPTION =
  "iframe-src: iframes of another site written with src in a page's HTML as served, whose request starts as the browser reads the page (frames a script inserts, or written with data-src, the banner holds and are not listed); third-party-stylesheet, third-party-font: stylesheets and font files from another site, which the banner never holds (except those a script of another site inserts: they wait with that script).";

export const SCAN_ADVICE_DESCRIPTION =
  "Extra (not in CCM19): what the site's pages load from other sites before any consent, which no banner in the page can hold back, with what to change on the site. One entry per kind, host and service; empty when there is nothing to change. Sorted by kind, then host.";

const scanAdvice = z
  .strictObject({
    kind: z.enum(SCAN_ADVICE_KINDS).meta({ description: SCAN_ADVICE_KIND_DESCRIPTION }),
    host: z.string().meta({ description: 'The host of the other site that receives the requests (it gets every visitor\'s IP address).' }),
    presetId: z.int().min(1).nullable().meta({
      description: 'The catalog service the requests belong to (by its iframe signals for iframe-src, its stylesheet and font signals otherwise), or null for a host the catalog does not know.',
    }),
    pages: z.array(z.string()).meta({ description: 'The pages of the site that load it (the address of the document that asks for it), sorted.' }),
    sources: z.array(z.string()).meta({ description: 'The addresses requested (the frames\' src, the stylesheets, the font files), sorted.' }),
    fix: z.string().meta({ description: 'What to change on the site, in English (a dashboard translates it by `kind`).' }),
  })
  .meta({ id: 'ScanAdvice' });

export type ScanAdvice = z.output<typeof scanAdvice>;

export const THIRD_PARTY_BEACON_REASONS = ['catalog', 'tracker-list', 'sendBeacon', 'pixel'] as const;
/** Beacons listed per host at most (a page sends a tag's hits again and again, each to a new address). */
export const MAX_BEACONS_PER_HOST = 50;
/** Initiators listed per host at most. */
export const MAX_INITIATORS_PER_HOST = 20;

export const THIRD_PARTIES_DESCRIPTION =
  "Extra (not in CCM19): every host of another site that the pages contacted, one entry per host, sorted by host: what it was asked for, on which pages, by which script or frame, in which phase of the scan, the tracking beacons it received and the cookies it set or receives, and who it is (a catalog service, else an entity of the third-party-web list, else nobody). A host nobody knows that sets cookies or receives beacons is an unrecognised third party: `recognised` null, with its evidence.";

const thirdPartyBeacon = z.strictObject({
  url: z.string().meta({ description: 'The address the hit was sent to.' }),
  why: z.enum(THIRD_PARTY_BEACON_REASONS).meta({
    description:
      "catalog: a catalog service's tracking endpoint (GA4's /g/collect, Meta Pixel's /tr, Matomo's matomo.php, HubSpot's __ptq.gif); tracker-list: an image, beacon, XHR or fetch to a host the third-party-web list files under ad, analytics, social or marketing; sendBeacon: navigator.sendBeacon (or <a ping>) to another site; pixel: an image of 1×1 pixel, of no content or a GIF of at most 100 bytes whose address carries an identifier.",
  }),
});

const thirdParty = z
  .strictObject({
    host: z.string(),
    site: z.string().meta({ description: 'Its registrable domain.' }),
    services: z
      .array(z.strictObject({ id: z.int().min(1), name: z.string() }))
      .meta({ description: "The catalog services it is, by their signals' addresses (www.googletagmanager.com can be Google Tag Manager and Google Analytics 4), else the one service owning its domain; empty when the catalog does not know it." }),
    trackerList: z
      .strictObject({ name: z.string(), company: z.string(), category: z.string() })
      .nullable()
      .meta({ description: 'The entity of the third-party-web list that owns the host (category: ad, analytics, social, marketing, tag-manager, customer-success, video, content, cdn, hosting, utility, consent-provider, other), or null.' }),
    kinds: z.array(z.enum(REQUEST_KINDS)).meta({ description: 'What it was asked for (beacon: navigator.sendBeacon or <a ping>; frame: a frame document).' }),
    pages: z.array(z.string()).meta({ description: 'The pages (top documents) on which it was contacted, sorted.' }),
    initiators: z.array(z.string()).meta({ description: `The scripts (top of the initiator stack) or documents (a frame's, for what its HTML asks for) that caused the requests, sorted; at most ${MAX_INITIATORS_PER_HOST}.` }),
    beacons: z.array(thirdPartyBeacon).meta({ description: `The tracking beacons it received, once per address, at most ${MAX_BEACONS_PER_HOST}.` }),
    cookies: z.array(z.string()).meta({ description: 'Names of the cookies its answers set and of the third-party cookies the browser sends it, sorted.' }),
    phases: z.array(z.enum(SCAN_PHASES)).meta({ description: 'When it was contacted: before any consent, after accepting a banner the site runs.' }),
    recognised: z.enum(['catalog', 'tracker-list']).nullable().meta({ description: 'Who knows the host: the catalog, the third-party-web list, or nobody (null).' }),
  })
  .meta({ id: 'ThirdParty' });

export type ThirdParty = z.output<typeof thirdParty>;

const scanVerdict = z
  .strictObject({
    phase: z.enum(SCAN_PHASES),
    subject: z.enum(['cookie', 'localStorage', 'sessionStorage', 'beacon']),
    text: z.string().meta({ description: 'One line: what, set or sent by what, in which phase, and whose it is ("cookie `_fbp` set by connect.facebook.net/en_US/fbevents.js before consent (Meta Pixel)").' }),
  })
  .meta({ id: 'ScanVerdict' });
export type ScanVerdict = z.output<typeof scanVerdict>;

export const SCAN_VERDICTS_DESCRIPTION =
  'Extra (not in CCM19): the short verdict list a regulator reads, before-consent lines first: every cookie and Web Storage key of a catalog service whose purpose is not technically necessary, every third-party cookie nobody knows, and the tracking beacons (once per host and phase), each with what set or received it. A first-party name nobody knows is not judged (it may be the site\'s own session).';

const existingBanner = z
  .strictObject({
    cmp: z.string().meta({ description: "The rule of @duckduckgo/autoconsent that recognised it (`Complianz banner`, `Cybotcookiebot`, `Onetrust`…)." }),
    accepted: z.boolean(),
    error: z.string().optional().meta({ description: 'Why accepting it did not work, when it did not.' }),
  })
  .nullable()
  .meta({
    description:
      "Extra (not in CCM19): a consent banner of another tool that the site already runs, as the scan's second pass found it: the crawl reads the site as a first visitor gets it, then the scan accepts that banner (rules of @duckduckgo/autoconsent, no guessed clicks) and reads the start page and the first two pages again; what appears only then is labelled `after-accept`. null when no banner it knows showed on the start page (or SCAN_EXISTING_BANNER_WAIT_MS is 0).",
  });
export type ThirdPartyBeacon = z.output<typeof thirdPartyBeacon>;

export type AvailablePreset = z.output<typeof availablePreset>;

/** When and by what a cookie or key was first seen; scans kept from before these fields existed read as before consent, setter unknown. */
const seenFields = {
  phase: z.enum(SCAN_PHASES).default('before-consent').meta({
    description:
      'Read-only extra: the phase it was first seen in: `before-consent` (the site as a first visitor gets it, nothing accepted) or `after-accept` (after the scan accepted a consent banner the site already runs: `existingBanner`).',
  }),
  setBy: z.string().nullable().default(null).meta({
    description:
      'Read-only extra: what first set it, when the scan saw it: the address of the response whose Set-Cookie set it, or of the script that wrote it (an inline script shows as its page); null when unknown (IndexedDB, Cache Storage, or written where the scan could not watch).',
  }),
};

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
  ...seenFields,
});

const foundStorageKey = z.strictObject({
  name: z.string(),
  origin: z.string().meta({ description: 'Read-only extra: the origin (frame) the key belongs to.' }),
  ...seenFields,
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
  advice: z.array(scanAdvice).optional().meta({ description: `${SCAN_ADVICE_DESCRIPTION} ${RECORDED_SINCE}` }),
  thirdParties: z.array(thirdParty).optional().meta({ description: `${THIRD_PARTIES_DESCRIPTION} ${RECORDED_SINCE}` }),
  verdicts: z.array(scanVerdict).optional().meta({ description: `${SCAN_VERDICTS_DESCRIPTION} ${RECORDED_SINCE}` }),
  existingBanner: existingBanner.optional(),
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
agree<Same<z.output<typeof foundCookie>, ScannedCookie>>();
agree<Same<z.output<typeof foundStorageKey>, FoundStorageKey>>();
agree<Same<z.output<typeof visitedPage>, VisitedPage>>();
