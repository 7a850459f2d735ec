import type { Embedding } from '../embeddings/embedding.contract.ts';
import type { BannerConfig, BannerService } from './banner-config.ts';
import type { PublishedConfiguration } from './published-configuration.ts';
import { type Fill, linkTarget } from './texts.ts';

/**
 * The per-page rules of the banner, as the server hands them to the browser (runtime/page-rules.ts
 * applies them): which pages show no banner, and which embeddings are kept to or off which pages.
 */

/**
 * The imprint and privacy policy pages that show no banner (`imprintShowWidget`,
 * `privacyPolicyShowWidget` off, CCM19's default): the addresses every active locale links to as
 * `imprintUrl` / `privacyPolicyUrl`, their placeholders filled in — the onboarding's legal
 * findings put the scanned pages into `{Firma_Impressum}` and `{Firma_Datenschutz}`, which the
 * default texts use. Whatever the display mode: a page the site has stays readable.
 */
export function quietPages(published: PublishedConfiguration, fill: Fill): BannerConfig['quietPages'] {
  const { domain } = published;
  const pages = new Set<string>();
  for (const locale of published.locales) {
    const urls = [!domain.imprintShowWidget && locale.imprintUrl, !domain.privacyPolicyShowWidget && locale.privacyPolicyUrl];
    for (const url of urls) {
      const target = url ? linkTarget(fill, url) : null;
      if (target) pages.add(target);
    }
  }
  return [...pages];
}

/**
 * The pages an embedding is limited to or kept off (`excludeUrlsMode`, `excludeFromUrls`):
 * `whitelist` limits it to the listed pages (none listed: it runs on no page); any other mode,
 * and CCM19's documented meaning, keeps it off them.
 */
export function embeddingPages(embedding: Embedding): Pick<BannerService, 'pages'> {
  const urls = embedding.excludeFromUrls.map((url) => url.trim()).filter((url) => url !== '');
  if (embedding.excludeUrlsMode === 'whitelist') return { pages: { only: true, urls } };
  return urls.length > 0 ? { pages: { only: false, urls } } : {};
}
