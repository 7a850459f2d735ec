import type { OnboardingEmbedCodeSnippets } from './onboarding.contract.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { type DomainScope } from '../../kernel/access.ts';
import { readDomain } from '../domains/domain.access.ts';
import { guardSnippet, loadBannerBundles } from '../banner/runtime-bundle.ts';

/** The address of the domain's app.js, optionally forcing a language. */
function appUrl(publicBaseUrl: string, domainId: string, locale?: string): string {
  const src = new URL('app.js', `${publicBaseUrl}/`);
  src.searchParams.set('domain', domainId);
  if (locale) src.searchParams.set('lang', locale);
  return src.toString();
}

/**
 * `default` (the visitor's language) and one snippet per active locale of the domain. Each is
 * an inline script (the banner's guard) that holds everything from other sites until the
 * service has answered and loads app.js without making the page wait: a slow or unreachable
 * service leaves the page readable and its trackers held.
 */
export async function embedCodeSnippets(ctx: RequestContext, scope: DomainScope): Promise<OnboardingEmbedCodeSnippets> {
  const domain = await readDomain(ctx, scope);
  const bundles = await loadBannerBundles();
  const base = ctx.services.publicBaseUrl;
  return {
    default: guardSnippet(bundles, appUrl(base, domain.id)),
    ...Object.fromEntries(domain.locales.map((locale) => [locale, guardSnippet(bundles, appUrl(base, domain.id, locale))])),
  };
}
