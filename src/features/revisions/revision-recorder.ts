import type { EntityManager } from '@mikro-orm/postgresql';
import { type Caller, domainsReached, perRequest, type RequestContext } from '../../kernel/context.ts';
import {
  bucketOf,
  bucketPartOf,
  contentHashOf,
  embeddingEntryOf,
  type EmbeddingsNode,
  embeddingsNodeOf,
  INLINE_EMBEDDINGS,
  legalHashOf,
  type Manifest,
  type ManifestEmbedding,
  manifestOf,
  type Part,
  partOf,
} from '../banner/configuration-manifest.ts';
import { readContext, readPublishedConfigurationWith, readPublishedRest } from '../banner/published-configuration.ts';
import { embeddingsOfIds } from '../embeddings/embedding.reads.ts';
import { toEmbedding } from '../embeddings/embedding.view.ts';
import { hashesOf, newestManifest, partsByHash, storeRevision } from './revision-store.ts';

/** What a revision names as its maker: the key's id and name, never the key. */
export function makerOf(caller: Caller): { id: string | null; name: string } {
  if (caller.keyName !== undefined) return { id: caller.keyId ?? null, name: caller.keyName };
  return caller.kind === 'admin' ? { id: null, name: 'administrator' } : { id: caller.keyId, name: 'client key' };
}

/** Domains this request restores, with the revision each restores (read when the restore's transaction records its revision). */
export const restoresOfRequest = perRequest(() => new Map<string, number>());

/**
 * Runs first in every write transaction: locks the rows of the domains the request reached
 * (`reachDomain`), in id order, before the work locks anything beneath them. Every write of a
 * domain takes its lock (below, for its revision) — taken first, the locks of a domain and its
 * objects are always taken in one order, and writers queue instead of deadlocking.
 */
export async function lockReachedDomains(em: EntityManager, ctx: RequestContext): Promise<void> {
  const ids = [...domainsReached(ctx)].sort();
  if (ids.length === 0) return;
  await em.execute(`select "id" from "domain" where "id" = any(?::uuid[]) order by "id" for no key update`, [`{${ids.join(',')}}`]);
}

/**
 * Runs in every write transaction, after its work and before it commits (db/transaction.ts):
 * for each domain whose published configuration a statement of the transaction touched (the
 * database's triggers note them in `app.changed_domains`), takes the domain's row lock and keeps
 * the configuration as it now reads as a new revision, unless nothing visible changed.
 *
 * The lock makes the writes of one domain take their revisions one after the other: a
 * transaction that waited for it reads, in its next statements, what the other committed, so
 * its revision holds both writes and no committed state goes without one.
 */
export async function recordRevisions(em: EntityManager, ctx: RequestContext): Promise<void> {
  const changed = await em.execute<{ id: string; embeddings: string | null }[]>(
    `select "id", current_setting('app.changed_embeddings', true) as "embeddings" from "domain"
     where "id" = any(string_to_array(nullif(current_setting('app.changed_domains', true), ''), ',')::uuid[])
     order by "id" for no key update`,
  );
  const changedEmbeddings = (changed[0]?.embeddings ?? '').split(',').filter((id) => id !== '');
  for (const { id } of changed) {
    const revision = await nextRevision(em, ctx, id, changedEmbeddings);
    if (revision) await storeRevision(em, id, revision, { key: makerOf(ctx.caller), restoredFrom: restoresOfRequest(ctx).get(id) ?? null });
  }
}

/**
 * The domain's configuration as it now reads, as a manifest and the parts the newest revision
 * lacks. From the newest revision's manifest, only the embeddings the transaction changed are
 * read again (with the settings, placeholders, theme and locales, which are few); without a
 * revision yet, everything is read.
 */
