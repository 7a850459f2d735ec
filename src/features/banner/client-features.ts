import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { ClientFeature } from '../clients/client.contract.ts';
import { DOMAIN_GATES, THEME_GATES, withinFeatures } from '../clients/feature-gates.ts';
import type { PublishedConfiguration } from './published-configuration.ts';

/**
 * A client's feature switches are not part of a domain's revisions (they are the client's, set by
 * the administrator): the banner reads them beside the revision it publishes. A change of them
 * touches the client's domains (`announceClientDomains`), so every process reads again.
 */
export async function withClientFeatures(orm: MikroORM, published: PublishedConfiguration | null): Promise<PublishedConfiguration | null> {
  if (!published) return published;
  return withFeaturesOf(await readClientFeatures(orm.em.fork(), published.clientId), published);
}

/** The client's feature switches as stored (`{}`: none set). */
export async function readClientFeatures(em: EntityManager, clientId: string): Promise<Partial<Record<ClientFeature, boolean>>> {
  const [row] = await em.execute<{ features: Partial<Record<ClientFeature, boolean>> | null }[]>('select "features" from "client" where "id" = ?', [clientId]);
  return row?.features ?? {};
}

/** The configuration with the client's switches beside it, when one is off. */
export const withFeaturesOf = (clientFeatures: Partial<Record<ClientFeature, boolean>>, published: PublishedConfiguration): PublishedConfiguration =>
  Object.values(clientFeatures).includes(false) ? { ...published, clientFeatures } : published;

/**
 * The configuration as the banner shows it: the settings of a feature the client may not use
 * replaced by what the banner does without it (no logo, no consent sharing, no TCF, the iframe
 * blocker as it comes, at most two languages). The hashes are taken before, from what was published.
 */
export function withinClientFeatures(published: PublishedConfiguration): PublishedConfiguration {
  const features = published.clientFeatures;
  if (!features) return published;
  const domain = withinFeatures(published.domain, DOMAIN_GATES, features);
  const theme = published.theme && withinFeatures(published.theme, THEME_GATES, features);
  const shown = new Set(domain.locales);
  return { ...published, domain, theme, locales: published.locales.filter((locale) => shown.has(locale.name)) };
}
