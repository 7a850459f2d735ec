import type { BannerConfig } from '../banner-config.ts';

/**
 * The banner's rules for the page the visitor is on (see page-rules.build.ts): whether the page
 * shows a banner at all, and which embeddings are kept off it.
 */

/** A list entry as an address: absolute http(s) addresses and site paths; anything else is no page. */
function resolve(entry: string): URL | null {
  if (!/^(https?:\/\/|\/)/i.test(entry)) return null;
  try {
    const url = new URL(entry, location.href);
    url.hash = '';
    return url;
  } catch {
    return null;
  }
}

/** The address without fragment and without a trailing slash of its path: `/impressum/` is `/impressum`. */
const exact = (url: URL, query: boolean) => `${url.origin}${url.pathname.replace(/\/+$/, '')}${query ? url.search : ''}`;

/**
 * Whether `entry` names the page at `here`, as CCM19 documents its URL lists: exact, or a prefix
 * when it ends in `*`. Left open by CCM19 and chosen here: the fragment, a trailing slash and the
 * case of scheme and host do not count; a site path (`/checkout`) stands for the page's own site.
 */
export function namesPage(entry: string, here: URL): boolean {
  const wildcard = entry.endsWith('*');
  const url = resolve(wildcard ? entry.slice(0, -1) : entry);
  if (!url) return false;
  if (!wildcard) return exact(url, true) === exact(here, true);
  const page = new URL(here.href);
  page.hash = '';
  return page.href.startsWith(url.href);
}

const currentPage = () => new URL(location.href);

/**
 * Whether this page shows no banner: an imprint or privacy policy page (the query does not
 * count). Nothing that waits for a consent runs there without one; a consent given elsewhere
 * still holds.
 */
export function isQuietPage(config: BannerConfig): boolean {
  const here = currentPage();
  return config.quietPages.some((page) => {
    const url = resolve(page);
    return !!url && exact(url, false) === exact(here, false);
  });
}

/**
 * Marks the embeddings kept off this page (`offPage`): whatever the visitor chose, their scripts,
 * images and iframes stay held here and their code is not injected (the bootstrap calls this
 * before anything is judged).
 */
export function markOffPage(config: BannerConfig): void {
  const here = currentPage();
  for (const category of config.categories) {
    for (const service of category.services) {
      if (!service.pages) continue;
      const listed = service.pages.urls.some((entry) => namesPage(entry, here));
      if (listed === service.pages.only) continue;
      service.offPage = true;
      service.scriptHtmlCode = '';
      service.scriptLoaderGroup = '';
    }
  }
}

/** A site's own held script (`type="text/plain" data-category`) of an embedding kept off this page: cookieconsent must not run it. */
export function silenceOffPage(config: BannerConfig, script: Element): void {
  const id = script.getAttribute('data-service');
  if (id && config.categories.some((category) => category.services.some((service) => service.id === id && service.offPage))) {
    script.removeAttribute('data-category');
  }
}
