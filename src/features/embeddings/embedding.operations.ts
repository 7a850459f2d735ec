import type { EntityManager } from '@mikro-orm/postgresql';
import { assetDefaults, type AssetCreate } from './embedding-asset.contract.ts';
import {
  type Embedding,
  type EmbeddingCreate,
  embeddingDefaults,
  type EmbeddingUpdate,
} from './embedding.contract.ts';
import { readingEm, type RequestContext } from '../../kernel/context.ts';
import { notFound } from '../../kernel/errors.ts';
import { isId, newId } from '../../kernel/ids.ts';
import type { DomainRow } from '../domains/domain.entity.ts';
import { assertDomainScope, type DomainScope } from '../../kernel/access.ts';
import { itemsOfDomain, reachDomain } from '../domains/domain.access.ts';
import { withTcfVendorName } from '../tcf-vendors/tcf-vendor.lookup.ts';
import {
  EmbeddingAssetEntity,
  type EmbeddingAssetRecord,
  type EmbeddingAssetRow,
  EmbeddingEntity,
  type EmbeddingRecord,
  type EmbeddingRow,
} from './embedding.entity.ts';
import { toEmbedding } from './embedding.view.ts';
import { changedEmbeddingWithAssets, embeddingRecord, embeddingReturning, embeddingsOfDomainLoader } from './embedding.reads.ts';
import { assignments, insertRows, rowsParameter, selectedColumns, tableOf, upsertRows } from '../../db/set-writes.ts';
import { assertMayChangeCode } from '../clients/code-permission.ts';
import { DUE_REVISION, dueRevision, lockOwnedDomain, OWNED_DOMAIN, ownedDomain, runAfterDomainLock, runOwnedDomainWrite } from '../domains/domain-write.ts';

export type EmbeddingScope = DomainScope & { embeddingId: string };

/**
 * The answer to an embedding id that cannot be one (not a UUID): the domain's 404 when the caller
 * may not reach it, otherwise the embedding's. Nothing is written.
 */
export async function malformedEmbeddingId(ctx: RequestContext, scope: EmbeddingScope): Promise<never> {
  await reachDomain(ctx, scope);
  throw notFound(`embedding ${scope.embeddingId}`);
}

export async function listEmbeddings(ctx: RequestContext, scope: DomainScope): Promise<Embedding[]> {
  assertDomainScope(ctx.caller, scope);
  const rows = await itemsOfDomain(ctx, scope, await embeddingsOfDomainLoader(ctx).load(scope.domainId));
  return rows.map((row) => toEmbedding(row, row.assets));
}

/** One embedding with its assets, in one statement (the domain and client checked in it too). */
export async function getEmbedding(ctx: RequestContext, scope: EmbeddingScope): Promise<Embedding> {
  assertDomainScope(ctx.caller, scope);
  const row = isId(scope.embeddingId) ? await embeddingRecord(readingEm(ctx), scope) : undefined;
  if (row) return toEmbedding(row, row.assets);
  await reachDomain(ctx, scope);
  throw notFound(`embedding ${scope.embeddingId}`);
}

/** The input with its TCF vendor's name (`withTcfVendorName`); a missing domain is reported before a vendor the list lacks. */
function withVendorOfDomain<T extends EmbeddingCreate | EmbeddingUpdate>(ctx: RequestContext, scope: DomainScope, input: T): Promise<T> {
  return withTcfVendorName(ctx.em, input).catch(async (error: unknown) => {
    await lockOwnedDomain(ctx, ctx.em, scope);
    throw error;
  });
}

/** The embedding's fields that hold code run on visitors' pages, as a write sends them (see `assertMayChangeCode`). */
const codeFields = (input: EmbeddingUpdate) => [{ field: 'scriptHtmlCode', feature: 'canUseScripts', sent: input.scriptHtmlCode }] as const;

/** The embedding's code as stored, when it is in the domain of the scope's client. */
async function storedCode(ctx: RequestContext, scope: EmbeddingScope): Promise<Pick<EmbeddingRow, 'scriptHtmlCode'> | undefined> {
  if (!isId(scope.embeddingId)) return undefined;
  // A unit of work of its own: the operation's must not hold a partly loaded embedding.
  const row = await ctx.em.fork().findOne(
    EmbeddingEntity,
    { id: scope.embeddingId, domain: { id: scope.domainId, client: scope.clientId } },
    { fields: ['scriptHtmlCode'] },
  );
  return row ?? undefined;
}

