import { z } from 'zod';
import {
  createSchema,
  defaultsOf,
  fieldList,
  generatedId,
  responseSchema,
  updateSchema,
} from '../../kernel/contract/field-list.ts';
import { list, localeName, MAX_INT32, readOnly, text, uniqueList } from '../../kernel/contract/fields.ts';
import { parseSiteAddress } from '../../kernel/contract/site-address.ts';

/** Domain: one website of a client (management, beyond the seed). */

const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

const CONSENT_STORAGES = ['cookie', 'localStorage', 'sessionStorage'] as const;
export const MANAGEMENT_STRUCTURES = ['cookie', 'embedding'] as const;
export const IFRAME_BLOCK_MODES = ['blacklist', 'whitelist'] as const;
export const DISPLAY_MODES = ['direct', 'link'] as const;

/** An on/off setting with its default, said in its description. */
const setting = (description: string, byDefault: boolean) =>
  ({ write: z.boolean().meta({ description: `${description} Default ${byDefault}.` }), default: byDefault }) as const;

/** One of a closed set of values, with its default. */
const choice = <const T extends readonly [string, ...string[]]>(values: T, description: string, byDefault: T[number]) =>
  ({ write: z.enum(values).meta({ description: `${description} Default \`${byDefault}\`.` }), default: byDefault }) as const;

/** A list of short texts (host names, script markers), empty by default. */
const textList = (description: string) =>
  ({
    write: list(text().min(1, 'must not be empty').max(2048, 'must be at most 2048 characters')).meta({
      description: `${description} At most 1000 items. Default empty.`,
    }),
    default: [],
  }) as const;

/** A list of distinct ids, empty by default. */
const idList = (description: string, max = MAX_INT32) =>
  ({
    write: uniqueList(z.int('must be an integer').min(1, 'must be at least 1').max(max, `must be at most ${max}`)).meta({
      description: `${description} Each at most once, at most 1000. Default empty.`,
    }),
    default: [],
  }) as const;

/** A calendar date, `YYYY-MM-DD`. */
const calendarDate = z.iso.date('must be a date YYYY-MM-DD');

const siteName = text()
  .max(2048)
  .superRefine((value, ctx) => {
    const parsed = parseSiteAddress(value);
    if ('problem' in parsed) ctx.addIssue({ code: 'custom', message: parsed.problem });
  });

const country = z
  .string()
  .refine((code) => /^[A-Z]{2}$/.test(code) && regionNames.of(code) !== undefined, {
    message: 'must be an ISO 3166-1 alpha-2 country code (ZZ for unknown)',
  })
  // What the refinement checks first, for the JSON schema (zod cannot see into a refinement).
  .meta({ pattern: '^[A-Z]{2}$' })
  .nullable();

