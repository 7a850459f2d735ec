import { parseSiteAddress } from '../../kernel/contract/site-address.ts';

/**
 * Whether the page a record came from belongs to the domain: its host is the domain's host or a
 * subdomain of it (a leading `www.` does not count, as the banner's own `onOwnSite` judges), or
 * one of the domain's `consentSharingDomains` or a subdomain of one. Scheme and port do not
 * count. Anyone can send a record naming any page, so this says where the record claims to come
 * from, not where it came from.
 */
export function originBelongs(origin: string, site: { host: string; sharingDomains: readonly string[] }): boolean {
  const host = hostOf(origin);
  if (host === null) return false;
  const own = site.host.toLowerCase().replace(/^www\./, '');
  const shared = site.sharingDomains.flatMap((entry) => {
    const parsed = parseSiteAddress(entry.trim());
    return 'problem' in parsed ? [] : [parsed.host.toLowerCase()];
  });
  return [own, ...shared].some((allowed) => host === allowed || host.endsWith(`.${allowed}`));
}

function hostOf(origin: string): string | null {
  try {
    return new URL(origin).hostname.toLowerCase();
  } catch {
    return null;
  }
}
