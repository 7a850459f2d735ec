import type { ClientScope, DomainScope } from '../../kernel/access.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { ServiceError } from '../../kernel/errors.ts';
import { getClient } from '../clients/client.operations.ts';
import type { Domain } from '../domains/domain.contract.ts';
import { getDomain, listDomains } from '../domains/domain.operations.ts';
import type { Embedding } from '../embeddings/embedding.contract.ts';
import { listEmbeddings } from '../embeddings/embedding.operations.ts';
import type { Locale } from '../locales/locale.contract.ts';
import { listLocales } from '../locales/locale.operations.ts';
import { getWebhook } from '../permanent-scan/permanent-scan.operations.ts';
import type { Placeholder } from '../placeholders/placeholder.contract.ts';
import { listPlaceholders } from '../placeholders/placeholder.operations.ts';
import type { Theme } from '../themes/theme.contract.ts';
import { listThemes } from '../themes/theme.operations.ts';
import { DOCUMENT_VERSION } from './configuration-document.ts';

/**
 * A domain's (or a client's) configuration as a document (configuration-document.ts), read
 * through the operations the REST API answers with, and written in their payloads without ids.
 * Lists come in an order of their content (embeddings and themes by name, …), not by id, so two
 * instances with the same configuration export the same document.
 */

/** What an export of one domain holds, before the document's `kind` and `version`. */
export type ExportedDomain = {
  settings: Omit<Domain, 'id'>;
  placeholders: Placeholder[];
  embeddings: Omit<Embedding, 'id'>[];
  themes: Omit<Theme, 'id'>[];
  locales: Locale[];
};

export type ExportedClient = {
  kind: 'client';
  version: typeof DOCUMENT_VERSION;
  settings: Record<string, unknown>;
  /** Where the permanent scan's findings go; its signing secret is not exported. */
  webhook: { url: string } | null;
  domains: ExportedDomain[];
};

export type ExportedDomainDocument = { kind: 'domain'; version: typeof DOCUMENT_VERSION } & ExportedDomain;

/** Text order, the same on every machine (not the locale's collation). */
export const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Sorted by name; objects that share a name by the rest of their content, so the order never depends on ids. */
export function byNameThenContent<T extends { name: string }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => byText(a.name, b.name) || byText(JSON.stringify(a), JSON.stringify(b)));
}

function withoutId<T extends { id: string }>(item: T): Omit<T, 'id'> {
  const { id: _id, ...rest } = item;
  return rest;
}

const exportedEmbedding = (embedding: Embedding): Omit<Embedding, 'id'> => ({
  ...withoutId(embedding),
  assets: embedding.assets.map((asset) => withoutId(asset)) as Embedding['assets'],
});

/** One domain's configuration, in five reads sent together. */
export async function exportDomainParts(ctx: RequestContext, scope: DomainScope): Promise<ExportedDomain> {
  const [domain, placeholders, embeddings, themes, locales] = await Promise.all([
    getDomain(ctx, scope),
    listPlaceholders(ctx, scope),
    listEmbeddings(ctx, scope),
    listThemes(ctx, scope),
    listLocales(ctx, scope),
  ]);
  return {
    settings: withoutId(domain),
    placeholders: [...placeholders].sort((a, b) => byText(a.name, b.name)),
    embeddings: byNameThenContent(embeddings.map(exportedEmbedding)),
    themes: byNameThenContent(themes.map(withoutId)),
    locales: [...locales].sort((a, b) => byText(a.name, b.name)),
  };
}

export async function exportDomain(ctx: RequestContext, scope: DomainScope): Promise<ExportedDomainDocument> {
  return { kind: 'domain', version: DOCUMENT_VERSION, ...(await exportDomainParts(ctx, scope)) };
}

/** The client's settings, its webhook's address and all its domains (ordered by address). */
export async function exportClient(ctx: RequestContext, scope: ClientScope): Promise<ExportedClient> {
  const client = await getClient(ctx, scope.clientId);
  // Counts of what the client has on this instance are not configuration.
  const { id: _id, domainCount: _d, whitelabelCount: _w, widgetDisplayCount: _c, ...settings } = client;
  const webhook = await getWebhook(ctx, scope).then(
    ({ url }) => ({ url }),
    (error: unknown) => {
      if (error instanceof ServiceError && error.kind === 'not_found') return null;
      throw error;
    },
  );
  const domains = [...(await listDomains(ctx, scope))].sort((a, b) => byText(a.url, b.url) || byText(a.id, b.id));
  const parts: ExportedDomain[] = [];
  for (const domain of domains) parts.push(await exportDomainParts(ctx, { clientId: scope.clientId, domainId: domain.id }));
  return { kind: 'client', version: DOCUMENT_VERSION, settings, webhook, domains: parts };
}
