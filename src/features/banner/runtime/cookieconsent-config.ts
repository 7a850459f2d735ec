import type * as CookieConsent from 'vanilla-cookieconsent';
import { consentCookieDomain } from './consent-sharing.ts';
import type { BannerConfig, BannerLocale, StoredName } from '../banner-config.ts';
import { inLocale } from './locale.ts';
import type { ServiceRef } from './markers.ts';

type Config = CookieConsent.CookieConsentConfig;
export type Callbacks = Pick<Config, 'onFirstConsent' | 'onConsent' | 'onChange' | 'onModalReady' | 'onModalShow' | 'onModalHide'>;
export type ServiceHooks = { accepted(ref: ServiceRef): void; rejected(ref: ServiceRef): void };

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export const cookieItem = (stored: StoredName): CookieConsent.CookieItem => ({
  name: stored.prefix ? new RegExp(`^${escapeRegExp(stored.name)}`) : stored.name,
});

/** The locale's translation, without the first-layer buttons the domain does not show. */
function translation(config: BannerConfig, texts: BannerLocale): CookieConsent.Translation {
  const consentModal = { ...texts.translation.consentModal };
  if (!config.showAcceptButton) delete consentModal.acceptAllBtn;
  if (!config.showDeclineButton) delete consentModal.acceptNecessaryBtn;
  if (!config.showSettingsButton) delete consentModal.showPreferencesBtn;
  return { ...texts.translation, consentModal };
}

/** Service labels in the locale (cookieconsent reads them when it draws the preferences). */
export function labelServices(config: BannerConfig, categories: Config['categories'], locale: string): void {
  for (const category of config.categories) {
    for (const service of category.services) {
      const target = categories[category.key]?.services?.[service.id];
      if (target) target.label = inLocale(service.label, locale) ?? service.id;
    }
  }
}

/**
 * vanilla-cookieconsent's configuration for the domain, in one locale. `sessionStorage` has no
 * counterpart there: the consent is kept in a session cookie instead (no expiry: it ends with
 * the browser session).
 */
export function cookieConsentConfig(config: BannerConfig, locale: string, hooks: ServiceHooks, callbacks: Callbacks): Config {
  const { consent, layout } = config;
  const categories: Config['categories'] = {};
  for (const category of config.categories) {
    const services: Record<string, CookieConsent.Service> = {};
    for (const service of category.services) {
      const ref: ServiceRef = { service, category: category.key };
      services[service.id] = {
        cookies: service.cookies.map(cookieItem),
        onAccept: () => hooks.accepted(ref),
        onReject: () => hooks.rejected(ref),
      };
    }
    categories[category.key] = {
      enabled: category.readOnly,
      readOnly: category.readOnly,
      services,
      autoClear: { cookies: category.services.flatMap((service) => service.cookies.map(cookieItem)) },
    };
  }
  labelServices(config, categories, locale);
  // The visitor's locale only; the others are there for CCM.switchLocale, made when asked for.
  const translations: Config['language']['translations'] = {};
  for (const [name, texts] of Object.entries(config.texts)) {
    translations[name] = name === locale ? translation(config, texts) : () => translation(config, texts);
  }
  const sharedCookieDomain = consentCookieDomain(config.sharing);
  return {
    mode: 'opt-in',
    // Browsers driven by automation (navigator.webdriver: the service's own scanner, tests,
    // accessibility tools) get the banner; search engines' crawlers do not (runtime.ts).
    hideFromBots: false,
    revision: config.revision,
    manageScriptTags: true,
    autoClearCookies: true,
    disablePageInteraction: layout.blockPage,
    cookie: {
      name: consent.name,
      expiresAfterDays: consent.storage === 'sessionStorage' ? 0 : consent.lifetimeDays,
      secure: consent.secure && location.protocol === 'https:',
      sameSite: 'Lax',
      useLocalStorage: consent.storage === 'localStorage',
      ...(sharedCookieDomain ? { domain: sharedCookieDomain } : {}),
    },
    guiOptions: {
      consentModal: {
        layout: layout.consentModal.layout,
        position: layout.consentModal.position as CookieConsent.ConsentModalPosition,
        equalWeightButtons: true,
      },
      preferencesModal: { equalWeightButtons: true },
    },
    categories,
    language: { default: locale, translations },
    ...callbacks,
  };
}
