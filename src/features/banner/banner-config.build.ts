import type { Embedding } from '../embeddings/embedding.contract.ts';
import type { Locale } from '../locales/locale.contract.ts';
import { THEME_COLORS, type Theme } from '../themes/theme.contract.ts';
import {
  type BannerCategory,
  type BannerConfig,
  type BannerLocale,
  type BannerService,
  CATEGORY_OF_PURPOSE,
  type CategoryKey,
  type PurposeId,
  type StoredName,
} from './banner-config.ts';
import { contentHashOf, legalHashOf, manifestOf } from './configuration-manifest.ts';
import type { ChunkName } from './runtime-bundle.ts';
import { withinClientFeatures } from './client-features.ts';
import { consentSharing } from './consent-sharing.build.ts';
import { gppPart } from './gpp.build.ts';
import { buildTcfSettings, type TcfServing } from './tcf-settings.build.ts';
import { tcfTexts } from './tcf-texts.build.ts';
import { matchLocale } from './locale-match.ts';
import { themeModesCss, themeModesOf } from './theme-modes.build.ts';
import { embeddingPages, quietPages } from './page-rules.build.ts';
import type { PublishedConfiguration } from './published-configuration.ts';
import { escapeHtml } from '../../kernel/html.ts';
import { type Fill, link, linkTarget, placeholderFiller, plainText, safeHtml } from './texts.ts';
import { absoluteOnSite } from './link-address.build.ts';
import { moreInformationLink, providerDetailsLink, storagePeriods } from './more-details.build.ts';

/** What the delivery knows of where things are served. */
export type BannerServing = {
  chunkUrls: Record<ChunkName, string>;
  publicBaseUrl: string;
  /** For a domain whose banner speaks TCF: the CMP its TC strings name and where its vendor list is (tcf-settings.build.ts). */
  tcf?: TcfServing;
  /** The service's registered CMP id (TCF_CMP_ID), for every domain: GPP names it too. */
  cmpId?: number;
};

/** Where the visitor's choice is kept (cookie or web storage key). */
export const CONSENT_NAME = 'ccm_consent';


export { contentRevisionOf, legalRevisionOf } from './configuration-manifest.ts';

