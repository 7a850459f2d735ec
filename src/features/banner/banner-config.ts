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
  blockedContent: Record<string, { title: string; text: string; button: string; allowAlways: string }>;
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
   * German or English texts.
   */
  blockedIframe?: { text: string; button: string };
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
  };
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
};
