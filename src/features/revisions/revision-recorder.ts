import { type EntityManager, sql } from '@mikro-orm/postgresql';
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
import { fieldsOf, jsonArrayOf, preparedRead } from '../../db/read-model.ts';
import { domainLocksHeld } from '../../db/row-lock.ts';
import { DomainEntity } from '../domains/domain.entity.ts';
import { type EmbeddingWithAssets, embeddingsOfIds, embeddingsWithAssets } from '../embeddings/embedding.reads.ts';
import { toEmbedding } from '../embeddings/embedding.view.ts';
import { PlaceholderEntity, type PlaceholderRecord } from '../placeholders/placeholder.entity.ts';
import { toPlaceholder } from '../placeholders/placeholder.view.ts';
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
  for (const id of ids) domainLocksHeld(em).add(id);
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
 *
 * The usual write changes one domain it locked before its work (`domainLocksHeld`): then one
 * statement reads what changed and the revision to build on, and one stores the new revision.
 */
export async function recordRevisions(em: EntityManager, ctx: RequestContext): Promise<void> {
  const held = [...domainLocksHeld(em)];
  if (held.length === 1) {
    // The usual write: one domain, locked before the work. One statement reads what changed.
    const [domainId] = held as [string];
    const changes = await changesOf(em, { domainId });
    const { changedDomains } = changes[0] ?? { changedDomains: null };
    const others = listOf(changedDomains).filter((id) => id !== domainId);
    if (others.length === 0) {
      if (changes[0] && listOf(changedDomains).includes(domainId)) await recordChanges(em, ctx, domainId, changes[0]);
      return;
    }
  }
  await recordEveryChangedDomain(em, ctx);
}

/** Ids or table names noted by the triggers as one comma-separated setting. */
const listOf = (setting: string | null): string[] => [...new Set((setting ?? '').split(',').filter((item) => item !== ''))];

/** The kept revision a write starts from: its manifest, and its locales' privacy policies (for the legal hash). */
type RevisionBase = { manifest: Manifest; privacy: [name: string, privacyPolicyUrl: string][] };

type ChangesRow = {
  changedDomains: string | null;
  changedTables: string | null;
  changedEmbeddings: string | null;
  /** The changed embeddings still there, with their assets, as they now read. */
  embeddings: EmbeddingWithAssets[];
  /** Every placeholder of the domain, when a placeholder changed; otherwise null. */
  placeholders: PlaceholderRecord[] | null;
  base: RevisionBase | null;
};

const CHANGED = (name: string) => sql`nullif(current_setting(${`app.changed_${name}`}, true), '')`;

/**
 * What the transaction changed in the domain (the triggers' notes), the changed embeddings as they
 * now read, the placeholders if they changed, and the newest revision to build on: one statement.
 */
const changesOf = preparedRead<{ domainId: string }, ChangesRow>((em, { domainId }) => {
  const embeddings = embeddingsWithAssets(em).where({
    'e.domain': sql.ref('d.id'),
    'e.id': { $eq: sql`any(string_to_array(${CHANGED('embeddings')}, ',')::uuid[])` },
  });
  const placeholders = em
    .qb(PlaceholderEntity, 'p')
    .select(fieldsOf(em, PlaceholderEntity, 'p'))
    .where({ 'p.domain': sql.ref('d.id') });
  return em
    .qb(DomainEntity, 'd')
    .select([
      CHANGED('domains').as('changedDomains'),
      CHANGED('tables').as('changedTables'),
      CHANGED('embeddings').as('changedEmbeddings'),
      jsonArrayOf(embeddings, 'id').as('embeddings'),
      sql`case when 'placeholder' = any(string_to_array(${CHANGED('tables')}, ',')) then ${jsonArrayOf(placeholders, 'id')} end`.as('placeholders'),
      sql`(select json_build_object(
          'manifest', r."manifest",
          'privacy', (select coalesce(json_agg(json_build_array(p."body" -> 'name', p."body" -> 'privacyPolicyUrl') order by l."ord"), '[]'::json)
                      from json_array_elements_text(r."manifest" -> 'locales') with ordinality as l("hash", "ord")
                      join "configuration_part" p on p."domain_id" = r."domain_id" and p."hash" = l."hash"))
        from "configuration_revision" r where r."domain_id" = ${sql.ref('d.id')} order by r."number" desc limit 1)`.as('base'),
    ])
    .where({ 'd.id': domainId });
});

/** Tables whose changes `recordChanges` builds on the previous revision; any other reads everything again. */
const BUILT_ON_PREVIOUS = new Set(['embedding', 'embedding_asset', 'placeholder']);

/**
 * Keeps the domain's configuration as a revision, from the changes one statement read: the
 * changed embeddings and the placeholders put into the previous revision's manifest. Changes of
 * the settings, themes or locales, and a domain without a revision yet, take the longer way.
 */
async function recordChanges(em: EntityManager, ctx: RequestContext, domainId: string, changes: ChangesRow): Promise<void> {
  const tables = listOf(changes.changedTables);
  const changedEmbeddings = listOf(changes.changedEmbeddings);
  const revision =
    changes.base && tables.every((table) => BUILT_ON_PREVIOUS.has(table))
      ? await revisionFromChanges(em, domainId, changes.base, changedEmbeddings, changes)
      : await nextRevision(em, ctx, domainId, changedEmbeddings);
  if (revision) await storeRevision(em, domainId, revision, { key: makerOf(ctx.caller), restoredFrom: restoresOfRequest(ctx).get(domainId) ?? null });
}

/**
 * The longer way, for any transaction: locks every domain it changed (in id order) and keeps
 * each one's configuration, reading again what it may have changed.
 */
async function recordEveryChangedDomain(em: EntityManager, ctx: RequestContext): Promise<void> {
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
 * The revision after a write that changed embeddings or placeholders only: the previous
 * revision's manifest with the changed embeddings (as they now read; gone or switched off: out)
 * and the placeholders put in. The settings, theme and locales keep their parts.
 */
async function revisionFromChanges(em: EntityManager, domainId: string, base: RevisionBase, changedEmbeddings: string[], changes: ChangesRow) {
  const previous = base.manifest;
  const parts: Part[] = [];
  const fresh: ManifestEmbedding[] = [];
  for (const row of changes.embeddings) {
    if (!row.active) continue;
    const [entry, part] = embeddingEntryOf(toEmbedding(row, row.assets));
    fresh.push(entry);
    parts.push(part);
  }
  const embeddings = await nextEmbeddings(em, domainId, previous.embeddings, new Set(changedEmbeddings), fresh);
  parts.push(...embeddings.parts);
  let placeholders = previous.placeholders;
  if (changes.placeholders) {
    const part = partOf(changes.placeholders.map(toPlaceholder));
    parts.push(part);
    placeholders = part.hash;
  }
  const manifest: Manifest = { ...previous, embeddings: embeddings.node, placeholders };
  const known = new Set([...hashesOf(previous), ...embeddings.known]);
  const locales = base.privacy.map(([name, privacyPolicyUrl]) => ({ name, privacyPolicyUrl }));
  return {
    manifest,
    parts: parts.filter((part) => !known.has(part.hash)),
    hash: contentHashOf(manifest),
    legalHash: legalHashOf(manifest, locales),
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
