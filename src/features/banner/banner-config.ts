/**
 * What the service hands the banner runtime for one domain: its published configuration, already
 * mapped to the vocabulary of vanilla-cookieconsent and iframemanager. The server builds it
 * (banner-config.build.ts), app.js carries it as JSON, the runtime (runtime/) reads it. Types only:
 * both sides import this file, so it holds nothing that needs Node or a DOM.
 *
 * Everything a visitor reads is ready to show: placeholders filled in, plain texts HTML-escaped,
 * HTML fields sanitised. The runtime never escapes or interprets texts itself.
 */

/** The banner's categories, keyed by name (what `data-category` on a blocked script names). */
export const CATEGORY_OF_PURPOSE = {
  '41ba25c': 'necessary',
  cdcbd7c: 'marketing',
  a717ff5: 'analytics',
  '7c19e32': 'personalisation',
  '6cd2721': 'social_media',
  '15c61c3': 'other',
} as const;
export type PurposeId = keyof typeof CATEGORY_OF_PURPOSE;
export type CategoryKey = (typeof CATEGORY_OF_PURPOSE)[PurposeId];

export type GoogleConsentType =
  | 'ad_storage'
  | 'analytics_storage'
  | 'functionality_storage'
  | 'personalization_storage'
  | 'security_storage';

/** A cookie or storage key of a service: an exact name, or a prefix for a `dynamic` name such as `_ga_*`. */
export type StoredName = { name: string; prefix: boolean };

export type BannerService = {
  /** The embedding's id: the service key in cookieconsent, `data-service` on blocked scripts and iframes. */
  id: string;
  /** What cookieconsent shows beside the switch, per locale name. */
  label: Record<string, string>;
  /** The embedding's name as entered, plain text (not escaped: never shown, only pushed to Tag Manager's dataLayer). */
  name?: string;
  /** Matched against CCM19's `data-ccm-loader-group` on `<script type="text/x-ccm-loader">`. Empty: none. */
  scriptLoaderGroup: string;
  /** HTML with scripts the runtime injects into the page after consent to this service (not sanitised: it is the operator's code). */
  scriptHtmlCode: string;
  /** Parts of script addresses (or inline script texts) that belong to this service: blocked until consent. */
  scriptMarkers: string[];
  /** Parts of iframe addresses that belong to this service: blocked until consent, shown as a placeholder. */
  iframeMarkers: string[];
  /** Whether a blocked iframe is hidden altogether instead of showing a placeholder. */
  hideIframesUntilConsent: boolean;
  /** Google Consent Mode types granted while this service is accepted. */
  googleConsentMode: GoogleConsentType[];
  /** Cookies removed when the visitor opts out (cookieconsent's auto-clear). */
  cookies: StoredName[];
  /** Web storage keys removed when the visitor opts out. */
  localStorage: StoredName[];
  sessionStorage: StoredName[];
  /** Texts of the placeholder shown for a blocked iframe, per locale name (already escaped). */
  /** `details`: the notice's link to the embedding's details in the settings (HTML; more-details.build.ts), absent without a label. */
  blockedContent: Record<string, { title: string; text: string; button: string; allowAlways: string; details?: string }>;
  /**
   * The pages the embedding is limited to (`excludeUrlsMode` `whitelist`: `only`) or kept off
   * (`excludeFromUrls` otherwise); absent: every page. See runtime/page-rules.ts.
   */
  pages?: { only: boolean; urls: string[] };
  /** Set in the browser, never by the server: the embedding is kept off the page the visitor is on. */
  offPage?: boolean;
  /** The embedding's `tcfVendor` (a Global Vendor List id) when the domain uses TCF: accepted iff that vendor is consented. */
  tcfVendor?: number;
};

export type BannerCategory = {
  key: CategoryKey;
  purpose: PurposeId;
  /** The necessary category: always on, cannot be switched off. */
  readOnly: boolean;
  services: BannerService[];
};

/** vanilla-cookieconsent's translation object (its Translation type), one per locale. */
export type CookieConsentTranslation = {
  consentModal: {
    title: string;
    description: string;
    acceptAllBtn?: string;
    acceptNecessaryBtn?: string;
    showPreferencesBtn?: string;
    closeIconLabel?: string;
    footer?: string;
  };
  preferencesModal: {
    title: string;
    acceptAllBtn?: string;
    acceptNecessaryBtn?: string;
    savePreferencesBtn: string;
    closeIconLabel: string;
    serviceCounterLabel?: string;
    sections: {
      title?: string;
      description?: string;
      linkedCategory?: string;
      cookieTable?: { caption?: string; headers: Record<string, string>; body: Record<string, string>[] };
    }[];
  };
};

