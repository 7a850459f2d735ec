import '@orestbida/iframemanager';
import * as CookieConsent from 'vanilla-cookieconsent';
import { emit, emitAccepted, installCcmApi } from './ccm-api.ts';
import { updateConsent } from './consent-mode.ts';
import { recordChoice } from './consent-record.ts';
import { askParentForConsent, shareConsent } from './consent-sharing.ts';
import { eraseCookie } from './cookies.ts';
import { cookieConsentConfig, labelServices, type ServiceHooks } from './cookieconsent-config.ts';
import { fillCookieDeclarations } from './declaration.ts';
import { HANDOVER, type Handover } from './handover.ts';
import { pushConsentState } from './data-layer.ts';
import { createIframes } from './iframes.ts';
import { forgetHosts } from './iframe-hosts.ts';
import { isQuietPage } from './page-rules.ts';
import { chooseLocale, matchLocale } from './locale.ts';
import { acceptedEverything, allServices, type ServiceRef } from './markers.ts';
import { createReleaser } from './release.ts';
import { eraseUnknownCookies, removeStoredKeys } from './storage.ts';
import { noteSignal, type PrivacySignal, privacySignal } from './privacy-signals.ts';
import { predatesReset, readStoredRecord, validStoredConsent } from './stored-consent.ts';
import { startScriptReport } from './script-report.ts';
import { injectStyles } from './styles.ts';
import { focusInto, makeAccessible } from './accessibility.ts';
import { addLogo, createSettingsButton } from './theme.ts';
import { themeModes } from './theme-modes.ts';
import { addQuestionMarks, openDetailsOnClick } from './details.ts';
import { reloadIfErased } from './unknown-cookies-reload.ts';
import { linkTcf } from './tcf-link.ts';
import { gpcSent, US_OPT_OUT_CATEGORIES } from './us-privacy.ts';
import { saveUsOptOut } from './us-opt-out.ts';

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
  // An imprint or privacy policy page shows no banner and no settings button (a link to the settings still opens them).
  const quiet = isQuietPage(config);
  const settings = createSettingsButton(quiet ? { ...config, layout: { ...config.layout, settingsIcon: null } } : config, config.texts[locale]?.settingsButtonLabel ?? '', (which) =>
    which === 'preferences' ? CookieConsent.showPreferences() : CookieConsent.show(true),
  );
  const modes = themeModes(config, () => locale);

  // Services whose acceptance this page has acted on.
  const taken = new Set<string>();
  // TCF: the TC string of a choice is made before what the choice releases, and before its record.
  const tcf = linkTcf(handover);
  const hooks: ServiceHooks = {
    accepted(ref) {
      if (pageLoaded) tcf.chosen();
      if (taken.has(ref.service.id)) return;
      taken.add(ref.service.id);
      if (pageLoaded) updateConsentMode();
      accepted.add(ref.service.id);
      releaser.loaders(ref.service);
      releaser.blocked(ref.service, managedByCookieConsent);
      releaser.images(ref.service, handover.heldImages);
      releaser.html(ref.service);
      iframes.accept(ref.service.id);
      emitAccepted(config, ref, locale);
    },
    rejected(ref) {
      if (pageLoaded) tcf.chosen();
      taken.delete(ref.service.id);
      if (pageLoaded) updateConsentMode();
      accepted.delete(ref.service.id);
      removeStoredKeys(ref.service);
      forgetHosts(config, [ref.service.id]);
      iframes.reject(ref.service.id);
      handover.reblockIframes();
    },
  };

  // Set while the runtime itself saves "necessary only" for a Do Not Track or GPC signal.
  let signalChoice: PrivacySignal | null = null;
  // A choice made or changed (not a stored one read on a later page): its record goes to the service first.
  const afterChoice = (initialConsent: boolean) => {
    tcf.chosen();
    recordChoice(config, locale, signalChoice);
    noteSignal(signalChoice);
    const madeForVisitor = signalChoice !== null;
    signalChoice = null;
    const chosen = currentlyAccepted();
    // "Reject all" (or nothing but what is necessary): the iframe hosts the visitor allowed go too.
    if (chosen.every(({ category }) => config.categories.some((c) => c.readOnly && c.key === category))) forgetHosts(config);
    accepted.clear();
    chosen.forEach(({ service }) => accepted.add(service.id));
    // cookieconsent calls onAccept only for services whose state changed: never for a read-only category's.
    chosen.forEach(hooks.accepted);
    for (const { service } of services.values()) if (!accepted.has(service.id)) removeStoredKeys(service);
    if (acceptedEverything(config, accepted)) releaser.unknown(config.scripts.evalInline);
    updateConsentMode();
    if (config.deleteUnknownCookies) reloadIfErased(config, eraseUnknownCookies(config), madeForVisitor);
    settings.show();
    pushConsentState(config, accepted, initialConsent);
    emit('ccm19ConsentChanged', {
      categories: CookieConsent.getUserPreferences().acceptedCategories,
      services: chosen.map(({ service }) => service.id),
    });
  };

  const ccConfig = cookieConsentConfig(config, locale, hooks, {
    onFirstConsent: () => afterChoice(true),
    onChange: () => afterChoice(false),
    onModalReady: ({ modalName, modal }) => {
      if (modalName === 'consentModal') addLogo(config, modal);
      modes.ready(modalName, modal);
      if (modalName === 'preferencesModal') addQuestionMarks(config, modal, locale);
      tcf.modalReady(modalName, modal);
      makeAccessible(modal);
    },
    onModalShow: ({ modalName }) => {
      modes.shown(modalName);
      tcf.shown();
      const modal = document.querySelector<HTMLElement>(modalName === 'consentModal' ? '#cc-main .cm' : '#cc-main .pm');
      if (modal) focusInto(modal);
    },
    onModalHide: ({ modalName }) => {
      if (modalName === 'consentModal') settings.show();
      const open = document.documentElement.classList;
      if (!open.contains('show--consent') && !open.contains('show--preferences')) emit('ccm19WidgetClosed');
    },
  });

  if (CRAWLER.test(navigator.userAgent) || quiet) ccConfig.autoShow = false;
  // Do Not Track / GPC: "necessary only" without a banner, unless the visitor has chosen already.
  const signal = config.privacySignals && !validStoredConsent(config) ? privacySignal() : null;
  if (signal) ccConfig.autoShow = false;
  // enableOnlyInEu: outside the region, a visitor without a choice or a signal gets every service
  // and no banner (as CCM19 does), but nothing is stored or recorded: no one chose.
  let outside = false;
  const regionKnown = (signal ? undefined : handover.region)?.then((asked) => {
    outside = !asked;
    if (outside) ccConfig.autoShow = false;
  });
  // usPrivacyModel opt-out: a US visitor without a choice is not asked either; Global Privacy
  // Control withholds what the Do-Not-Sell control would (us-privacy.ts), again nothing stored.
  let withheld: readonly string[] = [];
  const usKnown = (signal ? undefined : handover.usVisitor)?.then((us) => {
    if (!us) return;
    outside = true;
    ccConfig.autoShow = false;
    if (gpcSent()) withheld = US_OPT_OUT_CATEGORIES;
  });
  handover.saveUsOptOut = () => saveUsOptOut(config);
  const acceptOutsideRegion = () => {
    for (const ref of services.values()) if (!withheld.includes(ref.category)) hooks.accepted(ref);
    releaser.withoutConsent(accepted, new Set(config.categories.map((category) => category.key).filter((key) => !withheld.includes(key))));
    if (acceptedEverything(config, accepted)) releaser.unknown(config.scripts.evalInline);
    if (config.googleConsentMode) updateConsent(config, accepted);
    settings.show();
  };

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
  installCcmApi(config, () => locale, switchLocale, shareConsent(config, () => readStoredRecord(config.consent)), () => (outside ? accepted : null));

  iframes.start(handover.blocked.splice(0));
  handover.onLate = (item) => {
    if (!(item instanceof HTMLScriptElement)) return iframes.late(item);
    const group = item.getAttribute('data-ccm-loader-group');
    for (const { service } of services.values()) {
      if (group && service.scriptLoaderGroup === group && accepted.has(service.id)) releaser.loaders(service, item);
    }
  };
  fillCookieDeclarations(config, locale);
  openDetailsOnClick(config);
  startScriptReport(config);

  // Services of read-only categories need no consent.
  for (const ref of services.values()) if (config.categories.some((category) => category.readOnly && category.key === ref.category)) hooks.accepted(ref);

  document.querySelectorAll('script[data-category]').forEach((script) => managedByCookieConsent.add(script));
  // A page framed by another site of the domain's takes the consent given there, before cookieconsent reads it.
  void askParentForConsent(config, !!validStoredConsent(config)).then(() => Promise.all([regionKnown, usKnown, tcf.ready])).then(() => CookieConsent.run(ccConfig)).then(() => {
    if (outside && !CookieConsent.validConsent()) acceptOutsideRegion();
    pageLoaded = true;
    // (A consent the framing page handed over meanwhile stands.)
    if (signal && !CookieConsent.validConsent()) {
      signalChoice = signal;
      CookieConsent.acceptCategory([]);
    } else if (CookieConsent.validConsent()) {
      settings.show();
      pushConsentState(config, new Set(currentlyAccepted().map(({ service }) => service.id)), false);
    }
    modes.started();
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