/** The banner for one domain; `fixedLocale`: the locale the snippet named (`lang`), if the domain has it active. */
export function buildBannerConfig(
  asPublished: PublishedConfiguration,
  fixedLocale: string | null,
  consentRecordUrl: string | null = null,
  /** Where the banner asks for the visitor's region (`enableOnlyInEu`); null: every visitor is asked. */
  regionUrl: string | null = null,
  /** Where the banner reports scripts no embedding knows, when the domain records them (`recordScriptsOnWebsite`). */
  scriptReportUrl: string | null = null,
  /** Where the on-demand bundles (TCF, GPP) are, and the service's public address; absent: no bundle is offered (tests of the configuration alone). */
  serving?: BannerServing,
): BannerConfig {
  // The client's switched-off features are ignored; the hashes are those of what was published.
  const published = withinClientFeatures(asPublished);
  const { domain, theme } = published;
  const fill = placeholderFiller(new Map(published.placeholders.map((placeholder) => [placeholder.name, placeholder.value])));
  const { manifest } = manifestOf(asPublished);
  const legalRevision = legalHashOf(manifest, asPublished.locales);
  const buttons = new Set(theme?.widgetButtons ?? ['accept', 'decline', 'cpanel']);
  const categories = categoriesOf(published, fill);
  const tcfSettings = buildTcfSettings(published, serving);
  return {
    domainId: domain.id,
    legalRevision,
    contentRevision: contentHashOf(manifest),
    consentRecordUrl,
    scriptReportUrl: domain.recordScriptsOnWebsite ? scriptReportUrl : null,
    // cookieconsent asks again when its stored revision differs; 0 switches that off.
    revision: domain.consentResetOnLegalChange ? Number.parseInt(legalRevision.slice(0, 7), 16) + 1 : 0,
    consent: {
      storage: domain.consentStorage,
      lifetimeDays: domain.consentCookieLifetime,
      secure: domain.consentCookieSecure,
      resetBefore: domain.consentResetBeforeDate ? `${domain.consentResetBeforeDate}T00:00:00.000Z` : null,
      name: CONSENT_NAME,
    },
    showDeclineButton: domain.declineButtonEnforced || buttons.has('decline'),
    showAcceptButton: buttons.has('accept'),
    showSettingsButton: buttons.has('cpanel'),
    locales: published.locales.map((locale) => locale.name),
    // `lang=de` finds `de_DE`, as the page's own `lang` does in the browser.
    fixedLocale: matchLocale(published.locales.map((locale) => locale.name), fixedLocale),
    texts: Object.fromEntries(
      published.locales.map((locale) => [locale.name, { ...localeTexts(published, locale, categories, fill), ...(tcfSettings && { tcf: tcfTexts(locale, fill) }) }]),
    ),
    categories,
    layout: {
      consentModal: modalPlacement(theme?.widgetPosition ?? 'bottom'),
      blockPage: theme?.widgetBlocking ?? false,
      css: themeCss(theme, themeModesCss(themeModesOf(theme))),
      logo: theme?.logoEnabled && theme.logoImage ? imageUrl(theme.logoImage) : null,
      settingsIcon: (theme?.settingsIconEnabled ?? true)
        ? {
            image: theme?.settingsIconImage ? imageUrl(theme.settingsIconImage) : null,
            opens: theme?.settingsIconTarget === 'main' ? 'consent' : 'preferences',
          }
        : null,
    },
    iframes: {
      block: domain.blockIframes,
      mode: domain.iframeBlockMode,
      markers: domain.iframeMarkers,
      consentSwitch: domain.appendConsentSwitchToIframes,
      rememberHosts: domain.rememberIframeConsentPerDomain,
    },
    quietPages: quietPages(published, fill),
    scripts: {
      blockUnknown: domain.blockNewScripts,
      blockFirstParty: domain.blockFirstPartyScripts,
      blockInline: domain.blockInlineScripts,
      evalInline: domain.evalInlineScripts,
      allowedMarkers: domain.allowedScriptMarkers.filter((marker) => marker.trim() !== ''),
      blockedMarkers: domain.blockedScriptMarkers.filter((marker) => marker.trim() !== ''),
    },
    googleConsentMode: published.embeddings.some(usesGoogleConsentMode),
    deleteUnknownCookies: domain.deleteUnknownCookies,
    ...(domain.deleteUnknownCookies && domain.deleteUnknownCookiesForceReload && { reloadAfterDeletingCookies: true }),
    sharing: consentSharing(domain),
    privacySignals: theme?.complyWithDoNotTrack ?? false,
    regionUrl: theme?.enableOnlyInEu ? regionUrl : null,
    ...(tcfSettings && { tcf: tcfSettings }),
    ...gppPart(domain, regionUrl, serving?.chunkUrls.gpp, serving?.cmpId),
    themeModes: themeModesOf(theme),
  };
}

/** Hosts of Google's tags, which read Consent Mode: a service loading them gets its defaults even without types of its own (Tag Manager). */
const GOOGLE_TAG_HOSTS = ['googletagmanager.com', 'google-analytics.com', 'googleadservices.com', 'doubleclick.net', 'googlesyndication.com'];

const usesGoogleConsentMode = (embedding: Embedding) =>
  embedding.googleConsentMode.length > 0 || embedding.scriptMarkers.some((marker) => GOOGLE_TAG_HOSTS.some((host) => marker.includes(host)));

/** The purposes that have an active embedding, `necessary` first, each with its services. */
function categoriesOf(published: PublishedConfiguration, fill: Fill): BannerCategory[] {
  const necessaryNeedsConsent = published.domain.requireConsentForMandatoryEmbeddings;
  return (Object.keys(CATEGORY_OF_PURPOSE) as PurposeId[]).flatMap((purpose) => {
    const embeddings = published.embeddings.filter((embedding) => embedding.purpose === purpose);
    if (embeddings.length === 0) return [];
    const key: CategoryKey = CATEGORY_OF_PURPOSE[purpose];
    return [{ key, purpose, readOnly: key === 'necessary' && !necessaryNeedsConsent, services: embeddings.map((e) => serviceOf(published, e, fill)) }];
  });
}

