import type { AssetCreate, AssetUpdate, EmbeddingAsset } from './embedding-asset.contract.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { notFound } from '../../kernel/errors.ts';
import { isId, newId } from '../../kernel/ids.ts';
import { assignments, insertFrom, recordColumns, rowsParameter, selectedColumns, tableOf } from '../../db/set-writes.ts';
import { DUE_REVISION, dueRevision, OWNED_DOMAIN, ownedDomain, runAfterDomainLock, runOwnedDomainWrite } from '../domains/domain-write.ts';
import { assetDefaults } from './embedding-asset.contract.ts';
import { EmbeddingAssetEntity, type EmbeddingAssetRecord, EmbeddingEntity } from './embedding.entity.ts';
import { type EmbeddingScope, getEmbedding, malformedEmbeddingId } from './embedding.operations.ts';
import { toEmbeddingAsset } from './embedding.view.ts';

/** The embedding assets the REST API calls "cookies". */

export type AssetScope = EmbeddingScope & { assetId: string };

export async function listAssets(ctx: RequestContext, scope: EmbeddingScope): Promise<EmbeddingAsset[]> {
  return (await getEmbedding(ctx, scope)).assets;
}

export async function getAsset(ctx: RequestContext, scope: AssetScope): Promise<EmbeddingAsset> {
  const asset = (await getEmbedding(ctx, scope)).assets.find((candidate) => candidate.id === scope.assetId);
  if (!asset) throw notFound(`asset ${scope.assetId}`);
  return asset;
}

/**
 * One statement, committed on its own, after the domain's lock (so that it reads every asset
 * committed before): the asset appended after the embedding's last, its revision noted as due.
 */
export async function createAsset(ctx: RequestContext, scope: EmbeddingScope, input: AssetCreate): Promise<EmbeddingAsset> {
  if (!isId(scope.embeddingId)) return malformedEmbeddingId(ctx, scope);
  const em = ctx.em;
  const { id: _ignored, ...fields } = input;
  const now = new Date();
  const asset = { ...assetDefaults, ...fields, position: 0, id: newId(), embedding: scope.embeddingId, createdAt: now, updatedAt: now };
  const assetTable = tableOf(em, EmbeddingAssetEntity);
  const row = await runAfterDomainLock<{ position: number | null }>(
    ctx,
    scope,
    `with ${OWNED_DOMAIN},
       "parent" as (select "id" from ${tableOf(em, EmbeddingEntity)} where "id" = ? and "domain_id" in (select "id" from "owned_domain")),
       "placed" as (
         select ${selectedColumns(em, EmbeddingAssetEntity, {
           position: `(select coalesce(max(a."position") + 1, 0) from ${assetTable} as a where a."embedding_id" in (select "id" from "parent"))`,
         })}
         from json_populate_recordset(null::${assetTable}, ?::json) where exists (select 1 from "parent")),
       "added" as (${insertFrom(em, EmbeddingAssetEntity, '"placed"')} returning 1),
       ${DUE_REVISION('exists (select 1 from "placed")')}
     select json_build_object('position', (select "position" from "placed"))`,
    [...ownedDomain(ctx, scope), scope.embeddingId, rowsParameter(em, EmbeddingAssetEntity, [asset]), ...dueRevision(ctx, ['embedding_asset'], [scope.embeddingId])],
  );
  if (row.position == null) throw notFound(`embedding ${scope.embeddingId}`);
  await ctx.services.writeTransactions.committed(ctx, [scope.domainId]);
  return toEmbeddingAsset({ ...asset, position: row.position });
}

/** One statement, committed on its own: the domain checked and locked, the asset updated by id and read back, its revision noted as due. */
export async function updateAsset(ctx: RequestContext, scope: AssetScope, input: AssetUpdate): Promise<EmbeddingAsset> {
  if (!isId(scope.embeddingId)) return malformedEmbeddingId(ctx, scope);
  const em = ctx.em;
  const { id: _ignored, ...fields } = input;
  const set = assignments(em, EmbeddingAssetEntity, { ...fields, updatedAt: new Date() });
  const row = await runOwnedDomainWrite<{ owned: number; parent: number; asset: EmbeddingAssetRecord | null }>(
    ctx,
    scope,
    `with ${OWNED_DOMAIN},
       "parent" as (select "id" from ${tableOf(em, EmbeddingEntity)} where "id" = ? and "domain_id" in (select "id" from "owned_domain")),
       "changed" as (update ${tableOf(em, EmbeddingAssetEntity)} set ${set.sql} where "id" = ?::uuid and "embedding_id" in (select "id" from "parent") returning ${recordColumns(em, EmbeddingAssetEntity)}),
       ${DUE_REVISION('exists (select 1 from "changed")')}
     select (select count(*) from "owned_domain")::int as "owned", (select count(*) from "parent")::int as "parent", (select to_json("changed") from "changed") as "asset"`,
    [...ownedDomain(ctx, scope), scope.embeddingId, ...set.params, isId(scope.assetId) ? scope.assetId : null, ...dueRevision(ctx, ['embedding_asset'], [scope.embeddingId])],
  );
  if (row.parent === 0) throw notFound(`embedding ${scope.embeddingId}`);
  if (!row.asset) throw notFound(`asset ${scope.assetId}`);
  await ctx.services.writeTransactions.committed(ctx, [scope.domainId]);
  return toEmbeddingAsset(row.asset);
}

/** One statement, committed on its own: the domain checked and locked, the asset deleted by id, its revision noted as due. */
export async function deleteAsset(ctx: RequestContext, scope: AssetScope): Promise<void> {
  if (!isId(scope.embeddingId)) return malformedEmbeddingId(ctx, scope);
  const em = ctx.em;
  const row = await runOwnedDomainWrite<{ owned: number; parent: number; deleted: number }>(
    ctx,
    scope,
    `with ${OWNED_DOMAIN},
       "parent" as (select "id" from ${tableOf(em, EmbeddingEntity)} where "id" = ? and "domain_id" in (select "id" from "owned_domain")),
       "gone" as (delete from ${tableOf(em, EmbeddingAssetEntity)} where "id" = ?::uuid and "embedding_id" in (select "id" from "parent") returning 1),
       ${DUE_REVISION('exists (select 1 from "gone")')}
     select (select count(*) from "owned_domain")::int as "owned", (select count(*) from "parent")::int as "parent", (select count(*) from "gone")::int as "deleted"`,
    [...ownedDomain(ctx, scope), scope.embeddingId, isId(scope.assetId) ? scope.assetId : null, ...dueRevision(ctx, ['embedding_asset'], [scope.embeddingId])],
  );
  if (row.parent === 0) throw notFound(`embedding ${scope.embeddingId}`);
  if (row.deleted === 0) throw notFound(`asset ${scope.assetId}`);
  await ctx.services.writeTransactions.committed(ctx, [scope.domainId]);
}