export async function createEmbedding(
  ctx: RequestContext,
  scope: DomainScope,
  input: EmbeddingCreate,
): Promise<Embedding> {
  await assertMayChangeCode(ctx, scope.clientId, codeFields(input), async () => embeddingDefaults);
  const owned = ownedDomain(ctx, scope);
  // No transaction: one statement, committed on its own, holds the domain's lock.
  const em = ctx.em;
  const { id: _ignored, assets: inputs = [], ...fields } = await withVendorOfDomain(ctx, scope, input);
  const now = new Date();
  const embedding = { ...embeddingDefaults, ...fields, id: newId(), domain: scope.domainId, catalogKey: null, createdAt: now, updatedAt: now };
  const assets = inputs.map(({ id: _sent, ...asset }, position) => ({
    ...assetDefaults,
    ...asset,
    position,
    id: newId(),
    embedding: embedding.id,
    createdAt: now,
    updatedAt: now,
  }));
  // One statement: the domain checked and locked, the embedding and its assets inserted, its revision noted as due.
  await runOwnedDomainWrite<{ owned: number }>(
    ctx,
    scope,
    `with ${OWNED_DOMAIN},
       "new_embedding" as (${insertRows(em, EmbeddingEntity, 'exists (select 1 from "owned_domain")')} returning 1),
       "new_assets" as (${insertRows(em, EmbeddingAssetEntity, 'exists (select 1 from "new_embedding")')} returning 1),
       ${DUE_REVISION('exists (select 1 from "new_embedding")')}
     select (select count(*) from "owned_domain")::int as "owned", (select count(*) from "new_assets")::int as "assets"`,
    [
      ...owned,
      rowsParameter(em, EmbeddingEntity, [embedding]),
      rowsParameter(em, EmbeddingAssetEntity, assets),
      ...dueRevision(ctx, assets.length > 0 ? ['embedding', 'embedding_asset'] : ['embedding'], [embedding.id]),
    ],
  );
  await ctx.services.writeTransactions.committed(ctx, [scope.domainId]);
  return toEmbedding(embedding, assets);
}

/**
 * Adds an embedding and its assets to the unit of work (flushed by the caller's transaction).
 * Shared with the onboarding operations that create embeddings. An input that sets `tcfVendor`
 * goes through `withTcfVendorName` first (the catalog's embeddings set none).
 */
export function insertEmbedding(
  em: EntityManager,
  domain: DomainRow,
  input: EmbeddingCreate,
  catalogKey: string | null = null,
): [EmbeddingRow, EmbeddingAssetRow[]] {
  const { id: _ignored, assets = [], ...fields } = input;
  const row = em.create(EmbeddingEntity, { ...embeddingDefaults, ...fields, id: newId(), domain, catalogKey });
  const rows = assets.map(({ id: _sent, ...fields }, position) =>
    em.create(EmbeddingAssetEntity, { ...assetDefaults, ...fields, position, id: newId(), embedding: row }),
  );
  return [row, rows];
}

/** Appends assets to an embedding whose assets are loaded (onboarding adds what it found). */
export function appendAssets(em: EntityManager, embedding: EmbeddingRow, inputs: AssetCreate[]): EmbeddingAssetRow[] {
  const current = embedding.assets.getItems();
  const first = Math.max(-1, ...current.map((asset) => asset.position)) + 1;
  const added = inputs.map((input, i) => {
    const { id: _ignored, ...fields } = input;
    return em.create(EmbeddingAssetEntity, { ...assetDefaults, ...fields, position: first + i, id: newId(), embedding });
  });
  return [...current, ...added];
}

export async function updateEmbedding(
  ctx: RequestContext,
  scope: EmbeddingScope,
  input: EmbeddingUpdate,
): Promise<Embedding> {
  await assertMayChangeCode(ctx, scope.clientId, codeFields(input), () => storedCode(ctx, scope));
  if (input.assets !== undefined) return replaceEmbedding(ctx, scope, input);
  if (!isId(scope.embeddingId)) return malformedEmbeddingId(ctx, scope);
  // No transaction: one statement, committed on its own, holds the domain's lock (as a create or a delete).
  const em = ctx.em;
  const owned = ownedDomain(ctx, scope);
  const { id: _ignored, assets: _none, ...fields } = await withVendorOfDomain(ctx, scope, input);
  const set = assignments(em, EmbeddingEntity, { ...fields, updatedAt: new Date() });
  // One statement: the domain checked and locked, the embedding updated and read back with its assets, its revision
  // noted as due. The assets are read with the statement's snapshot, taken before it waited for the lock (it does not
  // change them; a concurrent write of them that committed meanwhile shows in the next read).
  const row = await runOwnedDomainWrite<{ owned: number; embedding: EmbeddingRecord | null; assets: EmbeddingAssetRecord[] | null }>(
    ctx,
    scope,
    `with ${OWNED_DOMAIN},
       "changed" as (update ${tableOf(em, EmbeddingEntity)} set ${set.sql} where "id" = ? and "domain_id" in (select "id" from "owned_domain") returning ${embeddingReturning(em)}),
       ${DUE_REVISION('exists (select 1 from "changed")')}
     select (select count(*) from "owned_domain")::int as "owned", c."embedding", c."assets"
     from (select 1) as "one" left join (${changedEmbeddingWithAssets(em)}) as c on true`,
    [...owned, ...set.params, scope.embeddingId, ...dueRevision(ctx, ['embedding'], [scope.embeddingId])],
  );
  if (!row.embedding) throw notFound(`embedding ${scope.embeddingId}`);
  await ctx.services.writeTransactions.committed(ctx, [scope.domainId]);
  return toEmbedding(row.embedding, row.assets ?? []);
}