/**
 * A translated text in the visitor's locale, else the untranslated field, else the same text in
 * any other locale (English first): a service described in one language only is still described.
 */
function inAnyLocale<T extends object>(translations: Record<string, T>, locale: string, field: keyof T, base: string): string {
  const value = (texts: T | undefined) => {
    const text = texts?.[field];
    return typeof text === 'string' ? text.trim() : '';
  };
  return value(translations[locale]) || base.trim() || value(translations.en_US) || Object.values(translations).map(value).find(Boolean) || '';
}

/** `_ga_*` → prefix `_ga_`; a name without a wildcard is exact. */
function storedName(name: string, dynamic: boolean): StoredName {
  const star = name.indexOf('*');
  return dynamic && star >= 0 ? { name: name.slice(0, star), prefix: true } : { name, prefix: false };
}

function serviceOf(published: PublishedConfiguration, embedding: Embedding, fill: Fill): BannerService {
  const stored = (type: string) =>
    embedding.assets.filter((asset) => asset.storageType === type).map((asset) => storedName(asset.name, asset.dynamic));
  const translated = (locale: Locale) => embedding.translations[locale.name] ?? {};
  return {
    id: embedding.id,
    label: Object.fromEntries(published.locales.map((locale) => [locale.name, plainText(fill, inAnyLocale(embedding.translations, locale.name, 'name', embedding.name))])),
    name: embedding.name,
    scriptLoaderGroup: embedding.scriptLoaderGroup,
    scriptHtmlCode: embedding.scriptHtmlCode,
    scriptMarkers: embedding.scriptMarkers,
    iframeMarkers: embedding.iframeMarkers,
    hideIframesUntilConsent: embedding.hideIframesUntilConsent,
    ...embeddingPages(embedding),
    // TCF: the embedding follows its vendor's consent (runtime/tcf/).
    ...(published.domain.tcfEnabled && typeof embedding.tcfVendor === 'number' && { tcfVendor: embedding.tcfVendor }),
    googleConsentMode: embedding.googleConsentMode,
    cookies: stored('cookie'),
    localStorage: stored('localStorage'),
    sessionStorage: stored('sessionStorage'),
    blockedContent: Object.fromEntries(
      published.locales.map((locale) => {
        const own = translated(locale);
        return [
          locale.name,
          {
            // The notice names the service, unless the embedding has a title of its own.
            title: plainText(fill, own.blockedContentTitle || `${inAnyLocale(embedding.translations, locale.name, 'name', embedding.name)}: ${locale.blockedContentTitle}`),
            text: plainText(fill, own.blockedContentText || locale.blockedContentDisclaimer),
            button: plainText(fill, own.blockedContentButtonText || locale.blockedContentConsentButtonText),
            allowAlways: plainText(fill, locale.blockedContentConsentSwitchAllowEmbedding),
            ...(locale.blockedContentConsentSwitchProviderDetails.trim() && {
              details: providerDetailsLink(embedding.id, plainText(fill, locale.blockedContentConsentSwitchProviderDetails)),
            }),
          },
        ];
      }),
    ),
  };
}

type LegalPage = 'imprint' | 'privacyPolicy' | 'accessibility';

