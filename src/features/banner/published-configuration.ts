import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { AppServices, RequestContext } from '../../kernel/context.ts';
import type { ClientFeature } from '../clients/client.contract.ts';
import type { Domain } from '../domains/domain.contract.ts';
import { domainLoader } from '../domains/domain.reads.ts';
import { toDomain } from '../domains/domain.view.ts';
import type { Embedding } from '../embeddings/embedding.contract.ts';
import { embeddingsOfDomainLoader } from '../embeddings/embedding.reads.ts';
import { toEmbedding } from '../embeddings/embedding.view.ts';
import type { Locale } from '../locales/locale.contract.ts';
import { localesOfDomainLoader } from '../locales/locale.reads.ts';
import { toLocale } from '../locales/locale.view.ts';
import type { Placeholder } from '../placeholders/placeholder.contract.ts';
import { type PublishedTcf, readPublishedTcf } from '../tcf-vendors/published-tcf.ts';
import { placeholdersOfDomainLoader } from '../placeholders/placeholder.reads.ts';
import { toPlaceholder } from '../placeholders/placeholder.view.ts';
import type { Theme } from '../themes/theme.contract.ts';
import { themesOfDomainLoader } from '../themes/theme.reads.ts';
import { toTheme } from '../themes/theme.view.ts';

/**
 * What a domain publishes to its visitors: its settings, its active embeddings (with their
 * assets), its placeholders, the theme the banner wears and its active locales (every text
 * filled in), each as the API shows it.
 */
export type PublishedConfiguration = {
  clientId: string;
  domain: Domain;
  embeddings: Embedding[];
  placeholders: Placeholder[];
  /** The default theme, else the first one; null: the banner's own look. */
  theme: Theme | null;
  /** In the order of the domain's `locales` (the first is the fallback). */
  locales: Locale[];
  /**
   * IAB TCF (tcf-vendors/published-tcf.ts): the Global Vendor List version and the domain's vendors
   * with what they declare; only for a domain with `tcfEnabled`, once a list has been imported.
   */
  tcf?: PublishedTcf;
  /** The client's feature switches where one is off (not in revisions: the banner reads them beside; client-features.ts). */
  clientFeatures?: Partial<Record<ClientFeature, boolean>>;
};

/** The published configuration of a domain, or null if there is no such domain: five statements, sent together. */
export function readPublishedConfiguration(orm: MikroORM, services: AppServices, domainId: string): Promise<PublishedConfiguration | null> {
  return readPublishedConfigurationWith(orm.em.fork(), services, domainId);
}

/**
 * The same, read with `em`: inside a transaction (a revision is taken before the write commits),
 * it sees the transaction's own writes.
 */
export async function readPublishedConfigurationWith(
  em: EntityManager,
  services: AppServices,
  domainId: string,
): Promise<PublishedConfiguration | null> {
  const ctx = readContext(em, services);
  const [rest, embeddings] = await Promise.all([readPublishedRest(ctx, domainId), embeddingsOfDomainLoader(ctx).load(domainId)]);
  if (!rest || !embeddings) return null;
  const { clientId, domain, placeholders, theme, locales, tcf } = rest;
  return {
    clientId,
    domain,
    embeddings: embeddings.items.filter((row) => row.active).map((row) => toEmbedding(row, row.assets)),
    placeholders,
    theme,
    locales,
    ...(tcf ? { tcf } : {}),
  };
}

/** Not an operation of any caller: the loaders read what the public banner shows, and nothing more. */
export const readContext = (em: EntityManager, services: AppServices): RequestContext => ({
  em,
  caller: { kind: 'admin' },
  requestId: 'published-configuration',
  services,
  scoped: new Map(),
});

/**
 * Everything published but the embeddings (four statements, sent together; a TCF domain's TCF
 * part one more after them): what a revision reads again after every write, the embeddings only
 * where they changed.
 */
export async function readPublishedRest(
  ctx: RequestContext,
  domainId: string,
): Promise<Omit<PublishedConfiguration, 'embeddings'> | null> {
  const [domain, placeholders, themes, locales] = await Promise.all([
    domainLoader(ctx).load(domainId),
    placeholdersOfDomainLoader(ctx).load(domainId),
    themesOfDomainLoader(ctx).load(domainId),
    localesOfDomainLoader(ctx).load(domainId),
  ]);
  if (!domain || !placeholders || !themes || !locales) return null;
  const theme = themes.items.find((row) => row.isDefault) ?? themes.items[0];
  const settings = toDomain(domain);
  const byName = new Map(locales.items.filter((row) => row.active).map((row) => [row.name, row]));
  const tcf = settings.tcfEnabled ? await readPublishedTcf(ctx.em, domainId, settings) : undefined;
  return {
    clientId: domain.clientId,
    domain: settings,
    placeholders: placeholders.items.map(toPlaceholder),
    theme: theme ? toTheme(theme) : null,
    locales: settings.locales.flatMap((name) => {
      const row = byName.get(name);
      return row ? [toLocale(row)] : [];
    }),
    ...(tcf ? { tcf } : {}),
  };
}
