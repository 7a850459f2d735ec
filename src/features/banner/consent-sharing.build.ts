import type { Domain } from '../domains/domain.contract.ts';
import { parseSiteAddress } from '../../kernel/contract/site-address.ts';
import type { BannerConfig } from './banner-config.ts';

/**
 * The banner's consent sharing from the domain's settings: each `consentSharingDomains` entry
 * read as the consent intake reads it (page-origin.ts), by its host in lower case, entries that
 * are no site address left out.
 */
export function consentSharing(domain: Pick<Domain, 'consentSharingDomains' | 'consentSharingCrossDomain'>): BannerConfig['sharing'] {
  const domains = [
    ...new Set(
      domain.consentSharingDomains.flatMap((entry) => {
        const parsed = parseSiteAddress(entry.trim());
        return 'problem' in parsed ? [] : [parsed.host.toLowerCase()];
      }),
    ),
  ];
  return { domains, crossDomain: domain.consentSharingCrossDomain && domains.length > 0 };
}
