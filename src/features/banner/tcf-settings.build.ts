import type { TcfSettings } from './banner-config.ts';
import type { PublishedConfiguration } from './published-configuration.ts';

/**
 * What app.js carries of IAB TCF (banner-config.ts `TcfSettings`), for a domain whose banner
 * speaks TCF: `tcfEnabled` (as the client's switches let it: `canUseIAB`), a Global Vendor List
 * imported (the published TCF part), and a CMP id and vendor list address from the delivery.
 * Otherwise undefined: the banner works as without TCF.
 */

/** What the delivery gives a domain whose banner may speak TCF: the CMP its TC strings name and where its vendor list is. */
export type TcfServing = { cmpId: number; cmpVersion: number; vendorListUrl: string };

/** The TC string's `publisherCC` when the domain names no country (or `ZZ`, unknown): the banner's home market. */
export const DEFAULT_PUBLISHER_COUNTRY = 'DE';

export function buildTcfSettings(
  /** As the client's switches let the banner show it (`withinClientFeatures`). */
  published: PublishedConfiguration,
  serving: { chunkUrls: { tcf: string }; tcf?: TcfServing } | undefined,
): TcfSettings | undefined {
  const { domain, tcf } = published;
  const delivery = serving?.tcf;
  if (!domain.tcfEnabled || !tcf || !delivery || !serving) return undefined;
  const country = domain.country && domain.country !== 'ZZ' ? domain.country.toUpperCase() : DEFAULT_PUBLISHER_COUNTRY;
  return {
    cmpId: delivery.cmpId,
    cmpVersion: delivery.cmpVersion,
    vendorListVersion: tcf.vendorListVersion,
    policyVersion: tcf.policyVersion,
    chunkUrl: serving.chunkUrls.tcf,
    vendorListUrl: delivery.vendorListUrl,
    vendorIds: tcf.vendors.map((vendor) => vendor.id),
    specialFeatures: [...new Set(domain.tcfSpecialFeatures)].sort((a, b) => a - b),
    publisherCountryCode: country,
    additionalConsentProviders: domain.tcfGoogleAdditionalConsentMode ? [...new Set(domain.tcfGoogleAdditionalConsentAdProviders)].sort((a, b) => a - b) : null,
    urlMacros: { fill: domain.tcfUrlMacroHandling, autoAppend: domain.tcfUrlMacroAutoAppend },
  };
}