/** The banner's texts in one locale, in cookieconsent's words. */
function localeTexts(published: PublishedConfiguration, locale: Locale, categories: BannerCategory[], fill: Fill): BannerLocale {
  const { domain } = published;
  const text = (value: string) => plainText(fill, value);
  const embeddingsById = new Map(published.embeddings.map((embedding) => [embedding.id, embedding]));

  // Legal pages: a link to the page, or (display mode `direct`) a section of the settings with the page's text.
  const pages: { page: LegalPage; shown: boolean; direct: boolean; newTab: boolean }[] = [
    { page: 'imprint', shown: true, direct: domain.imprintDisplayMode === 'direct', newTab: domain.imprintOpenInNewTab },
    { page: 'privacyPolicy', shown: true, direct: domain.privacyPolicyDisplayMode === 'direct', newTab: domain.privacyPolicyOpenInNewTab },
    {
      page: 'accessibility',
      shown: domain.accessibilityLinkEnabled,
      direct: domain.accessibilityDisplayMode === 'direct',
      newTab: false,
    },
  ];
  const footerLinks = pages.flatMap(({ page, shown, direct, newTab }) => {
    if (!shown) return [];
    if (direct) return [`<a href="#CCM.openControlPanel">${text(locale[page])}</a>`];
    const href = linkTarget(fill, locale[`${page}Url`]);
    return href ? [link(href, text(locale[page]), newTab)] : [];
  });
  const directSections = pages
    .filter(({ shown, direct }) => shown && direct)
    .map(({ page }) => ({ title: text(locale[page]), description: safeHtml(fill, locale[`${page}HtmlCode`]) }));

  const serviceDetails = (service: BannerService) => {
    const embedding = embeddingsById.get(service.id)!;
    const field = (name: 'description' | 'whatDataIsCollected' | 'purposeOfDataCollection' | 'legalBasis' | 'placeOfProcessing' | 'privacyPolicyUrl') =>
      inAnyLocale(embedding.translations, locale.name, name, embedding[name]);
    const rows: [string, string][] = [
      [locale.embeddingVendorLabel, embedding.vendor],
      [locale.embeddingDescriptionLabel, field('description')],
      [locale.embeddingWhichDataIsCollectedLabel, field('whatDataIsCollected')],
      [locale.embeddingPurposeOfDataCollectionLabel, field('purposeOfDataCollection')],
      [locale.embeddingLegalBasisLabel, field('legalBasis')],
      [locale.embeddingPlaceOfProcessingLabel, field('placeOfProcessing')],
      [locale.embeddingLifetimeLabel, storagePeriods(embedding, locale.name)],
    ];
    const privacy = absoluteOnSite(linkTarget(fill, field('privacyPolicyUrl')), domain.url);
    const facts = rows.filter(([, value]) => value.trim() !== '').map(([label, value]) => `<li><strong>${text(label)}:</strong> ${text(value)}</li>`);
    if (privacy) facts.push(`<li>${link(privacy, text(locale.embeddingPrivacyPolicyUrlLabel), true)}</li>`);
    return `<p><strong>${service.label[locale.name]}</strong></p>${facts.length ? `<ul>${facts.join('')}</ul>` : ''}`;
  };

  const assetRows = (category: BannerCategory) =>
    category.services.flatMap((service) =>
      embeddingsById.get(service.id)!.assets.map((asset) => {
        return {
          name: escapeHtml(asset.name),
          service: service.label[locale.name]!,
          lifetime: text(inAnyLocale(asset.translations, locale.name, 'lifetime', asset.lifetime)),
          description: text(inAnyLocale(asset.translations, locale.name, 'description', asset.description)),
        };
      }),
    );
  const tableHeaders = {
    name: text(locale.embeddingAssetNameLabel),
    service: text(locale.detailsTitle),
    lifetime: text(locale.embeddingAssetLifetimeLabel),
    description: text(locale.embeddingAssetDescriptionLabel),
  };

  const purposeName = (category: BannerCategory) => text(locale.purposeNames[category.purpose]);
  const purposeDescription = (category: BannerCategory) => text(locale.purposeDescriptions[category.purpose]);

  return {
    translation: {
      consentModal: {
        title: text(locale.widgetTitle),
        description: text(locale.widgetIntroText) + moreInformationLink(text(locale.moreInformationLabel)),
        acceptAllBtn: text(locale.widgetFullConsentButtonText),
        acceptNecessaryBtn: text(locale.widgetDeclineButtonText),
        showPreferencesBtn: text(locale.widgetSettingsButtonText),
        // cookieconsent shows a close icon (which declines) only when it has a label for it.
        ...(published.theme?.widgetCloseButton && { closeIconLabel: text(locale.detailsCloseButtonText) }),
        footer: footerLinks.join('\n'),
      },
      preferencesModal: {
        title: text(locale.categoriesTitle),
        // cookieconsent draws the settings' "accept all" only with a label (`settingsAcceptAllButton`).
        ...((published.theme?.settingsAcceptAllButton ?? true) && { acceptAllBtn: text(locale.categoriesFullConsentButtonText) }),
        acceptNecessaryBtn: text(locale.widgetDeclineButtonText),
        savePreferencesBtn: text(locale.categoriesSaveButtonText),
        closeIconLabel: text(locale.categoriesCancelButtonText),
        sections: [
          { description: text(locale.widgetIntroText) },
          ...categories.map((category) => {
            const rows = assetRows(category);
            return {
              title: purposeName(category),
              description: `${purposeDescription(category)}${category.services.map(serviceDetails).join('')}`,
              linkedCategory: category.key,
              ...(rows.length > 0 && { cookieTable: { caption: purposeName(category), headers: tableHeaders, body: rows } }),
            };
          }),
          ...directSections,
        ],
      },
    },
    settingsButtonLabel: text(locale.changeConsentText),
    blockedIframe: {
      text: text(locale.blockedContentDisclaimer),
      button: text(locale.blockedContentConsentButtonText),
      always: text(locale.blockedContentConsentSwitchShowExternalContent),
    },
    cookieDeclaration: cookieDeclaration(published, locale, categories, fill, { assetRows, tableHeaders, purposeName, purposeDescription, serviceDetails }),
    ...(published.theme?.settingsCheckAndUncheckAllButtons && { checkAll: { on: text(locale.checkAllButtonText), off: text(locale.uncheckAllButtonText) } }),
    ...(locale.questionMarkButtonText.trim() && { questionMark: text(locale.questionMarkButtonText) }),
  };
}

