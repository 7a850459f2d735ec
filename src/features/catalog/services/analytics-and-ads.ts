import type { Preset, PresetCookie } from '../preset.ts';

/**
 * Built-in presets for analytics, tag management, A/B testing, session recording, advertising,
 * affiliate and marketing-automation services. Id range 1–199 (see README.md); ids are stable.
 */

type CookieFacts = {
  name: string;
  /** Defaults to "cookie". */
  storageType?: PresetCookie['storageType'];
  lifetime: string;
  en: string;
  de: string;
  /** Presets that set the same name without listing it (see PresetCookie). */
  alsoSetBy?: number[];
};

/** A cookie or storage key; a `*` in the name makes it a wildcard pattern. */
const cookie = ({ name, storageType = 'cookie', lifetime, en, de, alsoSetBy }: CookieFacts): PresetCookie => ({
  name,
  wildcard: name.includes('*'),
  storageType,
  lifetime,
  description: { de_DE: de, en_US: en },
  ...(alsoSetBy ? { alsoSetBy } : {}),
});

/** Google Analytics 4, whose gtag.js sets some of Universal Analytics' cookies too. */
const GA4_ID = 1;
/** Google Tag Manager (its preset below), whose conversion linker tag sets Google Ads' `_gcl_*` cookies. */
const GTM_ID = 3;
/** YouTube (embeds-and-widgets.ts), whose embedded player sets DoubleClick's `IDE`. */
const YOUTUBE_ID = 200;

/**
 * Who else sets Google's conversion-linker cookies (`_gcl_au`, and `_gcl_aw`, `_gcl_gs`, `_gcl_gb`,
 * `_gcl_dc` after an ad click): Google Tag Manager's conversion linker tag (Tag Manager Help, "About
 * the conversion linker tag", support.google.com/tagmanager/answer/7549390) and the Google tag
 * gtag.js of Google Analytics 4 (Analytics Help, "Use Google Analytics to support Google Ads
 * conversions", support.google.com/analytics/answer/7519794). On a site that shows either, these
 * cookies are theirs and no evidence of Google Ads or the Marketing Platform.
 */
const CONVERSION_LINKERS = [GTM_ID, GA4_ID];

const GOOGLE = 'Google Ireland Limited';
const GOOGLE_PRIVACY = 'https://policies.google.com/privacy';
const MICROSOFT = 'Microsoft Ireland Operations Limited';
const MICROSOFT_PRIVACY = 'https://privacy.microsoft.com/privacystatement';

