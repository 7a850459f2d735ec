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
import { managementStructureField } from './management-structure.ts';

/** Domain: one website of a client (management, beyond the seed). */

const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

const CONSENT_STORAGES = ['cookie', 'localStorage', 'sessionStorage'] as const;
export const MANAGEMENT_STRUCTURES = ['cookie', 'embedding'] as const;
export const IFRAME_BLOCK_MODES = ['blacklist', 'whitelist'] as const;
export const DISPLAY_MODES = ['direct', 'link'] as const;
export const US_PRIVACY_MODELS = ['opt-in', 'opt-out'] as const;

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
    write: country.meta({
      description:
        "Where the site and its operator are: ISO 3166-1 alpha-2 (`ZZ` for unknown), or null (CCM19: the account's profile country, which this service does not keep: unset). " +
        'Information for the operator; the banner does not change by it, except that with TCF it is the TC string\'s publisher country (`publisherCC`; unset or `ZZ`: `DE`). The banner check reads it (`bannerWarnings`, kind `country`): a site in the EU, EEA, UK or Switzerland whose theme asks only visitors from there (`enableOnlyInEu`), and active locales none of which is in the country\'s most spoken language. Default null.',
    }),
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
  consentSharingDomains: textList(
    'Domains (e.g. `example.com`) whose sites carry this snippet and share one consent. On a page of a listed domain or a subdomain of one, a consent kept in a cookie is set for that domain, so all its subdomains read it; a consent in localStorage is handed over along links, forms, `CCM.navigate()` and to framed pages of its other hosts. Iframes of listed domains are not held by the iframe rules (their own banner guards them). A handed-over consent is taken only from a page of a listed domain (the referrer or the parent frame), for this banner, and at most 10 minutes old.',
  ),
  consentSharingCrossDomain: setting(
    'Whether the consent is also handed over between different listed domains (a link from `example.com` to `example.net`), in the address fragment `#ccm19=…`, which is never sent to a server and is removed from the address bar on arrival. Off: only the subdomains of each listed domain share.',
    false,
  ),
  frontendWidgetEnabled: setting('Whether the banner is shown on the site at all.', true),
  frontendWidgetCache: setting("Whether the banner's script may be cached by browsers and proxies.", true),
  frontendWidgetMinifyCode: setting(
    "Whether app.js is sent minified (CCM19: turn off only to debug). Off: its code unminified and the configuration indented, served and cached like the minified one; the runtime it loads, shared by every domain, stays minified.",
    true,
  ),
  managementStructure: managementStructureField(MANAGEMENT_STRUCTURES),
  deleteUnknownCookies: setting('Whether cookies no embedding declares are deleted.', false),
  deleteUnknownCookiesForceReload: setting("With `deleteUnknownCookies`: after a visitor's choice removed a cookie no embedding declares, the page is loaded again, so no script that ran before the choice keeps going. CCM19 leaves loops open; to protect the visitor, only a choice the visitor made by hand on the page reloads it (never one made for them on load, such as a Do Not Track signal), and where the browser cannot tell, a page reloaded this way is not reloaded again within a minute.", false),
  requireConsentForMandatoryEmbeddings: setting('Whether even technically necessary embeddings wait for a consent.', false),
  declineButtonEnforced: setting('Whether the banner always shows a decline button on its first layer, as EU authorities expect.', true),
  allowedScriptMarkers: textList('Markers of scripts that always run.'),
  blockedScriptMarkers: textList('Markers of scripts that run only after consent.'),
  evalInlineScripts: setting('Whether inline scripts are evaluated after consent.', false),
  recordScriptsOnWebsite: setting(
    'Whether the banner reports the scripts it finds on the site that no embedding knows (address without query, page path), to be assigned to embeddings: the domain\'s `scriptFindings` (REST `…/script-findings`). Off: the banner sends nothing and reports are refused.',
    true,
  ),
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
  rememberIframeConsentPerDomain: setting(
    "Whether loading an iframe from its placeholder is remembered for the iframe's host (as CCM19: once one YouTube video is loaded, every YouTube iframe loads, on every page). Off: the click loads that one iframe on that page; only a consent to the embedding (the banner, or the placeholder's \"always allow\") is remembered. Remembered hosts are kept beside the consent (`ccm_consent_iframes`) and lapse with it (its lifetime, `consentResetBeforeDate`, a new legal revision); they never load an embedding kept off the page by `excludeFromUrls`. A rejection withdraws them: \"reject all\" (or any choice of only what is necessary, a privacy signal's included) forgets every remembered host; switching one embedding off that was on forgets the hosts whose iframes belong to that embedding, and keeps the others (hosts of other embeddings, and hosts no embedding claims).",
    false,
  ),
  appendConsentSwitchToIframes: setting(
    "Whether an iframe's placeholder also offers to allow always: an embedding's iframe \"always allow\" (`blockedContentConsentSwitchAllowEmbedding`; accepts the embedding as the banner would), an iframe no embedding claims \"always show external content\" (`blockedContentConsentSwitchShowExternalContent`; remembers its host). Off: the placeholder only loads the one iframe.",
    false,
  ),
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
  imprintShowWidget: setting(
    "Whether the banner is shown on the imprint page. Off (CCM19's default): the page at the locales' `imprintUrl` (placeholders filled in, e.g. `{Firma_Impressum}` from the onboarding's legal findings; compared without query, fragment and trailing slash) shows no banner and no settings button, so it can be read first; nothing waiting for a consent runs there without one, and a consent given on another page still applies.",
    false,
  ),
  privacyPolicyDisplayMode: choice(DISPLAY_MODES, 'Whether the banner shows the privacy policy itself (`direct`) or links to it.', 'link'),
  privacyPolicyOpenInNewTab: setting('Whether the privacy policy link opens a new tab.', false),
  privacyPolicyShowWidget: setting(
    'Whether the banner is shown on the privacy policy page; off (the default): as `imprintShowWidget`, for the locales\' `privacyPolicyUrl` (e.g. `{Firma_Datenschutz}`).',
    false,
  ),
  accessibilityDisplayMode: choice(
    DISPLAY_MODES,
    'Whether the banner shows the accessibility statement itself (`direct`) or links to it; CCM19 documents no default, `link` as for the imprint.',
    'link',
  ),
  accessibilityLinkEnabled: setting('Whether the banner links to the accessibility statement.', false),
  usPrivacyModel: choice(
    US_PRIVACY_MODELS,
    'Extra (not in CCM19; a CCM19 client may leave it out): how visitors in the United States are treated. `opt-in`: asked like everyone else (the theme decides, as for any visitor). ' +
      '`opt-out`: a visitor the region answer places in the US gets no banner; every embedding runs except those of the `marketing`, `personalisation` and `social_media` purposes once the visitor opts out ' +
      '("Do Not Sell or Share My Personal Information": `CCM.openDoNotSell()` or a link to `#ccm-do-not-sell`) or the browser sends Global Privacy Control; the page answers IAB GPP (`__gpp`) with the US National section (usnat). ' +
      'Visitors elsewhere get the banner as the theme says (`enableOnlyInEu`). The default asks US visitors too, which protects them and changes nothing for existing domains.',
    'opt-in',
  ),
});

export const domainCreate = createSchema(domainFields).meta({
  id: 'DomainCreate',
  examples: [{ name: 'https://www.example.org/', country: 'DE', locales: ['de_DE', 'en_US'] }],
});
export const domainUpdate = updateSchema(domainFields).meta({ id: 'DomainUpdate', examples: [{ consentCookieLifetime: 180, declineButtonEnforced: true }] });
/** A domain as the service sends it: the bare host in `name`, its path and whole address beside it. */
export const domainResponse = responseSchema(domainFields).meta({ id: 'Domain' });

export const domainDefaults = defaultsOf(domainFields);

export type DomainCreate = z.infer<typeof domainCreate>;
export type DomainUpdate = z.infer<typeof domainUpdate>;
export type Domain = z.output<typeof domainResponse>;