export type BannerLocale = {
  translation: CookieConsentTranslation;
  /** The accessible name of the floating button that reopens the settings. */
  settingsButtonLabel: string;
  /** Texts of the cookie declaration (`<div class="ccm-cookie-declaration">`): sanitised HTML. */
  cookieDeclaration: string;
  /**
   * Texts of the placeholder for an iframe blocked by the domain's iframe rules alone (no
   * embedding claims it), already escaped. Optional: without it the runtime uses built-in
   * German or English texts. `always`: the label of the "always show external content" button
   * (`appendConsentSwitchToIframes`).
   */
  blockedIframe?: { text: string; button: string; always?: string };
  /** Labels of the settings' "check all" / "uncheck all" buttons (escaped), when the theme shows them. */
  checkAll?: { on: string; off: string };
  /** The accessible name (escaped) of the question-mark button beside each purpose in the settings that opens its details (`questionMarkButtonText`; runtime/details.ts). */
  questionMark?: string;
  /** The TCF layers' texts (runtime/tcf/layers.ts), escaped: present only when the domain has TCF (`BannerConfig.tcf`). */
  tcf?: BannerTcfTexts;
};

/**
 * The words of the TCF layers in one locale, escaped plain text (tcf-texts.build.ts). `{count}`,
 * `{purposes}` and `{days}` are filled in by the runtime; the names and descriptions of purposes,
 * stacks and features come from the vendor list's translation, not from here.
 */
export type BannerTcfTexts = Record<
  | 'vendorIntro' | 'purposes' | 'specialPurposes' | 'features' | 'specialFeatures' | 'optedIn' | 'partners' | 'nonCookieStorage'
  | 'specialFeaturesGlobal' | 'stacksIntro' | 'cookieRefresh' | 'storageDisclosure' | 'assetType' | 'assetPurposes'
  | 'firstLayer' | 'legitimateInterestNote' | 'withdrawNote' | 'showPartners' | 'partnerCount' | 'consent' | 'legitimateInterest'
  | 'legitimateInterestPurposes' | 'retention' | 'days' | 'dataCategories' | 'cookieDuration' | 'noCookies' | 'privacyPolicy'
  | 'legitimateInterestClaim' | 'examples',
  string
>;

/** Theme settings that add parts to the banner or guard it (theme-modes.build.ts, runtime/theme-modes.ts). */
export type ThemeModes = {
  /** `showPurposesInMainWindow`: the purposes with switches in the first layer, a Save button, the settings button as a link. */
  purposesInFirstLayer: boolean;
  /** `widgetSwitchType` `checkbox`: checkboxes instead of switches. */
  checkboxes: boolean;
  /** `settingsFooter`: the first layer's imprint and privacy links at the foot of the settings too. */
  settingsFooter: boolean;
  /** `settingsCheckAndUncheckAllButtons`. */
  checkAllButtons: boolean;
  /** `manipulationPrevention`: simulated clicks cannot consent; a banner removed or hidden before a choice comes back. */
  manipulationPrevention: boolean;
};

