import { createRequire } from 'node:module';
import type * as ThirdPartyWeb from 'third-party-web';

/**
 * Who a host of another site is, by a maintained list: the `third-party-web` package (MIT; its
 * entities and their domains, with a company and a category each, are rebuilt from the HTTP
 * Archive's crawl and released on npm as it changes). It is what the scan falls back on for a host
 * the catalog does not know. Lists that block trackers (EasyPrivacy, Disconnect, DuckDuckGo's
 * Tracker Radar, Ghostery's trackerdb) are either not shipped on npm or licensed for
 * non-commercial use only.
 */

/** An entity of the list: the product or company that owns a host. */
export type ListedThirdParty = {
  /** The list's name of it ("Google Analytics", "Hubspot"). */
  name: string;
  company: string;
  /** The list's category: ad, analytics, social, marketing, tag-manager, customer-success, video, content, cdn, hosting, utility, consent-provider, other. */
  category: string;
};

/** The list's categories whose hosts collect data about visitors, so that a hit sent there is a tracking beacon. */
export const TRACKING_CATEGORIES: ReadonlySet<string> = new Set(['ad', 'analytics', 'social', 'marketing']);

/** The entity of the list that owns `host`, if any. */
export function listedThirdParty(host: string): ListedThirdParty | undefined {
  const entity = list().getEntity(`https://${host}/`);
  return entity && { name: entity.name, company: entity.company, category: entity.category };
}

// Loaded on first use: the list is some 200 kB of JSON that only a scan's answer needs.
const list = (): typeof ThirdPartyWeb => (loaded ??= createRequire(import.meta.url)('third-party-web/nostats-subset') as typeof ThirdPartyWeb);
let loaded: typeof ThirdPartyWeb | undefined;
