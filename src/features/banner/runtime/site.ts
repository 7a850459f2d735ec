/**
 * Whether an address belongs to the page's own site: its host, or a subdomain of it, where a
 * leading `www.` does not count (`static.shop.example` is `www.shop.example`'s). Without the
 * public-suffix list, which would not fit the bootstrap: a page at `example.co.uk` counts only
 * its own host and subdomains.
 */
export function onOwnSite(address: string): boolean {
  try {
    const host = new URL(address, document.baseURI).hostname;
    const site = location.hostname.replace(/^www\./, '');
    return host === site || host.endsWith(`.${site}`);
  } catch {
    return false;
  }
}

/** An address as the browser resolves it against the page, or null when it is none. */
export function absolute(address: string): string | null {
  try {
    return new URL(address, document.baseURI).href;
  } catch {
    return null;
  }
}

export const isWebAddress = (url: string | null): url is string => !!url && /^https?:/i.test(url);