export type BannerConfig = {
  domainId: string;
  /** Hex hash of what is legally relevant (embeddings, purposes, vendors, assets, privacy links). */
  legalRevision: string;
  /** Hex hash of everything published: what the cache and the ETag follow, and what a consent record names as the revision shown. */
  contentRevision: string;
  /**
   * Where the banner POSTs the record of each choice (the service's `/consent`), as JSON in a
   * `text/plain` body: `{ domain, consentId, choice, categories, services, revision, locale, url }`
   * (src/features/consents/consent.contract.ts). Null: records are not sent.
   */
  consentRecordUrl: string | null;
  /**
   * Where the banner reports the addresses of scripts no embedding claims (`POST /script-report`,
   * src/features/script-findings/), when the domain records them (`recordScriptsOnWebsite`). Null: nothing is sent.
   */
  scriptReportUrl: string | null;
  /**
   * cookieconsent's `revision`: derived from `legalRevision` when the domain asks again on legal
   * changes (`consentResetOnLegalChange`), else 0 (a change never asks again).
   */
  revision: number;
  consent: {
    storage: 'cookie' | 'localStorage' | 'sessionStorage';
    /** Days a consent is kept (`consentCookieLifetime`). */
    lifetimeDays: number;
    /** The consent cookie gets `Secure` (only on https pages). */
    secure: boolean;
    /** Consents given before this instant (ISO 8601) are asked for again; null: none. */
    resetBefore: string | null;
    /** Name of the cookie or storage key holding the consent. */
    name: string;
  };
  /** The first layer always shows a decline button (`declineButtonEnforced` or the theme's buttons). */
  showDeclineButton: boolean;
  showAcceptButton: boolean;
  showSettingsButton: boolean;
  /** Active locale names; the first is the fallback. */
  locales: string[];
  /** The locale the snippet asked for (`lang`), when it named an active one. */
  fixedLocale: string | null;
  /** Per locale name. */
  texts: Record<string, BannerLocale>;
  /** Only categories with at least one active embedding; `necessary` first. */
  categories: BannerCategory[];
  layout: {
    consentModal: { layout: 'box' | 'bar' | 'box wide'; position: string };
    /** Block the page until the visitor chose (`widgetBlocking`). */
    blockPage: boolean;
    /** CSS injected after the libraries' own: the theme's colours as variables, then its `customCss`. */
    css: string;
    /** `data:` URL of the theme's logo, shown in the banner; null: none. */
    logo: string | null;
    /** Floating button that reopens the settings; null: none. `image` is a `data:` URL or null for the built-in icon. */
    settingsIcon: { image: string | null; opens: 'consent' | 'preferences' } | null;
  };
  iframes: {
    /** Block iframes at all (`blockIframes`). */
    block: boolean;
    /** `whitelist`: only iframes matching `markers` load freely; `blacklist`: iframes matching `markers` are blocked. */
    mode: 'whitelist' | 'blacklist';
    markers: string[];
    /** Placeholders also offer "always allow" (`appendConsentSwitchToIframes`); otherwise only loading the one iframe. */
    consentSwitch: boolean;
    /** Loading an iframe from its placeholder remembers its host: that host's iframes load from then on (`rememberIframeConsentPerDomain`). */
    rememberHosts: boolean;
  };
  /** Pages (addresses or site paths) that show no banner: the imprint and privacy policy pages whose `…ShowWidget` is off. */
  quietPages: string[];
  /**
   * The automatic script blocker (CCM19's developer settings). A script, a script-inserted
   * `<img>` or `<iframe>` is held when a service not accepted claims it by its markers; a
   * script no service claims is held by these rules.
   */
  scripts: {
    /** Scripts no service claims are held until the visitor accepts every service (`blockNewScripts`). */
    blockUnknown: boolean;
    /** …those from the page's own site too (`blockFirstPartyScripts`); otherwise they run. */
    blockFirstParty: boolean;
    /** …inline scripts too (`blockInlineScripts`); otherwise they run. */
    blockInline: boolean;
    /** Held inline scripts no service claims run once the visitor accepts every service (`evalInlineScripts`); otherwise only on the next page. */
    evalInline: boolean;
    /** Scripts whose address or text contains one of these always run (`allowedScriptMarkers`). */
    allowedMarkers: string[];
    /** Scripts whose address or text contains one of these never run, whatever the visitor chose (`blockedScriptMarkers`). */
    blockedMarkers: string[];
  };
  /**
   * Google Consent Mode defaults are set (all denied) before any tag runs when true: when an
   * embedding names Consent Mode types or a service loads Google's tags.
   */
  googleConsentMode: boolean;
  /** The domain removes cookies no embedding declares (`deleteUnknownCookies`). */
  deleteUnknownCookies: boolean;
  /** The page reloads after a choice of the visitor's that removed such cookies (`deleteUnknownCookiesForceReload`; runtime/unknown-cookies-reload.ts). */
  reloadAfterDeletingCookies?: boolean;
  /**
   * Consent sharing (runtime/consent-sharing.ts): the domains whose subdomains share the consent
   * cookie (`consentSharingDomains`, hosts in lower case), and whether the consent is also handed
   * over between them (`consentSharingCrossDomain`). No domains: nothing is shared.
   */
  sharing: { domains: string[]; crossDomain: boolean };
  /**
   * A browser sending Do Not Track or Global Privacy Control gets "necessary only" without a
   * banner (the theme's `complyWithDoNotTrack`; runtime/privacy-signals.ts).
   */
  privacySignals?: boolean;
  /**
   * The theme's `enableOnlyInEu`: where the bootstrap asks whether this visitor is in the region
   * the banner asks in (region/visitor-region.ts). Outside it, without a choice of their own and
   * without a privacy signal, the visitor gets every service and no banner. Absent or null: every
   * visitor is asked.
   */
  regionUrl?: string | null;
  /** Absent: none of the modes, the settings footer shown. */
  themeModes?: ThemeModes;
  /** IAB TCF 2.2 (runtime/tcf/): present only when the domain has `tcfEnabled` (and its client `canUseIAB`) and a Global Vendor List is imported. */
  tcf?: TcfSettings;
  /** US state privacy laws through GPP (runtime/gpp/): present only when the domain's US visitors get the opt-out model. */
  gpp?: GppSettings;
};