export const analyticsAndAds: Preset[] = [
  // ── Web analytics ────────────────────────────────────────────────────────────────────────────
  {
    id: GA4_ID,
    name: 'Google Analytics 4',
    vendor: GOOGLE,
    purpose: 'a717ff5',
    category: 'analytics',
    privacyPolicyUrl: GOOGLE_PRIVACY,
    translations: {
      de_DE: {
        name: 'Google Analytics 4',
        description:
          'Webanalyse von Google: erfasst Seitenaufrufe, Ereignisse und Besuchsquellen und wertet sie in Berichten zur Nutzung der Website aus.',
      },
      en_US: {
        name: 'Google Analytics 4',
        description:
          "Google's web analytics: records page views, events and traffic sources and turns them into reports on how the website is used.",
      },
    },
    cookies: [
      cookie({
        name: '_ga',
        lifetime: '2 years',
        en: 'Holds a random client ID so that repeat visits from the same browser can be told apart from new ones.',
        de: 'Enthält eine zufällige Client-ID, damit wiederholte Besuche desselben Browsers von neuen unterschieden werden können.',
      }),
      cookie({
        name: '_ga_*',
        lifetime: '2 years',
        en: 'One per measurement property; keeps the state of the current session (number, start time, engagement).',
        de: 'Je Analytics-Property eines; hält den Stand der laufenden Sitzung fest (Nummer, Beginn, Interaktion).',
      }),
    ],
    googleConsentMode: ['analytics_storage'],
    // gtag.js sends its hits to /g/collect on google-analytics.com (region1.…) or analytics.google.com.
    signals: { scripts: ['googletagmanager.com/gtag/js'], iframes: [], beacons: ['google-analytics.com/g/collect', 'analytics.google.com/g/collect'] },
  },
  {
    id: 2,
    name: 'Google Analytics (Universal Analytics)',
    vendor: GOOGLE,
    purpose: 'a717ff5',
    category: 'analytics',
    privacyPolicyUrl: GOOGLE_PRIVACY,
    translations: {
      de_DE: {
        name: 'Google Analytics (Universal Analytics)',
        description:
          'Ältere Google-Analytics-Versionen (analytics.js und ga.js). Google hat die Datenverarbeitung eingestellt, die Skripte und Cookies finden sich aber noch auf vielen Websites.',
      },
      en_US: {
        name: 'Google Analytics (Universal Analytics)',
        description:
          'Older Google Analytics versions (analytics.js and ga.js). Google has stopped processing their data, but the scripts and cookies are still found on many websites.',
      },
    },
    cookies: [
      cookie({
        name: '_ga',
        lifetime: '2 years',
        en: 'Random client ID used to recognise the browser across visits.',
        de: 'Zufällige Client-ID, an der der Browser über mehrere Besuche hinweg wiedererkannt wird.',
      }),
      cookie({
        name: '_gid',
        lifetime: '1 day',
        en: 'Short-lived ID that groups the page views of one browser within a day.',
        de: 'Kurzlebige ID, die die Seitenaufrufe eines Browsers innerhalb eines Tages zusammenfasst.',
        // gtag.js sets it on many GA4 sites as well: there it says nothing about Universal Analytics.
        alsoSetBy: [GA4_ID],
      }),
      cookie({
        name: '_gat',
        lifetime: '1 minute',
        en: 'Limits how often requests are sent to Google; holds no identifier.',
        de: 'Begrenzt, wie oft Anfragen an Google gesendet werden; enthält keine Kennung.',
      }),
      cookie({
        name: '_gat_*',
        lifetime: '1 minute',
        en: 'Request throttling as with _gat, named after the tracker or property.',
        de: 'Drosselt Anfragen wie _gat, benannt nach Tracker bzw. Property.',
      }),
      cookie({
        name: '_dc_gtm_*',
        lifetime: '1 minute',
        en: 'Request throttling when Universal Analytics runs through Google Tag Manager.',
        de: 'Drosselt Anfragen, wenn Universal Analytics über den Google Tag Manager läuft.',
      }),
      cookie({
        name: '_gac_*',
        lifetime: '90 days',
        en: 'Keeps campaign and ad-click information when Analytics is linked with Google Ads.',
        de: 'Speichert Kampagnen- und Anzeigenklick-Daten, wenn Analytics mit Google Ads verknüpft ist.',
      }),
      cookie({
        name: '__utma',
        lifetime: '2 years',
        en: 'Classic ga.js: visitor ID and timestamps of the first, previous and current visit.',
        de: 'Klassisches ga.js: Besucher-ID sowie Zeitpunkte des ersten, letzten und aktuellen Besuchs.',
      }),
      cookie({
        name: '__utmb',
        lifetime: '30 minutes',
        en: 'Classic ga.js: marks the start of a new visit.',
        de: 'Klassisches ga.js: markiert den Beginn eines neuen Besuchs.',
      }),
      cookie({
        name: '__utmc',
        lifetime: 'session',
        en: 'Classic ga.js: helps decide whether the browser session is a new one.',
        de: 'Klassisches ga.js: hilft zu erkennen, ob eine neue Browsersitzung begonnen hat.',
      }),
      cookie({
        name: '__utmt',
        lifetime: '10 minutes',
        en: 'Classic ga.js: throttles the request rate.',
        de: 'Klassisches ga.js: drosselt die Zahl der Anfragen.',
      }),
      cookie({
        name: '__utmz',
        lifetime: '6 months',
        en: 'Classic ga.js: remembers how the visitor reached the site (referrer, search, campaign).',
        de: 'Klassisches ga.js: merkt sich, wie der Besucher auf die Website kam (Verweis, Suche, Kampagne).',
      }),
    ],
    googleConsentMode: ['analytics_storage'],
    signals: {
      scripts: ['google-analytics.com/analytics.js', 'google-analytics.com/ga.js'],
      iframes: [],
      beacons: ['google-analytics.com/collect', 'google-analytics.com/j/collect', 'google-analytics.com/r/collect', 'google-analytics.com/__utm.gif'],
    },
  },
  {
    id: GTM_ID,
    name: 'Google Tag Manager',
    vendor: GOOGLE,
    // Not technically necessary: it exists to load and fire the site's measurement and marketing tags.
    purpose: 'a717ff5',
    category: 'tag-manager',
    privacyPolicyUrl: GOOGLE_PRIVACY,
    translations: {
      de_DE: {
        name: 'Google Tag Manager',
        description:
          'Tag-Verwaltung von Google: lädt die Tags, die die Website darin eingerichtet hat (etwa Webanalyse, Conversion-Messung und Werbung), und löst sie aus. Beim Laden übermittelt der Browser die IP-Adresse des Besuchers und Angaben zum Browser an Google. Wird erst nach Einwilligung ausgeführt.',
      },
      en_US: {
        name: 'Google Tag Manager',
        description:
          "Google's tag management: loads the tags the website has set up in it (such as web analytics, conversion measurement and advertising) and fires them. Loading it sends the visitor's IP address and browser details to Google. It runs only after consent.",
      },
    },
    cookies: [],
    signals: {
      scripts: ['googletagmanager.com/gtm.js'],
      iframes: ['googletagmanager.com/ns.html'],
    },
  },
  {
    id: 4,
    name: 'Matomo',
    vendor: 'InnoCraft Ltd',
    purpose: 'a717ff5',
    category: 'analytics',
    privacyPolicyUrl: 'https://matomo.org/privacy-policy/',
    translations: {
      de_DE: {
        name: 'Matomo',
        description:
          'Open-Source-Webanalyse, die selbst gehostet oder als Matomo Cloud genutzt wird. Erfasst Besuche, Seitenaufrufe und Herkunft der Besucher.',
      },
      en_US: {
        name: 'Matomo',
        description:
          'Open-source web analytics, either self-hosted or used as Matomo Cloud. Records visits, page views and where visitors come from.',
      },
    },
    cookies: [
      cookie({
        name: '_pk_id.*',
        lifetime: '13 months',
        en: 'Visitor ID and a few visit counters for this site.',
        de: 'Besucher-ID und einige Besuchszähler für diese Website.',
      }),
      cookie({
        name: '_pk_ses.*',
        lifetime: '30 minutes',
        en: 'Marks an ongoing visit so that page views are grouped into one session.',
        de: 'Kennzeichnet einen laufenden Besuch, damit Seitenaufrufe einer Sitzung zugeordnet werden.',
      }),
      cookie({
        name: '_pk_ref.*',
        lifetime: '6 months',
        en: 'Remembers the referrer or campaign through which the visitor first arrived.',
        de: 'Merkt sich den Verweis oder die Kampagne, über die der Besucher zuerst kam.',
      }),
      cookie({
        name: '_pk_cvar.*',
        lifetime: '30 minutes',
        en: 'Temporarily holds custom variables of the current visit.',
        de: 'Hält benutzerdefinierte Variablen des aktuellen Besuchs vorübergehend fest.',
      }),
      cookie({
        name: '_pk_hsr.*',
        lifetime: '30 minutes',
        en: 'Used by the heatmap and session-recording feature during the visit.',
        de: 'Wird während des Besuchs von der Heatmap- und Sitzungsaufzeichnungsfunktion genutzt.',
      }),
      cookie({
        name: 'mtm_consent',
        lifetime: '30 years',
        en: 'Records that the visitor agreed to tracking when Matomo asks for consent itself.',
        de: 'Hält fest, dass der Besucher dem Tracking zugestimmt hat, wenn Matomo selbst die Einwilligung abfragt.',
      }),
      cookie({
        name: 'mtm_consent_removed',
        lifetime: '30 years',
        en: 'Records that the visitor withdrew consent to tracking.',
        de: 'Hält fest, dass der Besucher seine Einwilligung zum Tracking widerrufen hat.',
      }),
      cookie({
        name: 'mtm_cookie_consent',
        lifetime: '30 years',
        en: 'Records that the visitor allowed Matomo to use cookies.',
        de: 'Hält fest, dass der Besucher Matomo das Setzen von Cookies erlaubt hat.',
      }),
    ],
    // The tracker posts to matomo.php (piwik.php before Matomo 4) wherever the site hosts Matomo.
    signals: { scripts: ['matomo.cloud'], iframes: [], beacons: ['/matomo.php', '/piwik.php'] },
  },
  {
    id: 5,
    name: 'Piwik PRO',
    vendor: 'Piwik PRO SA',
    purpose: 'a717ff5',
    category: 'analytics',
    privacyPolicyUrl: 'https://piwik.pro/privacy-policy/',
    translations: {
      de_DE: {
        name: 'Piwik PRO',
        description:
          'Analyse-Suite aus der EU mit Webanalyse, Tag Manager und Consent Manager. Misst Besuche, Ereignisse und Kampagnen.',
      },
      en_US: {
        name: 'Piwik PRO',
        description:
          'EU-based analytics suite with web analytics, tag manager and consent manager. Measures visits, events and campaigns.',
      },
    },
    cookies: [
      cookie({
        name: '_pk_id.*',
        lifetime: '13 months',
        en: 'Visitor ID used to recognise returning visitors.',
        de: 'Besucher-ID, an der wiederkehrende Besucher erkannt werden.',
      }),
      cookie({
        name: '_pk_ses.*',
        lifetime: '30 minutes',
        en: 'Marks the current session.',
        de: 'Kennzeichnet die laufende Sitzung.',
      }),
      cookie({
        name: '_pk_ref.*',
        lifetime: '6 months',
        en: 'Keeps the referrer of the first visit for attribution.',
        de: 'Speichert den Verweis des ersten Besuchs für die Zuordnung von Quellen.',
      }),
      cookie({
        name: 'ppms_privacy_*',
        lifetime: '12 months',
        en: "Stores the visitor's choices made in the Piwik PRO consent form.",
        de: 'Speichert die Auswahl, die der Besucher im Piwik-PRO-Einwilligungsformular getroffen hat.',
      }),
      cookie({
        name: 'stg_traffic_source_priority',
        lifetime: '30 minutes',
        en: 'Tag manager: remembers the traffic source type of the current visit.',
        de: 'Tag Manager: merkt sich die Art der Besuchsquelle des aktuellen Besuchs.',
      }),
      cookie({
        name: 'stg_last_interaction',
        lifetime: '1 year',
        en: "Tag manager: time of the visitor's last interaction, used to detect returning visitors.",
        de: 'Tag Manager: Zeitpunkt der letzten Interaktion, um wiederkehrende Besucher zu erkennen.',
      }),
      cookie({
        name: 'stg_returning_visitor',
        lifetime: '1 year',
        en: 'Tag manager: flags a returning visitor for tag triggers.',
        de: 'Tag Manager: kennzeichnet wiederkehrende Besucher für Auslöseregeln von Tags.',
      }),
      cookie({
        name: 'stg_externalReferrer',
        lifetime: 'session',
        en: 'Tag manager: keeps the external referrer during the session.',
        de: 'Tag Manager: hält den externen Verweis während der Sitzung fest.',
      }),
    ],
    signals: { scripts: ['containers.piwik.pro', 'piwik.pro/ppms.js'], iframes: [] },
  },
  {
    id: 6,
    name: 'Adobe Analytics',
    vendor: 'Adobe Systems Software Ireland Limited',
    purpose: 'a717ff5',
    category: 'analytics',
    privacyPolicyUrl: 'https://www.adobe.com/privacy/policy.html',
    translations: {
      de_DE: {
        name: 'Adobe Analytics',
        description:
          'Webanalyse der Adobe Experience Cloud für große Websites; wertet Besuche, Kampagnen und Konversionen aus.',
      },
      en_US: {
        name: 'Adobe Analytics',
        description:
          'Web analytics from the Adobe Experience Cloud for large websites; analyses visits, campaigns and conversions.',
      },
    },
    cookies: [
      cookie({
        name: 'AMCV_*',
        lifetime: '2 years',
        en: 'Experience Cloud visitor ID shared by the Adobe solutions used on the site.',
        de: 'Experience-Cloud-Besucher-ID, die von den eingesetzten Adobe-Lösungen gemeinsam genutzt wird.',
      }),
      cookie({
        name: 'AMCVS_*',
        lifetime: 'session',
        en: 'Flags that the visitor ID service has been initialised in this session.',
        de: 'Zeigt an, dass der Besucher-ID-Dienst in dieser Sitzung bereits gestartet wurde.',
      }),
      cookie({
        name: 's_vi',
        lifetime: '2 years',
        en: 'Legacy visitor ID set by the Adobe tracking server.',
        de: 'Ältere Besucher-ID, die vom Adobe-Tracking-Server gesetzt wird.',
      }),
      cookie({
        name: 's_fid',
        lifetime: '2 years',
        en: 'Fallback visitor ID when s_vi cannot be set.',
        de: 'Ersatz-Besucher-ID, falls s_vi nicht gesetzt werden kann.',
      }),
      cookie({
        name: 's_ecid',
        lifetime: '2 years',
        en: 'First-party copy of the Experience Cloud ID.',
        de: 'First-Party-Kopie der Experience-Cloud-ID.',
      }),
      cookie({
        name: 's_cc',
        lifetime: 'session',
        en: 'Tests whether the browser accepts cookies.',
        de: 'Prüft, ob der Browser Cookies annimmt.',
      }),
      cookie({
        name: 's_sq',
        lifetime: 'session',
        en: 'Remembers the previously clicked link for click-map reports.',
        de: 'Merkt sich den zuletzt angeklickten Link für Klick-Auswertungen.',
      }),
    ],
    signals: { scripts: [], iframes: [] },
  },
  {
    id: 7,
    name: 'etracker Analytics',
    vendor: 'etracker GmbH',
    purpose: 'a717ff5',
    category: 'analytics',
    privacyPolicyUrl: 'https://www.etracker.com/datenschutz/',
    translations: {
      de_DE: {
        name: 'etracker Analytics',
        description:
          'Webanalyse aus Hamburg. Arbeitet standardmäßig ohne Analyse-Cookies; mit Einwilligung kann sie wiederkehrende Besucher per Cookie erkennen.',
      },
      en_US: {
        name: 'etracker Analytics',
        description:
          'Web analytics from Hamburg. Works without analytics cookies by default; with consent it can recognise returning visitors by cookie.',
      },
    },
    cookies: [
      cookie({
        name: '_et_coid',
        lifetime: '2 years',
        en: 'Visitor recognition; only set once cookies have been enabled.',
        de: 'Wiedererkennung des Besuchers; wird erst gesetzt, wenn Cookies freigegeben sind.',
      }),
      cookie({
        name: 'et_oi_v2',
        lifetime: 'persistent',
        en: "Stores the visitor's opt-in or opt-out decision for etracker tracking.",
        de: 'Speichert die Entscheidung des Besuchers für oder gegen das etracker-Tracking.',
      }),
      cookie({
        name: 'et_allow_cookies',
        lifetime: '480 days',
        en: 'Signals that etracker is allowed to set cookies.',
        de: 'Zeigt an, dass etracker Cookies setzen darf.',
      }),
      cookie({
        name: 'isSdEnabled',
        lifetime: '24 hours',
        en: 'Notes whether scroll depth is measured for this visitor.',
        de: 'Vermerkt, ob für diesen Besucher die Scrolltiefe gemessen wird.',
      }),
      cookie({
        name: 'et_scroll_depth',
        storageType: 'sessionStorage',
        lifetime: 'session',
        en: 'Buffers scroll-depth measurements of the current page.',
        de: 'Puffert die Messwerte zur Scrolltiefe der aktuellen Seite.',
      }),
      cookie({
        name: 'BT_pdc',
        lifetime: '1 year',
        en: 'Optimiser: encoded visitor history used for on-site personalisation.',
        de: 'Optimiser: kodierter Besuchsverlauf für die Personalisierung auf der Website.',
      }),
      cookie({
        name: 'BT_sdc',
        lifetime: 'session',
        en: 'Optimiser: encoded data about the current session (referrer, pages viewed).',
        de: 'Optimiser: kodierte Daten zur aktuellen Sitzung (Verweis, besuchte Seiten).',
      }),
      cookie({
        name: 'BT_ctst',
        lifetime: 'session',
        en: 'Optimiser: checks whether cookies are enabled.',
        de: 'Optimiser: prüft, ob Cookies aktiviert sind.',
      }),
      cookie({
        name: 'BT_ecl',
        lifetime: '30 days',
        en: 'Optimiser: lists the tests the visitor is excluded from.',
        de: 'Optimiser: listet die Tests, von denen der Besucher ausgeschlossen ist.',
      }),
    ],
    signals: { scripts: ['code.etracker.com'], iframes: [] },
  },
  {
    id: 8,
    name: 'econda Analytics',
    vendor: 'econda GmbH',
    purpose: 'a717ff5',
    category: 'analytics',
    privacyPolicyUrl: 'https://www.econda.de/en/data-protection/',
    translations: {
      de_DE: {
        name: 'econda Analytics',
        description:
          'Webanalyse aus Karlsruhe, vor allem für Onlineshops; misst Seitenaufrufe, Warenkörbe und Bestellungen.',
      },
      en_US: {
        name: 'econda Analytics',
        description:
          'Web analytics from Karlsruhe, mostly used by online shops; measures page views, baskets and orders.',
      },
    },
    cookies: [
      cookie({
        name: 'emos_jcvid',
        lifetime: '2 years',
        en: 'Pseudonymous visitor ID that recognises the browser on later visits.',
        de: 'Pseudonyme Besucher-ID, die den Browser bei späteren Besuchen wiedererkennt.',
      }),
      cookie({
        name: 'emos_jcsid',
        lifetime: 'session',
        en: 'Session ID that ties the page views of one visit together.',
        de: 'Sitzungs-ID, die die Seitenaufrufe eines Besuchs verbindet.',
      }),
    ],
    signals: { scripts: [], iframes: [] },
  },
  {
    id: 9,
    name: 'Yandex Metrica',
    vendor: 'YANDEX LLC',
    purpose: 'a717ff5',
    category: 'analytics',
    privacyPolicyUrl: 'https://yandex.com/legal/confidential/',
    translations: {
      de_DE: {
        name: 'Yandex Metrica',
        description:
          'Webanalyse von Yandex mit Besucherstatistiken, Heatmaps und Sitzungsaufzeichnung (Webvisor).',
      },
      en_US: {
        name: 'Yandex Metrica',
        description: "Yandex's web analytics with visitor statistics, heatmaps and session recording (Webvisor).",
      },
    },
    cookies: [
      cookie({
        name: '_ym_uid',
        lifetime: '1 year',
        en: 'Visitor ID used to recognise the browser.',
        de: 'Besucher-ID zur Wiedererkennung des Browsers.',
      }),
      cookie({
        name: '_ym_d',
        lifetime: '1 year',
        en: "Date of the visitor's first session.",
        de: 'Datum der ersten Sitzung des Besuchers.',
      }),
      cookie({
        name: '_ym_isad',
        lifetime: '2 days',
        en: 'Notes whether an ad blocker is active.',
        de: 'Vermerkt, ob ein Werbeblocker aktiv ist.',
      }),
      cookie({
        name: '_ym_visorc',
        lifetime: '30 minutes',
        en: 'Lets Webvisor record the session correctly.',
        de: 'Ermöglicht Webvisor die korrekte Aufzeichnung der Sitzung.',
      }),
      cookie({
        name: '_ym_metrika_enabled',
        lifetime: '1 hour',
        en: 'Checks that the other Metrica cookies were set correctly.',
        de: 'Prüft, ob die übrigen Metrica-Cookies richtig gesetzt wurden.',
      }),
      cookie({
        name: 'yandexuid',
        lifetime: '1 year',
        en: 'Third-party Yandex ID on yandex domains, recognises the browser across sites.',
        de: 'Drittanbieter-ID auf Yandex-Domains, erkennt den Browser websiteübergreifend.',
      }),
    ],
    signals: {
      scripts: ['mc.yandex.ru/metrika', 'mc.yandex.com/metrika', 'cdn.jsdelivr.net/npm/yandex-metrica-watch'],
      iframes: [],
    },
  },
  {
    id: 10,
    name: 'Mixpanel',
    vendor: 'Mixpanel, Inc.',
    purpose: 'a717ff5',
    category: 'analytics',
    privacyPolicyUrl: 'https://mixpanel.com/legal/privacy-policy/',
    translations: {
      de_DE: {
        name: 'Mixpanel',
        description:
          'Produktanalyse, die einzelne Ereignisse und Nutzerpfade auswertet, etwa für Funnels und Kohorten.',
      },
      en_US: {
        name: 'Mixpanel',
        description: 'Product analytics that evaluates individual events and user journeys, e.g. for funnels and cohorts.',
      },
    },
    cookies: [
      cookie({
        name: 'mp_*_mixpanel',
        lifetime: '1 year',
        en: 'Holds the distinct ID and properties that belong to every event sent.',
        de: 'Enthält die Nutzer-ID und Eigenschaften, die jedem gesendeten Ereignis mitgegeben werden.',
      }),
      cookie({
        name: 'mp_*_mixpanel',
        storageType: 'localStorage',
        lifetime: 'persistent',
        en: 'Same data as the cookie when the site configures local-storage persistence.',
        de: 'Dieselben Daten wie das Cookie, wenn die Website Speicherung im Local Storage einstellt.',
      }),
    ],
    signals: { scripts: ['cdn.mxpnl.com'], iframes: [] },
  },
  {
    id: 11,
    name: 'Amplitude',
    vendor: 'Amplitude, Inc.',
    purpose: 'a717ff5',
    category: 'analytics',
    privacyPolicyUrl: 'https://amplitude.com/privacy',
    translations: {
      de_DE: {
        name: 'Amplitude',
        description: 'Produkt- und Verhaltensanalyse; erfasst Ereignisse in Web-Apps und Websites und wertet sie aus.',
      },
      en_US: {
        name: 'Amplitude',
        description: 'Product and behavioural analytics; records events in web apps and websites and analyses them.',
      },
    },
    cookies: [
      cookie({
        name: 'AMP_*',
        lifetime: '1 year',
        en: 'Device ID, user ID and session information of the Amplitude browser SDK.',
        de: 'Geräte-ID, Nutzer-ID und Sitzungsdaten des Amplitude-Browser-SDK.',
      }),
      cookie({
        name: 'AMP_MKTG_*',
        lifetime: '1 year',
        en: 'Marketing attribution data such as UTM parameters and referrer.',
        de: 'Daten zur Marketing-Zuordnung wie UTM-Parameter und Verweis.',
      }),
      cookie({
        name: 'amplitude_id_*',
        lifetime: '1 year',
        en: 'Device and session IDs of the older Amplitude JavaScript SDK.',
        de: 'Geräte- und Sitzungs-IDs des älteren Amplitude-JavaScript-SDK.',
      }),
    ],
    signals: { scripts: ['cdn.amplitude.com'], iframes: [] },
  },
  {
    id: 12,
    name: 'Heap',
    vendor: 'Heap Inc.',
    purpose: 'a717ff5',
    category: 'analytics',
    privacyPolicyUrl: 'https://www.heap.io/privacy',
    translations: {
      de_DE: {
        name: 'Heap',
        description:
          'Produktanalyse, die Klicks, Formulareingaben und Seitenaufrufe automatisch erfasst, ohne dass jedes Ereignis einzeln eingerichtet werden muss.',
      },
      en_US: {
        name: 'Heap',
        description:
          'Product analytics that captures clicks, form interactions and page views automatically, without setting up each event by hand.',
      },
    },
    cookies: [
      cookie({
        name: '_hp2_id.*',
        lifetime: '13 months',
        en: 'User ID and identity information per Heap project.',
        de: 'Nutzer-ID und Identitätsdaten je Heap-Projekt.',
      }),
      cookie({
        name: '_hp2_ses_props.*',
        lifetime: '30 minutes',
        en: 'Session properties such as referrer and landing page.',
        de: 'Sitzungseigenschaften wie Verweis und Einstiegsseite.',
      }),
      cookie({
        name: '_hp2_props.*',
        lifetime: '13 months',
        en: 'Event properties the site attached to the user.',
        de: 'Ereigniseigenschaften, die die Website dem Nutzer zugeordnet hat.',
      }),
    ],
    signals: { scripts: ['heapanalytics.com', 'heap-api.com'], iframes: [] },
  },
  {
    id: 13,
    name: 'Segment',
    vendor: 'Twilio Inc.',
    purpose: 'a717ff5',
    category: 'analytics',
    privacyPolicyUrl: 'https://www.twilio.com/en-us/legal/privacy',
    translations: {
      de_DE: {
        name: 'Segment',
        description:
          'Customer-Data-Plattform von Twilio: sammelt Ereignisse auf der Website und leitet sie an angebundene Analyse- und Marketingdienste weiter.',
      },
      en_US: {
        name: 'Segment',
        description:
          "Twilio's customer data platform: collects events on the website and forwards them to connected analytics and marketing tools.",
      },
    },
    cookies: [
      cookie({
        name: 'ajs_anonymous_id',
        lifetime: '1 year',
        en: 'Anonymous ID assigned before the visitor is identified.',
        de: 'Anonyme ID, die vergeben wird, bevor der Besucher identifiziert ist.',
      }),
      cookie({
        name: 'ajs_user_id',
        lifetime: '1 year',
        en: 'The user ID the site passes in once the visitor is known.',
        de: 'Die Nutzer-ID, die die Website übergibt, sobald der Besucher bekannt ist.',
      }),
      cookie({
        name: 'ajs_user_traits',
        storageType: 'localStorage',
        lifetime: 'persistent',
        en: 'Traits of the identified user, e.g. plan or e-mail.',
        de: 'Merkmale des identifizierten Nutzers, etwa Tarif oder E-Mail-Adresse.',
      }),
      cookie({
        name: 'ajs_group_properties',
        storageType: 'localStorage',
        lifetime: 'persistent',
        en: 'Properties of the group or account the user belongs to.',
        de: 'Eigenschaften der Gruppe oder des Kontos, zu dem der Nutzer gehört.',
      }),
    ],
    signals: { scripts: ['cdn.segment.com', 'cdn.segment.io'], iframes: [] },
  },
  {
    id: 14,
    name: 'Plausible Analytics',
    vendor: 'Plausible Insights OÜ',
    purpose: 'a717ff5',
    category: 'analytics',
    privacyPolicyUrl: 'https://plausible.io/privacy',
    translations: {
      de_DE: {
        name: 'Plausible Analytics',
        description:
          'Schlanke, cookielose Webanalyse aus der EU; zählt Besuche und Quellen ohne dauerhafte Kennung im Browser.',
      },
      en_US: {
        name: 'Plausible Analytics',
        description:
          'Lightweight, cookieless web analytics from the EU; counts visits and sources without a persistent identifier in the browser.',
      },
    },
    cookies: [
      cookie({
        name: 'plausible_ignore',
        storageType: 'localStorage',
        lifetime: 'persistent',
        en: 'Only set on request: excludes the own browser (e.g. the site owner) from counting.',
        de: 'Nur auf Wunsch gesetzt: schließt den eigenen Browser (etwa des Betreibers) von der Zählung aus.',
      }),
    ],
    signals: { scripts: ['plausible.io/js'], iframes: [] },
  },
  {
    id: 15,
    name: 'Fathom Analytics',
    vendor: 'Conva Ventures Inc.',
    purpose: 'a717ff5',
    category: 'analytics',
    privacyPolicyUrl: 'https://usefathom.com/privacy',
    translations: {
      de_DE: {
        name: 'Fathom Analytics',
        description: 'Datenschutzorientierte Webanalyse ohne Cookies; erfasst Seitenaufrufe, Quellen und Ziele.',
      },
      en_US: {
        name: 'Fathom Analytics',
        description: 'Privacy-focused web analytics without cookies; records page views, sources and goals.',
      },
    },
    cookies: [
      cookie({
        name: 'blockFathomTracking',
        storageType: 'localStorage',
        lifetime: 'persistent',
        en: 'Only set on request: stops Fathom from counting visits of this browser.',
        de: 'Nur auf Wunsch gesetzt: verhindert, dass Fathom Besuche dieses Browsers zählt.',
      }),
    ],
    signals: { scripts: ['cdn.usefathom.com'], iframes: [] },
  },
  {
    id: 16,
    name: 'Statcounter',
    vendor: 'Statcounter',
    purpose: 'a717ff5',
    category: 'analytics',
    privacyPolicyUrl: 'https://statcounter.com/about/legal/',
    translations: {
      de_DE: {
        name: 'Statcounter',
        description: 'Einfacher Besucherzähler und Webanalyse mit Echtzeitstatistiken zu Besuchen und Herkunft.',
      },
      en_US: {
        name: 'Statcounter',
        description: 'Simple visitor counter and web analytics with real-time statistics on visits and sources.',
      },
    },
    cookies: [
      cookie({
        name: 'sc_is_visitor_unique',
        lifetime: '2 years',
        en: 'Random ID and visit count so that a visitor is not counted twice.',
        de: 'Zufällige ID und Besuchszähler, damit ein Besucher nicht doppelt gezählt wird.',
      }),
      cookie({
        name: 'is_unique',
        lifetime: '5 years',
        en: 'Older third-party cookie on statcounter.com for telling new from returning visitors.',
        de: 'Älteres Drittanbieter-Cookie auf statcounter.com zur Unterscheidung neuer und wiederkehrender Besucher.',
      }),
    ],
    signals: { scripts: ['statcounter.com/counter/'], iframes: [] },
  },
  {
    id: 17,
    name: 'Chartbeat',
    vendor: 'Chartbeat Inc.',
    purpose: 'a717ff5',
    category: 'analytics',
    privacyPolicyUrl: 'https://chartbeat.com/privacy/',
    translations: {
      de_DE: {
        name: 'Chartbeat',
        description:
          'Echtzeitanalyse für Nachrichten- und Medienseiten; zeigt Redaktionen, welche Artikel gerade gelesen werden und wie lange.',
      },
      en_US: {
        name: 'Chartbeat',
        description:
          'Real-time analytics for news and media sites; shows editors which articles are being read right now and for how long.',
      },
    },
    cookies: [
      cookie({
        name: '_cb',
        lifetime: '13 months',
        en: "The visitor's Chartbeat ID on this site.",
        de: 'Die Chartbeat-ID des Besuchers auf dieser Website.',
      }),
      cookie({
        name: '_chartbeat2',
        lifetime: '13 months',
        en: 'Timing of earlier visits, to sort visitors into new, returning and loyal.',
        de: 'Zeitpunkte früherer Besuche, um Besucher als neu, wiederkehrend oder treu einzuordnen.',
      }),
      cookie({
        name: '_cb_svref',
        lifetime: '30 minutes',
        en: 'Original referrer of the visit, kept while the visitor moves between articles.',
        de: 'Ursprünglicher Verweis des Besuchs, der beim Wechsel zwischen Artikeln erhalten bleibt.',
      }),
      cookie({
        name: '_SUPERFLY_nosample',
        lifetime: '1 hour',
        en: 'Pauses measurement of this visitor when the site exceeds its plan limit.',
        de: 'Setzt die Messung dieses Besuchers aus, wenn die Website ihr Tariflimit überschreitet.',
      }),
    ],
    signals: { scripts: ['static.chartbeat.com'], iframes: [] },
  },

  // ── Heatmaps and session recording ──────────────────────────────────────────────────────────
  {
    id: 30,
    name: 'Hotjar',
    vendor: 'Hotjar Ltd.',
    purpose: 'a717ff5',
    category: 'analytics',
    privacyPolicyUrl: 'https://www.hotjar.com/legal/policies/privacy/',
    translations: {
      de_DE: {
        name: 'Hotjar',
        description:
          'Heatmaps, Sitzungsaufzeichnungen und Umfragen, die zeigen, wie Besucher sich auf der Website bewegen und wo sie abspringen.',
      },
      en_US: {
        name: 'Hotjar',
        description:
          'Heatmaps, session recordings and surveys that show how visitors move through the website and where they drop off.',
      },
    },
    cookies: [
      cookie({
        name: '_hjSessionUser_*',
        lifetime: '1 year',
        en: 'Hotjar user ID for this site, so later visits are linked to the same visitor.',
        de: 'Hotjar-Nutzer-ID für diese Website, damit spätere Besuche demselben Besucher zugeordnet werden.',
      }),
      cookie({
        name: '_hjSession_*',
        lifetime: '30 minutes',
        en: 'Data of the current session so that page views belong to one recording.',
        de: 'Daten der laufenden Sitzung, damit Seitenaufrufe zu einer Aufzeichnung gehören.',
      }),
      cookie({
        name: '_hjid',
        lifetime: '1 year',
        en: 'User ID of older Hotjar tracking code versions.',
        de: 'Nutzer-ID älterer Versionen des Hotjar-Trackingcodes.',
      }),
      cookie({
        name: '_hjAbsoluteSessionInProgress',
        lifetime: '30 minutes',
        en: 'Detects the first page view of a session.',
        de: 'Erkennt den ersten Seitenaufruf einer Sitzung.',
      }),
      cookie({
        name: '_hjClosedSurveyInvites',
        lifetime: '1 year',
        en: 'Remembers that a survey invitation was dismissed or answered.',
        de: 'Merkt sich, dass eine Umfrageeinladung geschlossen oder beantwortet wurde.',
      }),
      cookie({
        name: '_hjDonePolls',
        lifetime: '1 year',
        en: 'Remembers that an on-site poll has been completed.',
        de: 'Merkt sich, dass eine Umfrage auf der Seite abgeschlossen wurde.',
      }),
      cookie({
        name: '_hjMinimizedPolls',
        lifetime: '1 year',
        en: 'Remembers that an on-site poll was minimised.',
        de: 'Merkt sich, dass eine Umfrage auf der Seite minimiert wurde.',
      }),
      cookie({
        name: '_hjShownFeedbackMessage',
        lifetime: '1 year',
        en: 'Remembers that the feedback widget message was already shown.',
        de: 'Merkt sich, dass die Hinweisnachricht des Feedback-Widgets schon angezeigt wurde.',
      }),
      cookie({
        name: '_hjTLDTest',
        lifetime: 'session',
        en: 'Finds the most general domain on which Hotjar can set its cookies.',
        de: 'Ermittelt die allgemeinste Domain, auf der Hotjar seine Cookies setzen kann.',
      }),
      cookie({
        name: '_hjRecordingEnabled',
        storageType: 'sessionStorage',
        lifetime: 'session',
        en: 'Notes whether the current session is being recorded.',
        de: 'Vermerkt, ob die laufende Sitzung aufgezeichnet wird.',
      }),
      cookie({
        name: 'hjViewportId',
        storageType: 'sessionStorage',
        lifetime: 'session',
        en: 'ID of the current browser tab or window.',
        de: 'Kennung des aktuellen Browser-Tabs oder -Fensters.',
      }),
      cookie({
        name: 'hjActiveViewportIds',
        storageType: 'localStorage',
        lifetime: 'persistent',
        en: 'List of open tabs of the site, used to coordinate recording between them.',
        de: 'Liste der geöffneten Tabs der Website, um die Aufzeichnung zwischen ihnen abzustimmen.',
      }),
    ],
    signals: { scripts: ['static.hotjar.com', 'script.hotjar.com'], iframes: [] },
  },
  {
    id: 31,
    name: 'Microsoft Clarity',
    vendor: MICROSOFT,
    purpose: 'a717ff5',
    category: 'analytics',
    privacyPolicyUrl: MICROSOFT_PRIVACY,
    translations: {
      de_DE: {
        name: 'Microsoft Clarity',
        description:
          'Kostenlose Verhaltensanalyse von Microsoft mit Heatmaps und Sitzungsaufzeichnungen.',
      },
      en_US: {
        name: 'Microsoft Clarity',
        description: "Microsoft's free behaviour analytics with heatmaps and session recordings.",
      },
    },
    cookies: [
      cookie({
        name: '_clck',
        lifetime: '1 year',
        en: 'Clarity user ID and settings for this site.',
        de: 'Clarity-Nutzer-ID und Einstellungen für diese Website.',
      }),
      cookie({
        name: '_clsk',
        lifetime: '1 day',
        en: 'Joins several page views into one session recording.',
        de: 'Fasst mehrere Seitenaufrufe zu einer Sitzungsaufzeichnung zusammen.',
      }),
      cookie({
        name: 'CLID',
        lifetime: '1 year',
        en: 'Third-party cookie on clarity.ms marking when Clarity first saw this browser on any site.',
        de: 'Drittanbieter-Cookie auf clarity.ms, das festhält, wann Clarity den Browser erstmals auf einer Website sah.',
      }),
      cookie({
        name: 'MUID',
        lifetime: '1 year',
        en: 'Microsoft browser ID shared across Microsoft services.',
        de: 'Microsoft-Browserkennung, die von mehreren Microsoft-Diensten genutzt wird.',
      }),
      cookie({
        name: 'ANONCHK',
        lifetime: '10 minutes',
        en: 'Checks whether the MUID may be passed to Microsoft advertising.',
        de: 'Prüft, ob die MUID an die Microsoft-Werbung weitergegeben werden darf.',
      }),
      cookie({
        name: 'MR',
        lifetime: '7 days',
        en: 'Indicates whether the MUID should be refreshed.',
        de: 'Gibt an, ob die MUID erneuert werden soll.',
      }),
      cookie({
        name: 'SM',
        lifetime: 'session',
        en: 'Used to synchronise the MUID between Microsoft domains.',
        de: 'Dient dazu, die MUID zwischen Microsoft-Domains abzugleichen.',
      }),
    ],
    signals: { scripts: ['clarity.ms'], iframes: [] },
  },
  {
    id: 32,
    name: 'Mouseflow',
    vendor: 'Mouseflow ApS',
    purpose: 'a717ff5',
    category: 'analytics',
    privacyPolicyUrl: 'https://mouseflow.com/legal/privacy',
    translations: {
      de_DE: {
        name: 'Mouseflow',
        description:
          'Sitzungsaufzeichnung, Heatmaps und Formularanalyse aus Dänemark, um Hürden im Ablauf der Website zu finden.',
      },
      en_US: {
        name: 'Mouseflow',
        description:
          'Session recording, heatmaps and form analytics from Denmark, used to find friction in the flow of a website.',
      },
    },
    cookies: [
      cookie({
        name: 'mf_*',
        lifetime: 'session',
        en: 'Named after the website ID; identifies the current recording session.',
        de: 'Nach der Website-ID benannt; kennzeichnet die laufende Aufzeichnungssitzung.',
      }),
      cookie({
        name: 'mf_user',
        lifetime: '90 days',
        en: 'Only says whether the visitor is new or returning.',
        de: 'Gibt nur an, ob der Besucher neu ist oder wiederkommt.',
      }),
    ],
    signals: { scripts: ['cdn.mouseflow.com'], iframes: [] },
  },
  {
    id: 33,
    name: 'FullStory',
    vendor: 'FullStory, Inc.',
    purpose: 'a717ff5',
    category: 'analytics',
    privacyPolicyUrl: 'https://www.fullstory.com/legal/privacy-policy/',
    translations: {
      de_DE: {
        name: 'FullStory',
        description:
          'Plattform für Sitzungswiedergabe und Verhaltensanalyse; rekonstruiert Besuche Seite für Seite, um Fehler und Hürden sichtbar zu machen.',
      },
      en_US: {
        name: 'FullStory',
        description:
          'Session replay and behaviour analytics platform; reconstructs visits page by page to reveal errors and friction.',
      },
    },
    cookies: [
      cookie({
        name: 'fs_uid',
        lifetime: '1 year',
        en: 'FullStory user and session ID for this site.',
        de: 'FullStory-Nutzer- und Sitzungs-ID für diese Website.',
      }),
      cookie({
        name: 'fs_cid',
        lifetime: '1 year',
        en: "Stores the visitor's consent state for FullStory.",
        de: 'Speichert den Einwilligungsstatus des Besuchers für FullStory.',
      }),
      cookie({
        name: 'fs_lua',
        lifetime: '30 minutes',
        en: "Time of the visitor's last action, used to end idle sessions.",
        de: 'Zeitpunkt der letzten Aktion des Besuchers, um inaktive Sitzungen zu beenden.',
      }),
    ],
    signals: { scripts: ['edge.fullstory.com', 'fullstory.com/s/fs.js'], iframes: [] },
  },
  {
    id: 34,
    name: 'Smartlook',
    vendor: 'Smartlook.com, s.r.o.',
    purpose: 'a717ff5',
    category: 'analytics',
    privacyPolicyUrl: 'https://www.smartlook.com/privacy-policy/',
    translations: {
      de_DE: {
        name: 'Smartlook',
        description: 'Sitzungsaufzeichnung, Heatmaps und Ereignisanalyse aus Tschechien für Websites und Apps.',
      },
      en_US: {
        name: 'Smartlook',
        description: 'Session recording, heatmaps and event analytics from the Czech Republic for websites and apps.',
      },
    },
    cookies: [
      cookie({
        name: 'SL_C_23361dd035530_SID',
        lifetime: '13 months',
        en: 'Project key with session and visitor ID, so recordings can be linked to one visitor.',
        de: 'Projektschlüssel mit Sitzungs- und Besucher-ID, damit Aufzeichnungen einem Besucher zugeordnet werden.',
      }),
      cookie({
        name: 'SL_L_23361dd035530_SID',
        storageType: 'localStorage',
        lifetime: '13 months',
        en: 'Local copy of the same session and visitor IDs.',
        de: 'Lokale Kopie derselben Sitzungs- und Besucher-IDs.',
      }),
    ],
    signals: { scripts: ['web-sdk.smartlook.com', 'rec.smartlook.com'], iframes: [] },
  },
  {
    id: 35,
    name: 'Crazy Egg',
    vendor: 'Crazy Egg, Inc.',
    purpose: 'a717ff5',
    category: 'analytics',
    privacyPolicyUrl: 'https://www.crazyegg.com/privacy',
    translations: {
      de_DE: {
        name: 'Crazy Egg',
        description: 'Heatmaps, Scroll-Karten und Aufzeichnungen, die zeigen, worauf Besucher klicken und wie weit sie lesen.',
      },
      en_US: {
        name: 'Crazy Egg',
        description: 'Heatmaps, scroll maps and recordings that show where visitors click and how far they read.',
      },
    },
    cookies: [
      cookie({
        name: '_ce.s',
        lifetime: '1 year',
        en: 'Visitor and session information for recordings.',
        de: 'Besucher- und Sitzungsdaten für Aufzeichnungen.',
      }),
      cookie({
        name: '_ceir',
        lifetime: '1 year',
        en: 'Tells new visitors from returning ones.',
        de: 'Unterscheidet neue von wiederkehrenden Besuchern.',
      }),
      cookie({
        name: '_CEFT',
        lifetime: '1 year',
        en: 'Stores the variant assigned in Crazy Egg A/B tests.',
        de: 'Speichert die in Crazy-Egg-A/B-Tests zugewiesene Variante.',
      }),
      cookie({
        name: '_ce.clock_event',
        lifetime: '1 day',
        en: 'Helps correct differences between browser and server clock.',
        de: 'Hilft, Abweichungen zwischen Browser- und Serveruhr auszugleichen.',
      }),
      cookie({
        name: '_ce.clock_data',
        lifetime: '1 day',
        en: 'Holds the measured clock offset.',
        de: 'Enthält die gemessene Zeitabweichung.',
      }),
      cookie({
        name: 'cebs',
        lifetime: 'session',
        en: 'Tracks the current session.',
        de: 'Verfolgt die laufende Sitzung.',
      }),
      cookie({
        name: 'cebsp_',
        lifetime: 'session',
        en: 'Counts page views within the current session.',
        de: 'Zählt die Seitenaufrufe in der laufenden Sitzung.',
      }),
    ],
    signals: { scripts: ['script.crazyegg.com', 'dnn506yrbagrg.cloudfront.net'], iframes: [] },
  },

  // ── A/B testing and personalisation ─────────────────────────────────────────────────────────
  {
    id: 50,
    name: 'Optimizely',
    vendor: 'Optimizely, Inc.',
    purpose: '7c19e32',
    category: 'personalisation',
    privacyPolicyUrl: 'https://www.optimizely.com/legal/privacy-notice/',
    translations: {
      de_DE: {
        name: 'Optimizely',
        description:
          'Plattform für A/B-Tests und Personalisierung; zeigt Besuchern verschiedene Varianten einer Seite und misst, welche besser funktioniert.',
      },
      en_US: {
        name: 'Optimizely',
        description:
          'A/B testing and personalisation platform; shows visitors different variants of a page and measures which works better.',
      },
    },
    cookies: [
      cookie({
        name: 'optimizelyEndUserId',
        lifetime: '6 months',
        en: 'Visitor ID that keeps a visitor in the same test variant.',
        de: 'Besucher-ID, die einen Besucher in derselben Testvariante hält.',
      }),
      cookie({
        name: 'optimizelyRedirectData',
        lifetime: '5 seconds',
        en: 'Carries test data across a redirect to another variant URL.',
        de: 'Überträgt Testdaten bei einer Weiterleitung auf die URL einer anderen Variante.',
      }),
      cookie({
        name: 'optimizelyOptOut',
        lifetime: '10 years',
        en: 'Records that the visitor opted out of Optimizely experiments.',
        de: 'Hält fest, dass der Besucher Optimizely-Experimente abgelehnt hat.',
      }),
      cookie({
        name: 'optimizely_data$$*',
        storageType: 'localStorage',
        lifetime: 'persistent',
        en: 'Local storage of variant assignments, events and visitor attributes.',
        de: 'Lokaler Speicher für Variantenzuordnungen, Ereignisse und Besuchermerkmale.',
      }),
    ],
    signals: { scripts: ['cdn.optimizely.com/js', 'cdn-pci.optimizely.com'], iframes: [] },
  },
  {
    id: 51,
    name: 'VWO',
    vendor: 'Wingify Software Pvt. Ltd.',
    purpose: '7c19e32',
    category: 'personalisation',
    privacyPolicyUrl: 'https://vwo.com/privacy-policy/',
    translations: {
      de_DE: {
        name: 'VWO (Visual Website Optimizer)',
        description: 'Werkzeug für A/B-Tests, Personalisierung und Conversion-Optimierung von Websites.',
      },
      en_US: {
        name: 'VWO (Visual Website Optimizer)',
        description: 'Tool for A/B testing, personalisation and conversion optimisation of websites.',
      },
    },
    cookies: [
      cookie({
        name: '_vwo_uuid_v2',
        lifetime: '1 year',
        en: 'Unique visitor ID used to count unique visitors in tests.',
        de: 'Eindeutige Besucher-ID zum Zählen einzelner Besucher in Tests.',
      }),
      cookie({
        name: '_vis_opt_s',
        lifetime: '100 days',
        en: 'Counts sessions and tells new from returning visitors.',
        de: 'Zählt Sitzungen und unterscheidet neue von wiederkehrenden Besuchern.',
      }),
      cookie({
        name: '_vis_opt_exp_*',
        lifetime: '100 days',
        en: 'Remembers the variant shown to the visitor in a given test.',
        de: 'Merkt sich, welche Variante dem Besucher in einem bestimmten Test gezeigt wurde.',
      }),
    ],
    signals: { scripts: ['visualwebsiteoptimizer.com'], iframes: [] },
  },
  {
    id: 52,
    name: 'AB Tasty',
    vendor: 'AB Tasty SAS',
    purpose: '7c19e32',
    category: 'personalisation',
    privacyPolicyUrl: 'https://www.abtasty.com/privacy-policy/',
    translations: {
      de_DE: {
        name: 'AB Tasty',
        description: 'Französische Plattform für A/B-Tests, Personalisierung und Feature-Rollouts.',
      },
      en_US: {
        name: 'AB Tasty',
        description: 'French platform for A/B testing, personalisation and feature rollouts.',
      },
    },
    cookies: [
      cookie({
        name: 'ABTasty',
        lifetime: '13 months',
        en: 'Visitor ID and the tests and variants the visitor has seen.',
        de: 'Besucher-ID sowie die Tests und Varianten, die der Besucher gesehen hat.',
      }),
      cookie({
        name: 'ABTastySession',
        lifetime: 'session',
        en: 'Data of the current session, e.g. referrer and pages seen.',
        de: 'Daten der laufenden Sitzung, etwa Verweis und besuchte Seiten.',
      }),
    ],
    signals: { scripts: ['try.abtasty.com'], iframes: [] },
  },
  {
    id: 53,
    name: 'Kameleoon',
    vendor: 'Kameleoon SAS',
    purpose: '7c19e32',
    category: 'personalisation',
    privacyPolicyUrl: 'https://www.kameleoon.com/en/privacy-policy',
    translations: {
      de_DE: {
        name: 'Kameleoon',
        description: 'Plattform für A/B-Tests, Feature-Flags und KI-gestützte Personalisierung.',
      },
      en_US: {
        name: 'Kameleoon',
        description: 'Platform for A/B testing, feature flags and AI-driven personalisation.',
      },
    },
    cookies: [
      cookie({
        name: 'kameleoonVisitorCode',
        lifetime: '380 days',
        en: 'Random visitor code that keeps the visitor in the same variants.',
        de: 'Zufälliger Besuchercode, der den Besucher in denselben Varianten hält.',
      }),
    ],
    signals: { scripts: ['kameleoon.eu', 'kameleoon.io'], iframes: [] },
  },

  // ── Advertising, retargeting and affiliate ──────────────────────────────────────────────────
  {
    id: 70,
    name: 'Google Ads Conversion Tracking & Remarketing',
    vendor: GOOGLE,
    purpose: 'cdcbd7c',
    category: 'advertising',
    privacyPolicyUrl: GOOGLE_PRIVACY,
    translations: {
      de_DE: {
        name: 'Google Ads Conversion-Tracking & Remarketing',
        description:
          'Misst, welche Google-Anzeigen zu Käufen oder Anfragen führen, und bildet Zielgruppen, um Besuchern später erneut Anzeigen zu zeigen.',
      },
      en_US: {
        name: 'Google Ads Conversion Tracking & Remarketing',
        description:
          'Measures which Google ads lead to purchases or enquiries and builds audiences to show ads to visitors again later.',
      },
    },
    cookies: [
      cookie({
        name: '_gcl_au',
        lifetime: '90 days',
        alsoSetBy: CONVERSION_LINKERS,
        en: 'Conversion linker ID that ties later conversions to ad interactions.',
        de: 'Kennung des Conversion-Linkers, die spätere Conversions Anzeigeninteraktionen zuordnet.',
      }),
      cookie({
        name: '_gcl_aw',
        lifetime: '90 days',
        alsoSetBy: CONVERSION_LINKERS,
        en: 'Stores the click ID (gclid) of a Google Ads click.',
        de: 'Speichert die Klick-ID (gclid) eines Klicks auf eine Google-Anzeige.',
      }),
      cookie({
        name: '_gcl_gs',
        lifetime: '90 days',
        alsoSetBy: CONVERSION_LINKERS,
        en: 'Stores ad-click information for conversion measurement.',
        de: 'Speichert Informationen zu Anzeigenklicks für die Conversion-Messung.',
      }),
      cookie({
        name: '_gcl_gb',
        lifetime: '90 days',
        alsoSetBy: CONVERSION_LINKERS,
        en: 'Stores an app-to-web click identifier (gbraid) for attribution.',
        de: 'Speichert eine Klickkennung für App-zu-Web-Zuordnung (gbraid).',
      }),
      cookie({
        name: '_gac_gb_*',
        lifetime: '90 days',
        en: 'Campaign information for conversions attributed through Google Analytics.',
        de: 'Kampagneninformationen für Conversions, die über Google Analytics zugeordnet werden.',
      }),
    ],
    googleConsentMode: ['ad_storage'],
    signals: {
      scripts: ['googleadservices.com/pagead/conversion'],
      iframes: ['td.doubleclick.net'],
    },
  },
  {
    id: 71,
    name: 'Google AdSense',
    vendor: GOOGLE,
    purpose: 'cdcbd7c',
    category: 'advertising',
    privacyPolicyUrl: GOOGLE_PRIVACY,
    translations: {
      de_DE: {
        name: 'Google AdSense',
        description:
          'Blendet Google-Werbeanzeigen auf der Website ein, mit denen der Betreiber Einnahmen erzielt; Anzeigen können personalisiert sein.',
      },
      en_US: {
        name: 'Google AdSense',
        description:
          'Shows Google ads on the website so the operator earns revenue from them; ads may be personalised.',
      },
    },
    cookies: [
      cookie({
        name: '__gads',
        lifetime: '13 months',
        en: 'Measures ad interactions and limits how often an ad is shown.',
        de: 'Misst Interaktionen mit Anzeigen und begrenzt, wie oft eine Anzeige erscheint.',
      }),
      cookie({
        name: '__gpi',
        lifetime: '13 months',
        en: 'Google ID for ads on publisher sites, used for frequency capping and measurement.',
        de: 'Google-Kennung für Anzeigen auf Publisher-Seiten, zur Frequenzbegrenzung und Messung.',
      }),
      cookie({
        name: '__gpi_optout',
        lifetime: '13 months',
        en: 'Records that __gpi may not be used.',
        de: 'Hält fest, dass __gpi nicht verwendet werden darf.',
      }),
    ],
    googleConsentMode: ['ad_storage'],
    signals: {
      scripts: ['pagead2.googlesyndication.com/pagead/js/adsbygoogle.js'],
      iframes: ['googleads.g.doubleclick.net/pagead/ads', 'tpc.googlesyndication.com'],
    },
  },
  {
    id: 72,
    name: 'Google Marketing Platform (Campaign Manager 360 / Floodlight)',
    vendor: GOOGLE,
    purpose: 'cdcbd7c',
    category: 'advertising',
    privacyPolicyUrl: GOOGLE_PRIVACY,
    translations: {
      de_DE: {
        name: 'Google Marketing Platform (Campaign Manager 360 / Floodlight)',
        description:
          'Googles Werbeplattform für Agenturen und Werbetreibende (früher DoubleClick): liefert Anzeigen aus und misst Conversions mit Floodlight-Tags.',
      },
      en_US: {
        name: 'Google Marketing Platform (Campaign Manager 360 / Floodlight)',
        description:
          "Google's ad platform for agencies and advertisers (formerly DoubleClick): serves ads and measures conversions with Floodlight tags.",
      },
    },
    cookies: [
      cookie({
        name: 'IDE',
        lifetime: '13 months',
        // The embedded YouTube player (www.youtube.com/embed) calls googleads.g.doubleclick.net/pagead/id
        // and loads static.doubleclick.net/instream/ad_status.js for its ads, and those answer with `IDE`
        // on doubleclick.net: seen in the network panel of any page with a stock YouTube embed; Google
        // names `IDE` as its ad cookie on sites other than its own ("How Google uses cookies",
        // policies.google.com/technologies/cookies).
        alsoSetBy: [YOUTUBE_ID],
        en: 'Third-party ad cookie on doubleclick.net for targeting and measuring ads.',
        de: 'Drittanbieter-Werbecookie auf doubleclick.net zur Ausrichtung und Messung von Anzeigen.',
      }),
      cookie({
        name: 'DSID',
        lifetime: '2 weeks',
        en: 'Links the browser to a signed-in Google account for ad settings.',
        de: 'Verknüpft den Browser mit einem angemeldeten Google-Konto für Werbeeinstellungen.',
      }),
      cookie({
        name: 'test_cookie',
        lifetime: '15 minutes',
        en: 'Checks whether the browser accepts cookies on doubleclick.net.',
        de: 'Prüft, ob der Browser Cookies auf doubleclick.net annimmt.',
      }),
      cookie({
        name: '_gcl_dc',
        lifetime: '90 days',
        alsoSetBy: CONVERSION_LINKERS,
        en: 'First-party store of Campaign Manager / DV360 click IDs for conversion attribution.',
        de: 'First-Party-Speicher für Klick-IDs aus Campaign Manager / DV360 zur Conversion-Zuordnung.',
      }),
    ],
    googleConsentMode: ['ad_storage'],
    signals: {
      scripts: ['ad.doubleclick.net/ddm'],
      iframes: ['fls.doubleclick.net', 'ad.doubleclick.net/ddm'],
    },
  },
  {
    id: 73,
    name: 'Meta Pixel',
    vendor: 'Meta Platforms Ireland Limited',
    purpose: 'cdcbd7c',
    category: 'advertising',
    privacyPolicyUrl: 'https://www.facebook.com/privacy/policy/',
    translations: {
      de_DE: {
        name: 'Meta-Pixel (Facebook-Pixel)',
        description:
          'Meldet Besuche und Aktionen auf der Website an Meta, um Anzeigen auf Facebook und Instagram zu messen, zu optimieren und gezielt auszuspielen.',
      },
      en_US: {
        name: 'Meta Pixel (Facebook Pixel)',
        description:
          'Reports visits and actions on the website to Meta to measure, optimise and target ads on Facebook and Instagram.',
      },
    },
    cookies: [
      cookie({
        name: '_fbp',
        lifetime: '3 months',
        en: 'Browser ID that lets Meta attribute site visits to ads.',
        de: 'Browserkennung, mit der Meta Website-Besuche Anzeigen zuordnet.',
      }),
      cookie({
        name: '_fbc',
        lifetime: '3 months',
        en: 'Keeps the click ID (fbclid) when the visitor arrives from a Meta ad.',
        de: 'Speichert die Klick-ID (fbclid), wenn der Besucher über eine Meta-Anzeige kommt.',
      }),
      cookie({
        name: 'fr',
        lifetime: '3 months',
        en: 'Third-party ad cookie on facebook.com for delivering and measuring ads.',
        de: 'Drittanbieter-Werbecookie auf facebook.com zur Auslieferung und Messung von Anzeigen.',
      }),
    ],
    signals: {
      scripts: ['connect.facebook.net/en_US/fbevents.js', 'connect.facebook.net/signals/'],
      iframes: [],
      beacons: ['facebook.com/tr'],
    },
    domains: ['facebook.com'],
  },
  {
    id: 74,
    name: 'LinkedIn Insight Tag',
    vendor: 'LinkedIn Ireland Unlimited Company',
    purpose: 'cdcbd7c',
    category: 'advertising',
    privacyPolicyUrl: 'https://www.linkedin.com/legal/privacy-policy',
    translations: {
      de_DE: {
        name: 'LinkedIn Insight Tag',
        description:
          'Misst Conversions aus LinkedIn-Kampagnen, liefert Zielgruppen-Statistiken und ermöglicht Retargeting auf LinkedIn.',
      },
      en_US: {
        name: 'LinkedIn Insight Tag',
        description:
          'Measures conversions from LinkedIn campaigns, provides audience insights and enables retargeting on LinkedIn.',
      },
    },
    cookies: [
      cookie({
        name: 'li_sugr',
        lifetime: '3 months',
        en: 'Browser ID used for matching when third-party cookies are unavailable.',
        de: 'Browserkennung für den Abgleich, wenn Drittanbieter-Cookies nicht verfügbar sind.',
      }),
      cookie({
        name: 'li_fat_id',
        lifetime: '30 days',
        en: 'Member click ID used for conversion attribution.',
        de: 'Klickkennung eines Mitglieds für die Zuordnung von Conversions.',
      }),
      cookie({
        name: 'bcookie',
        lifetime: '1 year',
        en: 'Third-party browser ID on linkedin.com.',
        de: 'Drittanbieter-Browserkennung auf linkedin.com.',
      }),
      cookie({
        name: 'lidc',
        lifetime: '1 day',
        en: 'Routes requests to the right LinkedIn data centre.',
        de: 'Leitet Anfragen an das passende LinkedIn-Rechenzentrum.',
      }),
      cookie({
        name: 'UserMatchHistory',
        lifetime: '30 days',
        en: 'Syncs the LinkedIn ad ID with partner systems.',
        de: 'Gleicht die LinkedIn-Werbe-ID mit Partnersystemen ab.',
      }),
      cookie({
        name: 'AnalyticsSyncHistory',
        lifetime: '30 days',
        en: 'Time of the last sync with the ln_or cookie.',
        de: 'Zeitpunkt des letzten Abgleichs mit dem Cookie ln_or.',
      }),
      cookie({
        name: 'ln_or',
        lifetime: '1 day',
        en: 'Decides whether audience analytics should be applied for this visit.',
        de: 'Legt fest, ob für diesen Besuch Zielgruppenanalysen durchgeführt werden.',
      }),
    ],
    signals: { scripts: ['snap.licdn.com'], iframes: [] },
    domains: ['linkedin.com'],
  },
  {
    id: 75,
    name: 'TikTok Pixel',
    vendor: 'TikTok Technology Limited',
    purpose: 'cdcbd7c',
    category: 'advertising',
    privacyPolicyUrl: 'https://www.tiktok.com/legal/page/eea/privacy-policy/en',
    translations: {
      de_DE: {
        name: 'TikTok-Pixel',
        description:
          'Meldet Aktionen auf der Website an TikTok, um Werbekampagnen zu messen, zu optimieren und Zielgruppen für Retargeting zu bilden.',
      },
      en_US: {
        name: 'TikTok Pixel',
        description:
          'Reports website actions to TikTok to measure and optimise ad campaigns and to build retargeting audiences.',
      },
    },
    cookies: [
      cookie({
        name: '_ttp',
        lifetime: '13 months',
        en: 'Visitor ID used to match website events with TikTok ads.',
        de: 'Besucherkennung, um Website-Ereignisse TikTok-Anzeigen zuzuordnen.',
      }),
      cookie({
        name: '_tt_enable_cookie',
        lifetime: '13 months',
        en: 'Checks whether the browser accepts the pixel cookies.',
        de: 'Prüft, ob der Browser die Pixel-Cookies annimmt.',
      }),
    ],
    signals: { scripts: ['analytics.tiktok.com'], iframes: [] },
  },
  {
    id: 76,
    name: 'X (Twitter) Pixel',
    vendor: 'Twitter International Unlimited Company',
    purpose: 'cdcbd7c',
    category: 'advertising',
    privacyPolicyUrl: 'https://x.com/en/privacy',
    translations: {
      de_DE: {
        name: 'X-Pixel (Twitter)',
        description:
          'Conversion-Tracking und Zielgruppenbildung für Werbekampagnen auf X (ehemals Twitter).',
      },
      en_US: {
        name: 'X (Twitter) Pixel',
        description: 'Conversion tracking and audience building for ad campaigns on X (formerly Twitter).',
      },
    },
    cookies: [
      cookie({
        name: '_twclid',
        lifetime: 'persistent',
        en: 'Keeps the X click ID (twclid) so conversions can be attributed to an ad.',
        de: 'Speichert die X-Klick-ID (twclid), damit Conversions einer Anzeige zugeordnet werden können.',
      }),
      cookie({
        name: 'muc_ads',
        lifetime: '2 years',
        en: 'Third-party ad ID on t.co for measuring and targeting X ads.',
        de: 'Drittanbieter-Werbekennung auf t.co zur Messung und Ausrichtung von X-Anzeigen.',
      }),
      cookie({
        name: 'personalization_id',
        lifetime: '2 years',
        en: 'Third-party cookie of X that links website visits to X for ad personalisation.',
        de: 'Drittanbieter-Cookie von X, das Website-Besuche für personalisierte Werbung mit X verknüpft.',
      }),
      cookie({
        name: 'guest_id_ads',
        lifetime: '2 years',
        en: 'Ad ID of logged-out X visitors.',
        de: 'Werbekennung nicht angemeldeter X-Besucher.',
      }),
    ],
    signals: { scripts: ['static.ads-twitter.com'], iframes: [] },
    domains: ['t.co', 'twitter.com', 'x.com'],
  },
  {
    id: 77,
    name: 'Pinterest Tag',
    vendor: 'Pinterest Europe Limited',
    purpose: 'cdcbd7c',
    category: 'advertising',
    privacyPolicyUrl: 'https://policy.pinterest.com/privacy-policy',
    translations: {
      de_DE: {
        name: 'Pinterest-Tag',
        description:
          'Misst Conversions aus Pinterest-Anzeigen und ermöglicht es, Website-Besucher auf Pinterest erneut anzusprechen.',
      },
      en_US: {
        name: 'Pinterest Tag',
        description: 'Measures conversions from Pinterest ads and lets advertisers reach website visitors again on Pinterest.',
      },
    },
    cookies: [
      cookie({
        name: '_pin_unauth',
        lifetime: '1 year',
        en: 'ID for visitors who are not logged in to Pinterest, used for attribution.',
        de: 'Kennung für nicht bei Pinterest angemeldete Besucher, zur Zuordnung von Conversions.',
      }),
      cookie({
        name: '_epik',
        lifetime: '1 year',
        en: 'Keeps the click ID of a Pinterest ad.',
        de: 'Speichert die Klick-ID einer Pinterest-Anzeige.',
      }),
      cookie({
        name: '_derived_epik',
        lifetime: '1 year',
        en: 'Click ID derived by the tag without URL parameters.',
        de: 'Vom Tag ohne URL-Parameter abgeleitete Klickkennung.',
      }),
      cookie({
        name: '_pinterest_ct_ua',
        lifetime: '1 year',
        en: 'Third-party cookie on ct.pinterest.com that links actions across sites.',
        de: 'Drittanbieter-Cookie auf ct.pinterest.com, das Aktionen websiteübergreifend verknüpft.',
      }),
    ],
    signals: { scripts: ['s.pinimg.com/ct/'], iframes: [] },
    domains: ['pinterest.com'],
  },
  {
    id: 78,
    name: 'Snap Pixel',
    vendor: 'Snap B.V.',
    purpose: 'cdcbd7c',
    category: 'advertising',
    privacyPolicyUrl: 'https://values.snap.com/privacy/privacy-policy',
    translations: {
      de_DE: {
        name: 'Snap-Pixel',
        description: 'Conversion-Tracking und Retargeting für Werbung auf Snapchat.',
      },
      en_US: {
        name: 'Snap Pixel',
        description: 'Conversion tracking and retargeting for advertising on Snapchat.',
      },
    },
    cookies: [
      cookie({
        name: '_scid',
        lifetime: '13 months',
        en: 'Visitor ID used to attribute conversions to Snapchat ads.',
        de: 'Besucherkennung, um Conversions Snapchat-Anzeigen zuzuordnen.',
      }),
      cookie({
        name: '_scid_r',
        lifetime: '13 months',
        en: 'Second copy of the Snap visitor ID.',
        de: 'Zweite Kopie der Snap-Besucherkennung.',
      }),
    ],
    signals: { scripts: ['sc-static.net/scevent.min.js'], iframes: [] },
  },
  {
    id: 79,
    name: 'Microsoft Advertising (UET)',
    vendor: MICROSOFT,
    purpose: 'cdcbd7c',
    category: 'advertising',
    privacyPolicyUrl: MICROSOFT_PRIVACY,
    translations: {
      de_DE: {
        name: 'Microsoft Advertising (UET)',
        description:
          'Universal Event Tracking von Microsoft: misst Conversions aus Bing-Anzeigen und baut Remarketing-Listen auf.',
      },
      en_US: {
        name: 'Microsoft Advertising (UET)',
        description:
          "Microsoft's Universal Event Tracking: measures conversions from Bing ads and builds remarketing lists.",
      },
    },
    cookies: [
      cookie({
        name: '_uetsid',
        lifetime: '1 day',
        en: 'Session ID that connects actions within a visit to an ad click.',
        de: 'Sitzungs-ID, die Aktionen innerhalb eines Besuchs einem Anzeigenklick zuordnet.',
      }),
      cookie({
        name: '_uetvid',
        lifetime: '13 months',
        en: 'Visitor ID for recognising the browser across visits.',
        de: 'Besucher-ID, um den Browser über mehrere Besuche hinweg zu erkennen.',
      }),
      cookie({
        name: '_uetmsclkid',
        lifetime: '90 days',
        en: 'Keeps the Microsoft click ID (msclkid) of an ad click.',
        de: 'Speichert die Microsoft-Klick-ID (msclkid) eines Anzeigenklicks.',
      }),
      cookie({
        name: 'MUID',
        lifetime: '1 year',
        en: 'Microsoft browser ID on bing.com, used across Microsoft services.',
        de: 'Microsoft-Browserkennung auf bing.com, die dienstübergreifend genutzt wird.',
      }),
    ],
    signals: { scripts: ['bat.bing.com'], iframes: [] },
  },
  {
    id: 80,
    name: 'Criteo',
    vendor: 'Criteo SA',
    purpose: 'cdcbd7c',
    category: 'advertising',
    privacyPolicyUrl: 'https://www.criteo.com/privacy/',
    translations: {
      de_DE: {
        name: 'Criteo',
        description:
          'Retargeting-Netzwerk, das Besuchern auf anderen Websites Anzeigen zu Produkten zeigt, die sie sich angesehen haben.',
      },
      en_US: {
        name: 'Criteo',
        description: 'Retargeting network that shows visitors ads on other websites for products they have viewed.',
      },
    },
    cookies: [
      cookie({
        name: 'cto_bundle',
        lifetime: '13 months',
        en: 'First-party bundle of Criteo IDs used to recognise the browser for retargeting.',
        de: 'First-Party-Bündel aus Criteo-Kennungen, um den Browser für Retargeting zu erkennen.',
      }),
      cookie({
        name: 'uid',
        lifetime: '13 months',
        en: 'Third-party Criteo user ID on criteo.com.',
        de: 'Drittanbieter-Nutzerkennung von Criteo auf criteo.com.',
      }),
    ],
    signals: {
      scripts: ['static.criteo.net', 'dynamic.criteo.com'],
      iframes: ['gum.criteo.com'],
    },
  },
  {
    id: 81,
    name: 'Taboola',
    vendor: 'Taboola, Inc.',
    purpose: 'cdcbd7c',
    category: 'advertising',
    privacyPolicyUrl: 'https://www.taboola.com/policies/privacy-policy',
    translations: {
      de_DE: {
        name: 'Taboola',
        description:
          'Native-Advertising-Netzwerk mit Empfehlungsboxen („Das könnte Sie auch interessieren“) und Conversion-Pixel.',
      },
      en_US: {
        name: 'Taboola',
        description: 'Native advertising network with recommendation widgets ("you may also like") and a conversion pixel.',
      },
    },
    cookies: [
      cookie({
        name: 't_gid',
        lifetime: '13 months',
        en: 'Third-party Taboola user ID used to personalise recommendations and ads.',
        de: 'Drittanbieter-Nutzerkennung von Taboola zur Personalisierung von Empfehlungen und Anzeigen.',
      }),
      cookie({
        name: 't_pt_gid',
        lifetime: '1 year',
        en: 'Taboola user ID used by the conversion pixel.',
        de: 'Taboola-Nutzerkennung, die vom Conversion-Pixel verwendet wird.',
      }),
      cookie({
        name: 'taboola_session_id',
        lifetime: 'session',
        en: 'Session ID of the current Taboola visit.',
        de: 'Sitzungskennung des aktuellen Taboola-Besuchs.',
      }),
    ],
    signals: { scripts: ['cdn.taboola.com'], iframes: [] },
  },
  {
    id: 82,
    name: 'Outbrain',
    vendor: 'Outbrain Inc.',
    purpose: 'cdcbd7c',
    category: 'advertising',
    privacyPolicyUrl: 'https://www.outbrain.com/privacy/',
    translations: {
      de_DE: {
        name: 'Outbrain',
        description: 'Native-Advertising-Netzwerk mit Artikel- und Anzeigenempfehlungen sowie Conversion-Pixel.',
      },
      en_US: {
        name: 'Outbrain',
        description: 'Native advertising network with article and ad recommendations and a conversion pixel.',
      },
    },
    cookies: [
      cookie({
        name: 'obuid',
        lifetime: '3 months',
        en: 'Third-party Outbrain user ID used to tailor recommendations and measure clicks.',
        de: 'Drittanbieter-Nutzerkennung von Outbrain, um Empfehlungen anzupassen und Klicks zu messen.',
      }),
    ],
    signals: { scripts: ['widgets.outbrain.com', 'amplify.outbrain.com'], iframes: [] },
  },
  {
    id: 83,
    name: 'AdRoll',
    vendor: 'NextRoll, Inc.',
    purpose: 'cdcbd7c',
    category: 'advertising',
    privacyPolicyUrl: 'https://www.nextroll.com/privacy',
    translations: {
      de_DE: {
        name: 'AdRoll',
        description: 'Retargeting- und Display-Werbung über viele Werbenetzwerke hinweg, mit Conversion-Messung.',
      },
      en_US: {
        name: 'AdRoll',
        description: 'Retargeting and display advertising across many ad networks, with conversion measurement.',
      },
    },
    cookies: [
      cookie({
        name: '__adroll_fpc',
        lifetime: '1 year',
        en: 'First-party AdRoll visitor ID used for retargeting and attribution.',
        de: 'First-Party-Besucherkennung von AdRoll für Retargeting und Zuordnung.',
      }),
      cookie({
        name: '__ar_v4',
        lifetime: '1 year',
        en: 'Records the segments and pixel events triggered for this visitor.',
        de: 'Hält fest, welche Segmente und Pixel-Ereignisse für diesen Besucher ausgelöst wurden.',
      }),
      cookie({
        name: '__adroll',
        lifetime: '13 months',
        en: 'Third-party AdRoll ID on adroll.com.',
        de: 'Drittanbieter-Kennung von AdRoll auf adroll.com.',
      }),
      cookie({
        name: '__adroll_shared',
        lifetime: '13 months',
        en: 'Third-party AdRoll ID shared with advertising partners.',
        de: 'Drittanbieter-Kennung von AdRoll, die mit Werbepartnern geteilt wird.',
      }),
    ],
    signals: { scripts: ['s.adroll.com'], iframes: [] },
  },
  {
    id: 84,
    name: 'Awin',
    vendor: 'AWIN AG',
    purpose: 'cdcbd7c',
    category: 'advertising',
    privacyPolicyUrl: 'https://www.awin.com/gb/privacy',
    translations: {
      de_DE: {
        name: 'Awin',
        description:
          'Affiliate-Netzwerk: ordnet Verkäufe den Partnerseiten zu, über die der Kunde kam, damit diese eine Provision erhalten.',
      },
      en_US: {
        name: 'Awin',
        description:
          'Affiliate network: attributes sales to the partner sites the customer came from, so that they receive a commission.',
      },
    },
    cookies: [
      cookie({
        name: '_aw_m_*',
        lifetime: '1 year',
        en: 'Named after the advertiser ID; stores a reference to the affiliate click for attributing the sale.',
        de: 'Nach der Advertiser-ID benannt; speichert einen Verweis auf den Affiliate-Klick, um den Verkauf zuzuordnen.',
      }),
      cookie({
        name: '_aw_j_*',
        lifetime: '3 months',
        en: 'Named after the advertiser ID; stores a reference to the user journey between partner and shop.',
        de: 'Nach der Advertiser-ID benannt; speichert einen Verweis auf den Weg des Nutzers zwischen Partner und Shop.',
      }),
    ],
    signals: { scripts: ['dwin1.com', 'awin1.com'], iframes: [] },
  },

  // ── Marketing automation ────────────────────────────────────────────────────────────────────
  {
    id: 100,
    name: 'HubSpot Tracking Code',
    vendor: 'HubSpot Ireland Limited',
    purpose: 'a717ff5',
    category: 'analytics',
    privacyPolicyUrl: 'https://legal.hubspot.com/privacy-policy',
    translations: {
      de_DE: {
        name: 'HubSpot-Trackingcode',
        description:
          'Verfolgt Besuche für HubSpots Marketing- und CRM-Software, damit Seitenaufrufe und Formulare einem Kontakt zugeordnet werden können.',
      },
      en_US: {
        name: 'HubSpot Tracking Code',
        description:
          "Tracks visits for HubSpot's marketing and CRM software so that page views and forms can be tied to a contact.",
      },
    },
    cookies: [
      cookie({
        name: '__hstc',
        lifetime: '6 months',
        en: 'Main tracking cookie: visitor token plus timestamps of first, last and current visit and a session count.',
        de: 'Haupt-Tracking-Cookie: Besuchertoken, Zeitpunkte des ersten, letzten und aktuellen Besuchs sowie Sitzungszähler.',
      }),
      cookie({
        name: 'hubspotutk',
        lifetime: '6 months',
        en: 'Visitor token that is sent with form submissions to link the visitor to a contact.',
        de: 'Besuchertoken, das bei Formularübermittlungen mitgeschickt wird, um den Besucher einem Kontakt zuzuordnen.',
      }),
      cookie({
        name: '__hssc',
        lifetime: '30 minutes',
        en: 'Tracks sessions and decides when to start a new one.',
        de: 'Verfolgt Sitzungen und entscheidet, wann eine neue beginnt.',
      }),
      cookie({
        name: '__hssrc',
        lifetime: 'session',
        en: 'Shows whether the browser was restarted, which also starts a new session.',
        de: 'Zeigt an, ob der Browser neu gestartet wurde, was ebenfalls eine neue Sitzung beginnt.',
      }),
      cookie({
        name: '__hs_opt_out',
        lifetime: '6 months',
        en: 'Remembers a declined consent so the banner is not shown again.',
        de: 'Merkt sich eine abgelehnte Einwilligung, damit das Banner nicht erneut erscheint.',
      }),
      cookie({
        name: '__hs_do_not_track',
        lifetime: '6 months',
        en: 'Stops the tracking code from sending any data to HubSpot.',
        de: 'Verhindert, dass der Trackingcode Daten an HubSpot sendet.',
      }),
      cookie({
        name: '__hs_cookie_cat_pref',
        lifetime: '6 months',
        en: 'Stores the cookie categories the visitor consented to.',
        de: 'Speichert die Cookie-Kategorien, denen der Besucher zugestimmt hat.',
      }),
      cookie({
        name: '__hs_initial_opt_in',
        lifetime: '7 days',
        en: 'Prevents the banner from showing on every page in strict consent mode.',
        de: 'Verhindert, dass das Banner im strengen Einwilligungsmodus auf jeder Seite erscheint.',
      }),
    ],
    // The tracking code's page-view pixel: track.hubspot.com/__ptq.gif (track-eu1.… for EU accounts).
    signals: { scripts: ['js.hs-scripts.com', 'js.hs-analytics.net'], iframes: [], beacons: ['hubspot.com/__ptq.gif'] },
  },
  {
    id: 101,
    name: 'Salesforce Marketing Cloud Account Engagement (Pardot)',
    vendor: 'Salesforce, Inc.',
    purpose: 'a717ff5',
    category: 'analytics',
    privacyPolicyUrl: 'https://www.salesforce.com/company/privacy/',
    translations: {
      de_DE: {
        name: 'Salesforce Marketing Cloud Account Engagement (Pardot)',
        description:
          'B2B-Marketing-Automatisierung von Salesforce: verfolgt Besuche, um Interessenten zu bewerten und Kampagnen auszulösen.',
      },
      en_US: {
        name: 'Salesforce Marketing Cloud Account Engagement (Pardot)',
        description:
          "Salesforce's B2B marketing automation: tracks visits to score prospects and trigger campaigns.",
      },
    },
    cookies: [
      cookie({
        name: 'visitor_id*',
        lifetime: '10 years',
        en: 'Visitor ID per account (with a matching -hash cookie) that links visits to a prospect.',
        de: 'Besucher-ID je Konto (mit zugehörigem -hash-Cookie), die Besuche einem Interessenten zuordnet.',
      }),
      cookie({
        name: 'pi_opt_in*',
        lifetime: 'persistent',
        en: "Stores the visitor's tracking opt-in or opt-out choice.",
        de: 'Speichert die Zustimmung oder Ablehnung des Besuchers zum Tracking.',
      }),
      cookie({
        name: 'lpv*',
        lifetime: '30 minutes',
        en: 'Prevents the same page view from being counted twice within a short time.',
        de: 'Verhindert, dass derselbe Seitenaufruf kurz hintereinander doppelt gezählt wird.',
      }),
    ],
    signals: { scripts: ['pardot.com/pd.js'], iframes: [] },
  },
  {
    id: 102,
    name: 'Brevo Tracker',
    vendor: 'Sendinblue SAS (Brevo)',
    purpose: 'a717ff5',
    category: 'analytics',
    privacyPolicyUrl: 'https://www.brevo.com/legal/privacypolicy/',
    translations: {
      de_DE: {
        name: 'Brevo-Tracker (ehemals Sendinblue)',
        description:
          'Erfasst Seitenaufrufe und Ereignisse für Brevos E-Mail- und Marketing-Automatisierung, z. B. für Warenkorb-Erinnerungen.',
      },
      en_US: {
        name: 'Brevo Tracker (formerly Sendinblue)',
        description:
          "Records page views and events for Brevo's e-mail and marketing automation, e.g. for abandoned-cart reminders.",
      },
    },
    cookies: [
      cookie({
        name: 'sib_cuid',
        lifetime: '6 months',
        en: 'Unique visitor ID that links browsing activity to a Brevo contact once known.',
        de: 'Eindeutige Besucher-ID, die das Surfverhalten einem Brevo-Kontakt zuordnet, sobald dieser bekannt ist.',
      }),
    ],
    signals: { scripts: ['sibautomation.com', 'cdn.brevo.com/js/sdk-loader.js'], iframes: [] },
  },
];
