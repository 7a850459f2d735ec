import * as CookieConsent from 'vanilla-cookieconsent';
import type { BannerConfig } from '../banner-config.ts';
import type { SharingApi } from './consent-sharing.ts';
import { inLocale } from './locale.ts';
import { allServices, type ServiceRef } from './markers.ts';

export type CcmApi = {
  readonly acceptedCookies: string[];
  readonly acceptedEmbeddings: { id: string; name: string }[];
  readonly consent: boolean;
  readonly fullConsentGiven: boolean;
  readonly ucid: string | null;
  readonly version: string;
  availableLocales(): string[];
  openWidget(): void;
  closeWidget(): void;
  openControlPanel(): void;
  closeControlPanel(): void;
  switchLocale(name: string): Promise<boolean>;
} & SharingApi;

declare global {
  interface Window {
    CCM?: CcmApi;
  }
}

export const emit = (name: string, detail: unknown = null) => window.dispatchEvent(new CustomEvent(name, { detail }));

/** CCM19's `ccm19EmbeddingAccepted` detail for a service. */
export const embeddingDetail = (config: BannerConfig, { service, category }: ServiceRef, locale: string) => ({
  name: inLocale(service.label, locale) ?? service.id,
  code: service.id,
  purpose: category,
  mandatory: config.categories.some((candidate) => candidate.key === category && candidate.readOnly),
});

/**
 * What a service's acceptance tells the page: `ccm19EmbeddingAccepted`, then the deprecated
 * `ccm19CookieAccepted` per cookie it declares (`code`: the embedding's id, which has them).
 */
export function emitAccepted(config: BannerConfig, ref: ServiceRef, locale: string): void {
  const detail = embeddingDetail(config, ref, locale);
  emit('ccm19EmbeddingAccepted', detail);
  for (const cookie of ref.service.cookies) emit('ccm19CookieAccepted', { ...detail, name: cookie.prefix ? `${cookie.name}*` : cookie.name });
}

/**
 * `window.CCM` as CCM19 documents it, over cookieconsent's state (its properties are getters,
 * so they always tell the current consent), and the `#CCM.…` links. `runningUnasked`: the
 * services that run without a choice (`enableOnlyInEu`, outside the region), or null: then
 * `acceptedEmbeddings` and `acceptedCookies` tell them until the visitor chooses (`consent` stays false).
 */
export function installCcmApi(
  config: BannerConfig,
  locale: () => string,
  switchLocale: (name: string) => Promise<boolean>,
  sharing: SharingApi,
  runningUnasked: () => Set<string> | null = () => null,
): void {
  const accepted = () => {
    if (CookieConsent.validConsent()) return allServices(config).filter(({ service, category }) => CookieConsent.acceptedService(service.id, category));
    const running = runningUnasked();
    return running ? allServices(config).filter(({ service }) => running.has(service.id)) : [];
  };
  const api: CcmApi = {
    get acceptedCookies() {
      return accepted().flatMap(({ service }) => service.cookies.map((cookie) => (cookie.prefix ? `${cookie.name}*` : cookie.name)));
    },
    get acceptedEmbeddings() {
      return accepted().map(({ service }) => ({ id: service.id, name: inLocale(service.label, locale()) ?? service.id }));
    },
    get consent() {
      return CookieConsent.validConsent();
    },
    get fullConsentGiven() {
      return CookieConsent.validConsent() && config.categories.every((category) => CookieConsent.acceptedCategory(category.key));
    },
    get ucid() {
      return CookieConsent.validConsent() ? (CookieConsent.getCookie('consentId') ?? null) : null;
    },
    version: __CCM_RUNTIME_VERSION__,
    availableLocales: () => [...config.locales],
    openWidget: () => CookieConsent.show(true),
    closeWidget: () => CookieConsent.hide(),
    openControlPanel: () => CookieConsent.showPreferences(),
    closeControlPanel: () => CookieConsent.hidePreferences(),
    switchLocale,
    get crossDomainConsentString() {
      return sharing.crossDomainConsentString;
    },
    navigate: sharing.navigate,
  };
  window.CCM = api;

  const actions: Record<string, () => void> = {
    '#CCM.openWidget': api.openWidget,
    '#CCM.closeWidget': api.closeWidget,
    '#CCM.openControlPanel': api.openControlPanel,
    '#CCM.closeControlPanel': api.closeControlPanel,
  };
  document.addEventListener('click', (event) => {
    const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
    const action = link instanceof HTMLAnchorElement ? actions[link.hash] : undefined;
    if (!action) return;
    event.preventDefault();
    action();
  });
}