async function nextRevision(em: EntityManager, ctx: RequestContext, domainId: string, changedEmbeddings: string[]) {
  const previous = await newestManifest(em, domainId);
  if (!previous) {
    const published = await readPublishedConfigurationWith(em, ctx.services, domainId);
    if (!published) return null;
    const { manifest, parts } = manifestOf(published);
    return { manifest, parts, hash: contentHashOf(manifest), legalHash: legalHashOf(manifest, published.locales) };
  }
  const [rest, reread] = await Promise.all([
    readPublishedRest(readContext(em, ctx.services), domainId),
    changedEmbeddings.length > 0 ? embeddingsOfIds(em, domainId, changedEmbeddings) : [],
  ]);
  if (!rest) return null;
  const parts: Part[] = [];
  const put = (value: unknown) => {
    const part = partOf(value);
    parts.push(part);
    return part.hash;
  };
  const fresh: ManifestEmbedding[] = [];
  for (const row of reread) {
    if (!row.active) continue;
    const [entry, part] = embeddingEntryOf(toEmbedding(row, row.assets));
    fresh.push(entry);
    parts.push(part);
  }
  const embeddings = await nextEmbeddings(em, domainId, previous.embeddings, new Set(changedEmbeddings), fresh);
  parts.push(...embeddings.parts);
  const manifest: Manifest = {
    clientId: rest.clientId,
    domain: put(rest.domain),
    embeddings: embeddings.node,
    placeholders: put(rest.placeholders),
    theme: rest.theme === null ? null : put(rest.theme),
    locales: rest.locales.map(put),
  };
  const known = new Set([...hashesOf(previous), ...embeddings.known]);
  return {
    manifest,
    parts: parts.filter((part) => !known.has(part.hash)),
    hash: contentHashOf(manifest),
    legalHash: legalHashOf(manifest, rest.locales),
  };
}

/**
 * The embeddings' node after the changes: `changed` ids leave, `fresh` (the changed ones still
 * active, as they now read) come in. A bucketed node reads only the buckets the changes fall in
 * (all of them only when the domain drops to few embeddings, and the list goes inline again).
 */
async function nextEmbeddings(
  em: EntityManager,
  domainId: string,
  previous: EmbeddingsNode,
  changed: Set<string>,
  fresh: ManifestEmbedding[],
): Promise<{ node: EmbeddingsNode; parts: Part[]; known: string[] }> {
  const keep = (entries: ManifestEmbedding[]) => entries.filter(([id]) => !changed.has(id));
  if ('inline' in previous) return { ...embeddingsNodeOf([...keep(previous.inline), ...fresh]), known: [] };
  const affected = new Set([...changed].map(bucketOf));
  const refs = previous.buckets.flatMap((bucket, index) => (bucket && affected.has(index) ? [bucket[0]] : []));
  const loaded = await partsByHash(em, domainId, refs);
  const entriesOf = (index: number, bodies: Map<string, unknown>) => {
    const bucket = previous.buckets[index];
    return bucket ? (bodies.get(bucket[0]) as ManifestEmbedding[]) : [];
  };
  const next = new Map<number, ManifestEmbedding[]>();
  let count = previous.count;
  for (const index of affected) {
    const before = entriesOf(index, loaded);
    const after = [...keep(before), ...fresh.filter(([id]) => bucketOf(id) === index)];
    count += after.length - before.length;
    next.set(index, after);
  }
  const known = [...loaded.values()].flatMap((entries) => (entries as ManifestEmbedding[]).map(([, part]) => part));
  if (count <= INLINE_EMBEDDINGS) {
    // Few again: every bucket is read, and the list goes back into the manifest.
    const rest = await partsByHash(em, domainId, previous.buckets.flatMap((bucket, index) => (bucket && !affected.has(index) ? [bucket[0]] : [])));
    const all = previous.buckets.flatMap((_, index) => next.get(index) ?? entriesOf(index, rest));
    return { ...embeddingsNodeOf(all), known };
  }
  const parts: Part[] = [];
  const buckets = previous.buckets.map((bucket, index) => {
    const entries = next.get(index);
    if (!entries) return bucket;
    const built = bucketPartOf(entries);
    if (built) parts.push(built.part);
    return built?.ref ?? null;
  });
  return { node: { count, buckets }, parts, known };
}
