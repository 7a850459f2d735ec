import { sharesConsent } from './consent-sharing.ts';
import type { BannerConfig, BannerService, CategoryKey } from '../banner-config.ts';
import { onOwnSite } from './site.ts';

export type ServiceRef = { service: BannerService; category: CategoryKey };

const contains = (text: string, markers: string[]) => markers.some((marker) => marker !== '' && text.includes(marker));

export const allServices = (config: BannerConfig): ServiceRef[] =>
  config.categories.flatMap((category) => category.services.map((service) => ({ service, category: category.key })));

/** Whether what the service claims may load on this page: accepted, and not kept off the page (`offPage`). */
const allowedHere = (ref: ServiceRef, accepted: Set<string>) => !ref.service.offPage && accepted.has(ref.service.id);

/** Whether the visitor accepted every service the banner offers: only then may scripts no service claims run. */
export const acceptedEverything = (config: BannerConfig, accepted: Set<string>): boolean =>
  allServices(config).every(({ service }) => accepted.has(service.id));

/**
 * Why a script is held: a service not accepted claims it (`service`), the domain never lets it
 * run (`always`), or no service claims it and the domain holds such scripts (`unknown`).
 */
export type Hold = { reason: 'service'; ref: ServiceRef } | { reason: 'always' } | { reason: 'unknown'; inline: boolean };

/** A script as the blocker sees it: its absolute address, or its text when it is inline. */
export type ScriptSource = { src: string | null; text: string };

/**
 * Whether a script may run now, and if not why. In this order: the domain's allowed markers
 * let it run, its blocked markers hold it for good, a service's markers hold it until that
 * service is accepted (and let it run once it is), and a script no service claims follows the
 * domain's rules for unknown scripts until the visitor has accepted everything.
 */
export function scriptHold(config: BannerConfig, accepted: Set<string>, { src, text }: ScriptSource): Hold | null {
  const source = src ?? text;
  const rules = config.scripts;
  if (contains(source, rules.allowedMarkers)) return null;
  if (contains(source, rules.blockedMarkers)) return { reason: 'always' };
  const claiming = allServices(config).filter((ref) => contains(source, ref.service.scriptMarkers));
  const refused = claiming.find((ref) => !allowedHere(ref, accepted));
  // Held without its service's name: neither a consent nor cookieconsent may run it on this page.
  if (refused) return refused.service.offPage ? { reason: 'always' } : { reason: 'service', ref: refused };
  if (claiming.length > 0 || !rules.blockUnknown || acceptedEverything(config, accepted)) return null;
  if (src === null) return rules.blockInline ? { reason: 'unknown', inline: true } : null;
  if (onOwnSite(src) && !rules.blockFirstParty) return null;
  return { reason: 'unknown', inline: false };
}

/**
 * The service not accepted that claims an image by its address (a tracking pixel such as
 * `facebook.com/tr`), or `always` for the domain's blocked markers; null: it loads. Images
 * no service claims are content and always load.
 */
export function imageHold(config: BannerConfig, accepted: Set<string>, src: string): ServiceRef | 'always' | null {
  if (contains(src, config.scripts.allowedMarkers)) return null;
  if (contains(src, config.scripts.blockedMarkers)) return 'always';
  const ref = allServices(config).find((candidate) => !allowedHere(candidate, accepted) && contains(src, [...candidate.service.scriptMarkers, ...candidate.service.iframeMarkers]));
  return ref?.service.offPage ? 'always' : (ref ?? null);
}

/**
 * Whether an iframe at `src` may load now, following the domain's iframe rules, and the
 * service it belongs to (null: none, or only the domain's markers matched).
 */
export function iframeVerdict(config: BannerConfig, accepted: Set<string>, src: string): { blocked: boolean; service: ServiceRef | null; listed: boolean } {
  const matching = allServices(config).filter((ref) => contains(src, ref.service.iframeMarkers));
  const refused = matching.find((ref) => !allowedHere(ref, accepted));
  const listed = contains(src, config.iframes.markers);
  const off = matching.find((ref) => ref.service.offPage);
  if (off) return { blocked: true, service: off, listed };
  if (!config.iframes.block) return { blocked: false, service: matching[0] ?? null, listed };
  if (refused) return { blocked: true, service: refused, listed };
  if (matching.length > 0) return { blocked: false, service: matching[0]!, listed };
  // A page of a site that shares this consent carries the same banner, which guards it in the frame.
  if (sharesConsent(config, src)) return { blocked: false, service: null, listed };
  return { blocked: config.iframes.mode === 'whitelist' ? !listed : listed, service: null, listed };
}
