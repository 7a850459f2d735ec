import type { AssetCreate, AssetUpdate, EmbeddingAsset } from './embedding-asset.contract.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { inTransaction } from '../../db/transaction.ts';
import { notFound } from '../../kernel/errors.ts';
import { isId } from '../../kernel/ids.ts';
import { reachDomain } from '../domains/domain.access.ts';
import { EmbeddingAssetEntity, type EmbeddingAssetRow } from './embedding.entity.ts';
import { appendAssets, type EmbeddingScope, findEmbedding, getEmbedding } from './embedding.operations.ts';
import { toEmbeddingAsset } from './embedding.view.ts';

/** The embedding assets the REST API calls "cookies". */

export type AssetScope = EmbeddingScope & { assetId: string };

function pick(assets: Iterable<EmbeddingAssetRow>, assetId: string): EmbeddingAssetRow {
  for (const asset of assets) if (asset.id === assetId) return asset;
  throw notFound(`asset ${assetId}`);
}

export async function listAssets(ctx: RequestContext, scope: EmbeddingScope): Promise<EmbeddingAsset[]> {
  return (await getEmbedding(ctx, scope)).assets;
}

export async function getAsset(ctx: RequestContext, scope: AssetScope): Promise<EmbeddingAsset> {
  const asset = (await getEmbedding(ctx, scope)).assets.find((candidate) => candidate.id === scope.assetId);
  if (!asset) throw notFound(`asset ${scope.assetId}`);
  return asset;
}

export async function createAsset(ctx: RequestContext, scope: EmbeddingScope, input: AssetCreate): Promise<EmbeddingAsset> {
  const domain = await reachDomain(ctx, scope);
  return inTransaction(ctx, async (em) => {
    const embedding = await findEmbedding(em, domain.id, scope.embeddingId, { lock: true });
    const row = appendAssets(em, embedding, [input]).at(-1)!;
    await em.flush();
    return toEmbeddingAsset(row);
  });
}

export async function updateAsset(ctx: RequestContext, scope: AssetScope, input: AssetUpdate): Promise<EmbeddingAsset> {
  const domain = await reachDomain(ctx, scope);
  return inTransaction(ctx, async (em) => {
    const embedding = await findEmbedding(em, domain.id, scope.embeddingId, { lock: true });
    const row = pick(embedding.assets, scope.assetId);
    const { id: _ignored, ...fields } = input;
    em.assign(row, fields);
    await em.flush();
    return toEmbeddingAsset(row);
  });
}

export async function deleteAsset(ctx: RequestContext, scope: AssetScope): Promise<void> {
  const domain = await reachDomain(ctx, scope);
  await inTransaction(ctx, async (em) => {
    const embedding = await findEmbedding(em, domain.id, scope.embeddingId, { lock: true });
    const deleted = isId(scope.assetId) ? await em.nativeDelete(EmbeddingAssetEntity, { id: scope.assetId, embedding }) : 0;
    if (deleted === 0) throw notFound(`asset ${scope.assetId}`);
  });
}
