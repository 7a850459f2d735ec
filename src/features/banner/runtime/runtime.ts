import '@orestbida/iframemanager';
import * as CookieConsent from 'vanilla-cookieconsent';
import { embeddingDetail, emit, installCcmApi } from './ccm-api.ts';
import { updateConsent } from './consent-mode.ts';
import { recordChoice } from './consent-record.ts';
import { eraseCookie } from './cookies.ts';
import { cookieConsentConfig, labelServices, type ServiceHooks } from './cookieconsent-config.ts';
import { fillCookieDeclarations } from './declaration.ts';
import { HANDOVER, type Handover } from './handover.ts';
import { createIframes } from './iframes.ts';
import { chooseLocale, matchLocale } from './locale.ts';
import { acceptedEverything, allServices, type ServiceRef } from './markers.ts';
import { createReleaser } from './release.ts';
import { eraseUnknownCookies, removeStoredKeys } from './storage.ts';
import { predatesReset, readStoredRecord } from './stored-consent.ts';
import { injectStyles } from './styles.ts';
import { focusInto, makeAccessible } from './accessibility.ts';
import { addLogo, createSettingsButton } from './theme.ts';

/**
 * The banner: vanilla-cookieconsent and iframemanager, configured from the domain's
 * configuration, taking over what the bootstrap blocked (window.__ccmBanner).
 */

const whenParsed = (run: () => void) =>
  document.readyState === 'loading' ? document.addEventListener('DOMContentLoaded', run, { once: true }) : run();