/**
 * What app.js carries of TCF: small, whatever the number of vendors. The vendors' details (names,
 * purposes, retention, URLs) and the list's texts come from `vendorListUrl` when they are needed.
 */
export type TcfSettings = {
  /** The CMP's IAB-registered id and version (the service's TCF_CMP_ID / TCF_CMP_VERSION). */
  cmpId: number;
  cmpVersion: number;
  /** The Global Vendor List version the domain's vendors and texts come from, and its TCF policy version. */
  vendorListVersion: number;
  policyVersion: number;
  /** The TCF bundle (`/banner/tcf-<hash>.js`), loaded by app.js only for domains with TCF. */
  chunkUrl: string;
  /**
   * The domain's vendor list: the GVL's format v3 (`TcfVendorList`), only the domain's vendors,
   * with the list's translations for the domain's locales. Immutable: its address changes with its content.
   */
  vendorListUrl: string;
  /** The vendors the banner asks for, ascending: the GVL's valid vendors minus `tcfVendorBlacklist` (and, without `tcfEnableNewVendorsAfterGvlUpdate`, minus those new since the domain's TCF began), plus the embeddings' `tcfVendor`. */
  vendorIds: number[];
  /** The special features the banner asks for (`tcfSpecialFeatures`). */
  specialFeatures: number[];
  /** The TC string's `publisherCC` (ISO 3166-1 alpha-2, upper case). */
  publisherCountryCode: string;
  /** Google's Additional Consent (`tcfGoogleAdditionalConsentMode`): the ATP provider ids asked for; null: off. */
  additionalConsentProviders: number[] | null;
  /** `tcfUrlMacroHandling`: `${gdpr}` / `${gdpr_consent}` (and `${addtl_consent}`) in addresses of the page are filled in; `tcfUrlMacroAutoAppend`: …and appended to the addresses of held content that has none. */
  urlMacros: { fill: boolean; autoAppend: boolean };
};

/** One stack, purpose or feature of the Global Vendor List, as the list (or its translation) words it. */
export type TcfListEntry = { id: number; name: string; description: string; illustrations?: string[]; purposes?: number[]; specialFeatures?: number[] };

/** A vendor of the Global Vendor List (format v3), the fields the banner uses. */
export type TcfVendor = {
  id: number;
  name: string;
  purposes: number[];
  legIntPurposes: number[];
  flexiblePurposes: number[];
  specialPurposes: number[];
  features: number[];
  specialFeatures: number[];
  cookieMaxAgeSeconds?: number | null;
  usesCookies?: boolean;
  cookieRefresh?: boolean;
  usesNonCookieAccess?: boolean;
  deviceStorageDisclosureUrl?: string | null;
  urls?: { langId: string; privacy: string; legIntClaim?: string }[];
  dataRetention?: { stdRetention?: number; purposes?: Record<string, number>; specialPurposes?: Record<string, number> };
  dataDeclaration?: number[];
};

type TcfTexts = {
  purposes: Record<string, TcfListEntry>;
  specialPurposes: Record<string, TcfListEntry>;
  features: Record<string, TcfListEntry>;
  specialFeatures: Record<string, TcfListEntry>;
  stacks: Record<string, TcfListEntry>;
  dataCategories: Record<string, TcfListEntry>;
};

/**
 * The answer at `TcfSettings.vendorListUrl`: a Global Vendor List (format v3, what
 * `@iabtechlabtcf/core`'s GVL takes) holding only the domain's vendors, plus `translations`: the
 * list's texts per locale of the domain (the English list where no translation was imported).
 */
export type TcfVendorList = TcfTexts & {
  gvlSpecificationVersion: 3;
  vendorListVersion: number;
  tcfPolicyVersion: number;
  lastUpdated: string;
  vendors: Record<string, TcfVendor>;
  translations: Record<string, TcfTexts>;
};

/** What app.js carries of GPP (the US National section, usnat). */
export type GppSettings = {
  /** The GPP bundle (`/banner/gpp-<hash>.js`), loaded by app.js only for domains that use GPP. */
  chunkUrl: string;
  /** The CMP id GPP names (the same as TCF's: TCF_CMP_ID). */
  cmpId: number;
  /** Where the visitor's region is asked (`/banner/region`): GPP's section applies only to visitors in the US. */
  regionUrl: string;
};