/** The cookie declaration CCM19 documents (`<div class="ccm-cookie-declaration">`): every purpose, service and asset. */
function cookieDeclaration(
  published: PublishedConfiguration,
  locale: Locale,
  categories: BannerCategory[],
  fill: Fill,
  parts: {
    assetRows: (category: BannerCategory) => Record<string, string>[];
    tableHeaders: Record<string, string>;
    purposeName: (category: BannerCategory) => string;
    purposeDescription: (category: BannerCategory) => string;
    serviceDetails: (service: BannerService) => string;
  },
): string {
  const { domain } = published;
  const level = domain.cookieDeclarationTableHeadingStartLevel;
  const heading = (offset: number, content: string) => `<h${level + offset}>${content}</h${level + offset}>`;
  const html: string[] = [];
  if (domain.cookieDeclarationTablePrependIntroText) html.push(`<p>${plainText(fill, locale.widgetIntroText)}</p>`);
  if (domain.cookieDeclarationTablePrependConsentChangeLink) {
    html.push(`<p><a href="#CCM.openControlPanel">${plainText(fill, locale.changeConsentText)}</a></p>`);
  }
  for (const category of categories) {
    html.push(heading(0, parts.purposeName(category)), `<p>${parts.purposeDescription(category)}</p>`);
    for (const service of category.services) html.push(parts.serviceDetails(service));
    const rows = parts.assetRows(category);
    if (rows.length > 0) {
      const keys = Object.keys(parts.tableHeaders);
      html.push(
        `<table><thead><tr>${keys.map((key) => `<th scope="col">${parts.tableHeaders[key]}</th>`).join('')}</tr></thead>` +
          `<tbody>${rows.map((row) => `<tr>${keys.map((key) => `<td>${row[key]}</td>`).join('')}</tr>`).join('')}</tbody></table>`,
      );
    }
  }
  return html.join('\n');
}

