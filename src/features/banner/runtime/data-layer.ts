import type { BannerConfig, BannerService } from '../banner-config.ts';
import { inLocale } from './locale.ts';
import { allServices } from './markers.ts';

/**
 * The events CCM19 pushes to Google Tag Manager's `window.dataLayer`, for a choice the visitor
 * saves and again on every later page: first `CCM19.consentStateChanged` (every embedding by
 * name, true when accepted), then `CCM19.embeddingAccepted` per accepted embedding, then the
 * deprecated `CCM19.cookieAccepted.<cookie>` per cookie of those. The state goes first so that a
 * tag fired by an embedding's event can already read every `ccm19_…` variable.
 */

/** The embedding's name as the operator entered it (what a GTM trigger compares). */
export const embeddingName = (config: BannerConfig, service: BannerService): string =>
  service.name ?? inLocale(service.label, config.locales[0] ?? '') ?? service.id;

export function pushConsentState(config: BannerConfig, accepted: ReadonlySet<string>, initialConsent: boolean): void {
  const dataLayer = (window.dataLayer = window.dataLayer || []);
  const services = allServices(config).map(({ service }) => service);
  const state: Record<string, unknown> = { event: 'CCM19.consentStateChanged', initialConsent };
  for (const service of services) state[`ccm19_${embeddingName(config, service)}`] = accepted.has(service.id);
  dataLayer.push(state);
  const chosen = services.filter((service) => accepted.has(service.id));
  for (const service of chosen) dataLayer.push({ event: 'CCM19.embeddingAccepted', id: service.id, name: embeddingName(config, service) });
  const cookies = new Set(chosen.flatMap((service) => service.cookies.map((cookie) => (cookie.prefix ? `${cookie.name}*` : cookie.name))));
  for (const cookie of cookies) dataLayer.push({ event: `CCM19.cookieAccepted.${cookie}` });
}