/**
 * An update that sends `assets`: one statement, after the domain's lock (`runAfterDomainLock`, so
 * that it reads every asset committed before), updates the embedding and makes its assets exactly
 * those sent (`sentAssets` says how ids are kept), noting the due revision.
 */
async function replaceEmbedding(ctx: RequestContext, scope: EmbeddingScope, input: EmbeddingUpdate): Promise<Embedding> {
  if (!isId(scope.embeddingId)) return malformedEmbeddingId(ctx, scope);
  const em = ctx.em;
  const { id: _ignored, assets: inputs = [], ...fields } = await withVendorOfDomain(ctx, scope, input);
  const now = new Date();
  const set = assignments(em, EmbeddingEntity, { ...fields, updatedAt: now });
  const assets = sentAssets(inputs, scope.embeddingId, now);
  const assetTable = tableOf(em, EmbeddingAssetEntity);
  // One statement, after the domain's lock (it reads the embedding's current assets): the embedding
  // updated, its assets deleted, updated and inserted, its revision noted as due.
  const row = await runAfterDomainLock<{ embedding: EmbeddingRecord | null; ids: string[] | null }>(
    ctx,
    scope,
    `with ${OWNED_DOMAIN},
       "target" as (select "id" from ${tableOf(em, EmbeddingEntity)} where "id" = ? and "domain_id" in (select "id" from "owned_domain")),
       "changed" as (update ${tableOf(em, EmbeddingEntity)} set ${set.sql} where "id" in (select "id" from "target") returning ${embeddingReturning(em)}),
       "placed" as (
         select ${selectedColumns(em, EmbeddingAssetEntity, {
           id: `case when r."id" in (select a."id" from ${assetTable} as a where a."embedding_id" in (select "id" from "target")) then r."id" else (?::uuid[])[r."ordinality"] end`,
         })}
         from json_populate_recordset(null::${assetTable}, ?::json) with ordinality as r where exists (select 1 from "target")),
       "gone" as (delete from ${assetTable} where "embedding_id" in (select "id" from "target") and "id" not in (select "id" from "placed")),
       "written" as (${upsertRows(em, EmbeddingAssetEntity, '"placed"')}),
       ${DUE_REVISION('exists (select 1 from "changed")')}
     select json_build_object('embedding', (select to_json("changed") from "changed"), 'ids', (select json_agg("id" order by "position") from "placed"))`,
    [
      ...ownedDomain(ctx, scope),
      scope.embeddingId,
      ...set.params,
      `{${assets.map(() => newId()).join(',')}}`,
      rowsParameter(em, EmbeddingAssetEntity, assets),
      ...dueRevision(ctx, ['embedding', 'embedding_asset'], [scope.embeddingId]),
    ],
  );
  if (!row.embedding) throw notFound(`embedding ${scope.embeddingId}`);
  await ctx.services.writeTransactions.committed(ctx, [scope.domainId]);
  return toEmbedding(row.embedding, assets.map((asset, i) => ({ ...asset, id: row.ids![i]! })));
}

/**
 * The assets an update sends, as rows of the embedding in the order sent. A sent `id` is
 * read-only, but when it names one of this embedding's current assets that asset keeps its id (so
 * a client that reads an embedding and PUTs it back does not churn asset ids): each row carries
 * the id it was sent with (its first use only; the statement gives every other row a new id),
 * and every current asset not named is removed.
 */
function sentAssets(inputs: AssetCreate[], embeddingId: string, now: Date) {
  const named = new Set<string>();
  return inputs.map(({ id, ...fields }, position) => {
    const keeps = typeof id === 'string' && isId(id) && !named.has(id);
    if (keeps) named.add(id);
    return { ...assetDefaults, ...fields, position, id: keeps ? id : newId(), embedding: embeddingId, createdAt: now, updatedAt: now };
  });
}

export async function deleteEmbedding(ctx: RequestContext, scope: EmbeddingScope): Promise<void> {
  if (!isId(scope.embeddingId)) return malformedEmbeddingId(ctx, scope);
  const owned = ownedDomain(ctx, scope);
  // One statement, committed on its own: the domain checked and locked, the embedding deleted, its revision noted as due.
  const row = await runOwnedDomainWrite<{ owned: number; deleted: number }>(
    ctx,
    scope,
    `with ${OWNED_DOMAIN},
       "gone" as (delete from ${tableOf(ctx.em, EmbeddingEntity)} where "id" = ? and "domain_id" in (select "id" from "owned_domain") returning 1),
       ${DUE_REVISION('exists (select 1 from "gone")')}
     select (select count(*) from "owned_domain")::int as "owned", (select count(*) from "gone")::int as "deleted"`,
    [...owned, scope.embeddingId, ...dueRevision(ctx, ['embedding', 'embedding_asset'], [scope.embeddingId])],
  );
  if (row.deleted === 0) throw notFound(`embedding ${scope.embeddingId}`);
  await ctx.services.writeTransactions.committed(ctx, [scope.domainId]);
}