/** The theme's `widgetPosition` in cookieconsent's layout and position. */
function modalPlacement(position: Theme['widgetPosition']): BannerConfig['layout']['consentModal'] {
  switch (position) {
    case 'top':
      return { layout: 'bar', position: 'top' };
    case 'center':
      return { layout: 'box', position: 'middle center' };
    case 'bottomleft':
      return { layout: 'box', position: 'bottom left' };
    case 'bottomright':
      return { layout: 'box', position: 'bottom right' };
    default:
      return { layout: 'bar', position: 'bottom' };
  }
}

/** `primaryButtonBackgroundColor` → `--ccm-primary-button-background-color` */
const variableOf = (color: string) => `--ccm-${color.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;

/**
 * The theme as CSS: each of its colours as a variable of its own, the libraries' variables set
 * from them, the decline button coloured apart (cookieconsent gives it the primary look), then
 * the theme's own CSS, which therefore wins.
 */
function themeCss(theme: Theme | null, modesCss: string): string {
  if (!theme) return '';
  const own = THEME_COLORS.map((color) => `${variableOf(color)}:${theme[color]};`).join('');
  const v = (color: (typeof THEME_COLORS)[number]) => `var(${variableOf(color)})`;
  const library = [
    ['--cc-bg', v('windowBackgroundColor')],
    ['--cc-primary-color', v('windowForegroundColor')],
    ['--cc-secondary-color', v('windowForegroundColor')],
    ['--cc-link-color', v('windowLinkColor')],
    ['--cc-separator-border-color', v('windowBorderColor')],
    ['--cc-btn-primary-bg', v('primaryButtonBackgroundColor')],
    ['--cc-btn-primary-color', v('primaryButtonForegroundColor')],
    ['--cc-btn-primary-border-color', v('primaryButtonBorderColor')],
    ['--cc-btn-primary-hover-bg', v('primaryButtonBackgroundColor')],
    ['--cc-btn-primary-hover-color', v('primaryButtonForegroundColor')],
    ['--cc-btn-primary-hover-border-color', v('primaryButtonBorderColor')],
    ['--cc-btn-secondary-bg', v('buttonBackgroundColor')],
    ['--cc-btn-secondary-color', v('buttonForegroundColor')],
    ['--cc-btn-secondary-border-color', v('buttonBorderColor')],
    ['--cc-btn-secondary-hover-bg', v('buttonBackgroundColor')],
    ['--cc-btn-secondary-hover-color', v('buttonForegroundColor')],
    ['--cc-btn-secondary-hover-border-color', v('buttonBorderColor')],
    ['--cc-toggle-on-bg', v('primaryButtonBackgroundColor')],
    ['--im-bg', v('iframeBlockerBackgroundColor')],
    ['--im-color', v('iframeBlockerForegroundColor')],
    ['--im-btn-bg', v('iframeBlockerButtonBackgroundColor')],
    ['--im-btn-color', v('iframeBlockerButtonForegroundColor')],
    ['--im-btn-hover-bg', v('iframeBlockerButtonBackgroundColor')],
    ['--im-btn-s-color', v('iframeBlockerButtonForegroundColor')],
  ]
    .map(([name, value]) => `${name}:${value};`)
    .join('');
  const decline =
    `#cc-main [data-role="necessary"]{background:${v('declineButtonBackgroundColor')};color:${v('declineButtonForegroundColor')};` +
    `border-color:${v('declineButtonBorderColor')};}`;
  // After the libraries' stylesheets, which set their variables on :root too: these win.
  const parts = [`:root{${own}${library}}`, decline];
  if (modesCss) parts.push(modesCss);
  if (theme.customCss) parts.push(theme.customCss);
  if (theme.customCssForIframeBlocker) parts.push(theme.customCssForIframeBlocker);
  return parts.join('\n');
}

/** A stored image (base64 of a PNG or JPEG, checked on the way in) as a `data:` URL. */
const imageUrl = (base64: string) => `data:${base64.startsWith('/9j/') ? 'image/jpeg' : 'image/png'};base64,${base64}`;