/** The domain's address is stored in parts: `name` is its host, `url` all of it. */
export const domainFields = fieldList({
  id: generatedId(),
  name: {
    write: siteName.meta({
      description:
        'A host name, optionally with scheme, port and path (`www.example.org`, `https://www.example.org/shop/`, `http://127.0.0.1:8080/`). ' +
        'On update a full address (with scheme) replaces scheme, port and path; a bare host changes only the host.',
    }),
    read: z.string().meta({ description: 'The bare host name, e.g. `www.example.org`.' }),
    required: true,
    stored: 'host',
  },
  path: {
    write: readOnly().meta({ readOnly: true, description: 'Read-only: ignored in writes.' }),
    read: z.string().regex(/^\//).meta({ description: 'The path of the site on its host (default `/`).' }),
    readOnly: true,
  },
  url: {
    write: readOnly().meta({ readOnly: true, description: 'Read-only: ignored in writes.' }),
    read: z.url({ protocol: /^https?$/ }).meta({ description: 'The whole site address a scan opens: scheme, host, port and path.' }),
    readOnly: true,
  },
  country: {
    write: country.meta({ description: 'ISO 3166-1 alpha-2 (`ZZ` for unknown), or null. Default null.' }),
    default: null,
  },
  locales: {
    write: uniqueList(localeName)
      .min(1, 'must name at least one locale')
      .meta({ description: 'The active locale names, each at most once. Default `["de_DE", "en_US"]`.' }),
    default: ['de_DE', 'en_US'],
  },
  consentStorage: {
    write: z.enum(CONSENT_STORAGES).meta({ description: 'Where the consent is kept. Default `localStorage`.' }),
    default: 'localStorage',
  },
  whitelabel: setting("Whether the banner shows no CCM19 branding; counts against the client's `whitelabelMaxCount`.", false),
  consentCookieLifetime: {
    write: z
      .int('must be an integer')
      .min(1, 'must be at least 1 day')
      .max(3650, 'must be at most 3650 days')
      .meta({ description: 'How many days a consent is kept before the banner asks again (1 to 3650). Default 365: a year, as data-protection authorities advise.' }),
    default: 365,
  },
  consentCookieSecure: setting('Whether the consent cookie is set with the Secure attribute (HTTPS only).', true),
  consentResetBeforeDate: {
    write: calendarDate
      .nullable()
      .meta({ description: 'Consents given before this date (`YYYY-MM-DD`) are asked for again; null: none. Default null.' }),
    default: null,
  },
  consentResetOnLegalChange: setting('Whether a change of the imprint or privacy policy asks every visitor again.', false),
  consentSharingDomains: textList('The other domains this one shares its consent with.'),
  consentSharingCrossDomain: setting('Whether the consent is shared across those domains (not only their subdomains).', false),
  frontendWidgetEnabled: setting('Whether the banner is shown on the site at all.', true),
  frontendWidgetCache: setting("Whether the banner's script may be cached by browsers and proxies.", true),
  frontendWidgetMinifyCode: setting("Whether the banner's script is sent minified.", true),
  managementStructure: choice(MANAGEMENT_STRUCTURES, 'How consent is organised: per embedding, or per cookie (outdated in CCM19).', 'embedding'),
  deleteUnknownCookies: setting('Whether cookies no embedding declares are deleted.', false),
  deleteUnknownCookiesForceReload: setting('Whether the page reloads after unknown cookies were deleted.', false),
  requireConsentForMandatoryEmbeddings: setting('Whether even technically necessary embeddings wait for a consent.', false),
  declineButtonEnforced: setting('Whether the banner always shows a decline button on its first layer, as EU authorities expect.', true),
  allowedScriptMarkers: textList('Markers of scripts that always run.'),
  blockedScriptMarkers: textList('Markers of scripts that run only after consent.'),
  evalInlineScripts: setting('Whether inline scripts are evaluated after consent.', false),
  recordScriptsOnWebsite: setting('Whether the banner reports the scripts it finds on the site, to be assigned to embeddings.', true),
  blockNewScripts: setting('Whether scripts not yet assigned to an embedding are blocked until consent.', true),
  blockFirstPartyScripts: setting("Whether scripts from the site's own host are blocked too.", false),
  blockInlineScripts: setting('Whether inline scripts are blocked until consent.', false),
  permanentScanEnabled: setting('Whether the site is scanned for new cookies and scripts regularly.', false),
  tcfEnabled: setting('Whether the banner speaks IAB TCF 2.2.', false),
  tcfEnableNewVendorsAfterGvlUpdate: setting('Whether vendors new in the Global Vendor List are enabled by themselves.', false),
  tcfVendorBlacklist: idList('TCF vendor ids (Global Vendor List) never enabled.'),
  tcfSpecialFeatures: idList('TCF special feature ids used (1 precise geolocation, 2 device scanning).', 2),
  tcfGoogleAdditionalConsentMode: setting("Whether Google's Additional Consent mode is on.", false),
  tcfGoogleAdditionalConsentAdProviders: idList('Google ATP ad provider ids asked for under Additional Consent.'),
  tcfUrlMacroAutoAppend: setting('Whether TCF URL macros are appended to links by themselves.', false),
  tcfUrlMacroHandling: setting('Whether TCF URL macros (`${gdpr}`, `${gdpr_consent}`) in URLs are filled in.', false),
  blockIframes: setting('Whether iframes are blocked until consent.', true),
  rememberIframeConsentPerDomain: setting("Whether an iframe's consent is remembered per embedded host.", false),
  appendConsentSwitchToIframes: setting('Whether a blocked iframe shows a switch to allow it.', false),
  iframeBlockMode: choice(IFRAME_BLOCK_MODES, 'Whether `iframeMarkers` lists the iframes to block (`blacklist`) or those allowed (`whitelist`).', 'whitelist'),
  iframeMarkers: textList('Markers (host names, URL parts) of iframes for `iframeBlockMode`.'),
  cookieDeclarationTableHeadingStartLevel: {
    write: z
      .int('must be an integer')
      .min(2, 'must be 2, 3, 4 or 5')
      .max(5, 'must be 2, 3, 4 or 5')
      .meta({ description: 'The HTML heading level (2 to 5) the cookie declaration table starts at. Default 3.' }),
    default: 3,
  },
  cookieDeclarationTablePrependConsentChangeLink: setting('Whether the cookie declaration starts with a link to change the consent.', true),
  cookieDeclarationTablePrependIntroText: setting('Whether the cookie declaration starts with its intro text.', true),
  imprintDisplayMode: choice(DISPLAY_MODES, 'Whether the banner shows the imprint itself (`direct`) or links to it.', 'link'),
  imprintOpenInNewTab: setting('Whether the imprint link opens a new tab.', false),
  imprintShowWidget: setting('Whether the banner is shown on the imprint page (off: the page stays readable).', false),
  privacyPolicyDisplayMode: choice(DISPLAY_MODES, 'Whether the banner shows the privacy policy itself (`direct`) or links to it.', 'link'),
  privacyPolicyOpenInNewTab: setting('Whether the privacy policy link opens a new tab.', false),
  privacyPolicyShowWidget: setting('Whether the banner is shown on the privacy policy page (off: the page stays readable).', false),
  accessibilityDisplayMode: choice(
    DISPLAY_MODES,
    'Whether the banner shows the accessibility statement itself (`direct`) or links to it; CCM19 documents no default, `link` as for the imprint.',
    'link',
  ),
  accessibilityLinkEnabled: setting('Whether the banner links to the accessibility statement.', false),
});

export const domainCreate = createSchema(domainFields).meta({ id: 'DomainCreate' });
export const domainUpdate = updateSchema(domainFields).meta({ id: 'DomainUpdate' });
/** A domain as the service sends it: the bare host in `name`, its path and whole address beside it. */
export const domainResponse = responseSchema(domainFields).meta({ id: 'Domain' });

export const domainDefaults = defaultsOf(domainFields);

export type DomainCreate = z.infer<typeof domainCreate>;
export type DomainUpdate = z.infer<typeof domainUpdate>;
export type Domain = z.output<typeof domainResponse>;
