import type { OnboardingEmbedCodeSnippets } from './onboarding.contract.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { type DomainScope } from '../../kernel/access.ts';
import { readDomain } from '../domains/domain.access.ts';
import { escapeHtml } from '../../kernel/html.ts';

/** The tag that loads the consent manager for a domain, optionally forcing a language. */
function snippetFor(publicBaseUrl: string, domainId: string, locale?: string): string {
  const src = new URL('app.js', `${publicBaseUrl}/`);
  src.searchParams.set('domain', domainId);
  if (locale) src.searchParams.set('lang', locale);
  return `<script src="${escapeHtml(src.toString())}" referrerpolicy="origin"></script>`;
}

/** `default` (the visitor's language) and one snippet per active locale of the domain. */
export async function embedCodeSnippets(ctx: RequestContext, scope: DomainScope): Promise<OnboardingEmbedCodeSnippets> {
  const domain = await readDomain(ctx, scope);
  const base = ctx.services.publicBaseUrl;
  return {
    default: snippetFor(base, domain.id),
    ...Object.fromEntries(domain.locales.map((locale) => [locale, snippetFor(base, domain.id, locale)])),
  };
}
