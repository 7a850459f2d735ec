import type { BannerConfig, BannerService, CategoryKey } from '../banner-config.ts';

export type ServiceRef = { service: BannerService; category: CategoryKey };

const contains = (text: string, markers: string[]) => markers.some((marker) => marker !== '' && text.includes(marker));

export const allServices = (config: BannerConfig): ServiceRef[] =>
  config.categories.flatMap((category) => category.services.map((service) => ({ service, category: category.key })));

/** The first service not accepted whose `scriptMarkers` occur in the script's address or text. */
export function blockingScriptService(config: BannerConfig, accepted: Set<string>, source: string): ServiceRef | null {
  return allServices(config).find((ref) => !accepted.has(ref.service.id) && contains(source, ref.service.scriptMarkers)) ?? null;
}

/**
 * Whether an iframe at `src` may load now, following the domain's iframe rules, and the
 * service it belongs to (null: none, or only the domain's markers matched).
 */
export function iframeVerdict(config: BannerConfig, accepted: Set<string>, src: string): { blocked: boolean; service: ServiceRef | null; listed: boolean } {
  const matching = allServices(config).filter((ref) => contains(src, ref.service.iframeMarkers));
  const refused = matching.find((ref) => !accepted.has(ref.service.id));
  const listed = contains(src, config.iframes.markers);
  if (!config.iframes.block) return { blocked: false, service: matching[0] ?? null, listed };
  if (refused) return { blocked: true, service: refused, listed };
  if (matching.length > 0) return { blocked: false, service: matching[0]!, listed };
  return { blocked: config.iframes.mode === 'whitelist' ? !listed : listed, service: null, listed };
}