function start(handover: Handover): void {
  const { config, accepted } = handover;
  const services = new Map(allServices(config).map((ref) => [ref.service.id, ref]));
  let locale = chooseLocale(config, document.documentElement.lang, navigator.languages);

  const record = readStoredRecord(config.consent);
  if (record && predatesReset(record, config.consent.resetBefore)) {
    if (config.consent.storage === 'localStorage') localStorage.removeItem(config.consent.name);
    else eraseCookie(config.consent.name);
  }

  const currentlyAccepted = (): ServiceRef[] =>
    [...services.values()].filter(({ service, category }) => CookieConsent.validConsent() && CookieConsent.acceptedService(service.id, category));

  // The Consent Mode update of a choice goes out before the first script it releases (the
  // service callbacks run before cookieconsent's own choice callbacks), once per choice.
  let pageLoaded = false;
  let updatedThisChoice = false;
  const updateConsentMode = () => {
    if (!config.googleConsentMode || updatedThisChoice) return;
    updatedThisChoice = true;
    queueMicrotask(() => (updatedThisChoice = false));
    updateConsent(config, new Set(currentlyAccepted().map(({ service }) => service.id)));
  };

  const alwaysAllow = (serviceId: string) => {
    const ref = services.get(serviceId);
    if (!ref) return;
    const inCategory = CookieConsent.getUserPreferences().acceptedServices[ref.category] ?? [];
    CookieConsent.acceptService([...inCategory, serviceId], ref.category);
  };

  const releaser = createReleaser();
  const iframes = createIframes(config, locale, alwaysAllow, (serviceId) => accepted.has(serviceId));
  const managedByCookieConsent = new WeakSet<Element>();
  const settings = createSettingsButton(config, config.texts[locale]?.settingsButtonLabel ?? '', (which) =>
    which === 'preferences' ? CookieConsent.showPreferences() : CookieConsent.show(true),
  );

  // Services whose acceptance this page has acted on.
  const taken = new Set<string>();
  const hooks: ServiceHooks = {
    accepted(ref) {
      if (taken.has(ref.service.id)) return;
      taken.add(ref.service.id);
      if (pageLoaded) updateConsentMode();
      accepted.add(ref.service.id);
      releaser.loaders(ref.service);
      releaser.blocked(ref.service, managedByCookieConsent);
      releaser.images(ref.service, handover.heldImages);
      releaser.html(ref.service);
      iframes.accept(ref.service.id);
      emit('ccm19EmbeddingAccepted', embeddingDetail(config, ref, locale));
    },
    rejected(ref) {
      taken.delete(ref.service.id);
      if (pageLoaded) updateConsentMode();
      accepted.delete(ref.service.id);
      removeStoredKeys(ref.service);
      iframes.reject(ref.service.id);
      handover.reblockIframes();
    },
  };

  // A choice made or changed (not a stored one read on a later page): its record goes to the service first.
  const afterChoice = () => {
    recordChoice(config, locale);
    const chosen = currentlyAccepted();
    accepted.clear();
    chosen.forEach(({ service }) => accepted.add(service.id));
    // cookieconsent calls onAccept only for services whose state changed: never for a read-only category's.
    chosen.forEach(hooks.accepted);
    for (const { service } of services.values()) if (!accepted.has(service.id)) removeStoredKeys(service);
    if (acceptedEverything(config, accepted)) releaser.unknown(config.scripts.evalInline);
    updateConsentMode();
    if (config.deleteUnknownCookies) eraseUnknownCookies(config);
    settings.show();
    emit('ccm19ConsentChanged', {
      categories: CookieConsent.getUserPreferences().acceptedCategories,
      services: chosen.map(({ service }) => service.id),
    });
  };

  const ccConfig = cookieConsentConfig(config, locale, hooks, {
    onFirstConsent: afterChoice,
    onChange: afterChoice,
    onModalReady: ({ modalName, modal }) => {
      if (modalName === 'consentModal') addLogo(config, modal);
      makeAccessible(modal);
    },
    onModalShow: ({ modalName }) => {
      const modal = document.querySelector<HTMLElement>(modalName === 'consentModal' ? '#cc-main .cm' : '#cc-main .pm');
      if (modal) focusInto(modal);
    },
    onModalHide: ({ modalName }) => {
      if (modalName === 'consentModal') settings.show();
      const open = document.documentElement.classList;
      if (!open.contains('show--consent') && !open.contains('show--preferences')) emit('ccm19WidgetClosed');
    },
  });

  if (CRAWLER.test(navigator.userAgent)) ccConfig.autoShow = false;

  const switchLocale = async (name: string) => {
    const target = matchLocale(config.locales, name);
    if (!target) return false;
    locale = target;
    labelServices(config, ccConfig.categories, target);
    const switched = await CookieConsent.setLanguage(target, true);
    fillCookieDeclarations(config, target);
    settings.relabel(config.texts[target]?.settingsButtonLabel ?? '');
    return switched;
  };
  installCcmApi(config, () => locale, switchLocale);

  iframes.start(handover.blocked.splice(0));
  handover.onLate = (item) => {
    if (!(item instanceof HTMLScriptElement)) return iframes.late(item);
    const group = item.getAttribute('data-ccm-loader-group');
    for (const { service } of services.values()) {
      if (group && service.scriptLoaderGroup === group && accepted.has(service.id)) releaser.loaders(service, item);
    }
  };
  fillCookieDeclarations(config, locale);

  // Services of read-only categories need no consent.
  for (const ref of services.values()) if (config.categories.some((category) => category.readOnly && category.key === ref.category)) hooks.accepted(ref);

  document.querySelectorAll('script[data-category]').forEach((script) => managedByCookieConsent.add(script));
  void CookieConsent.run(ccConfig).then(() => {
    pageLoaded = true;
    if (CookieConsent.validConsent()) settings.show();
    emit('ccm19WidgetLoaded');
  });
}

/**
 * Search engines' and link previews' crawlers, by what their user agents say of themselves (a
 * `…bot/` version, a `+https://` info address, a few known names): they get no banner (it
 * would be indexed), but blocked content still shows its notice with a way to load it. A phone
 * such as a "CUBOT" is no crawler.
 */
export const CRAWLER = /(?:bot|spider|crawler)\/|\+https?:\/\/|\b(?:slurp|teoma|facebookexternalhit|petalbot|bytespider)\b/i;

const handover = window[HANDOVER];
if (handover) {
  injectStyles(handover.config.layout.css);
  whenParsed(() => start(handover));
}
