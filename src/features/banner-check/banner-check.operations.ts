import type { DomainScope } from '../../kernel/access.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { notFound } from '../../kernel/errors.ts';
import { readPublishedRest } from '../banner/published-configuration.ts';
import { readDomain } from '../domains/domain.access.ts';
import { bannerWarningsOf } from './banner-check.ts';
import type { BannerWarning } from './banner-warning.contract.ts';

/**
 * The warnings about a domain's banner (banner-check.ts), from its configuration as it is now:
 * the domain (its access check), then its placeholders, themes and locales, read as the banner
 * reads them and batched across domains in GraphQL.
 */
export async function bannerWarnings(ctx: RequestContext, scope: DomainScope): Promise<BannerWarning[]> {
  await readDomain(ctx, scope);
  const configuration = await readPublishedRest(ctx, scope.domainId);
  // Deleted between the two reads.
  if (!configuration) throw notFound(`domain ${scope.domainId}`);
  return bannerWarningsOf(configuration);
}
