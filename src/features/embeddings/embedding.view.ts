import { omitFields } from '../../kernel/contract/field-list.ts';
import { viewOf } from '../../kernel/contract/field-view.ts';
import { assetFields, type EmbeddingAsset } from './embedding-asset.contract.ts';
import { type Embedding, embeddingFields } from './embedding.contract.ts';
import type { EmbeddingAssetRecord, EmbeddingRecord, EmbeddingRow } from './embedding.entity.ts';

/** Stored rows → the payloads of SERVICE.md §2. */

const assetView = viewOf(assetFields);
// The assets are stored in rows of their own, so they come beside the embedding's record.
const embeddingView = viewOf(omitFields(embeddingFields, 'assets'));

export const toEmbeddingAsset = (row: EmbeddingAssetRecord): EmbeddingAsset => assetView(row);

/** Without `assets`, the entity's populated collection is used. */
export const toEmbedding = (
  row: EmbeddingRecord,
  assets: EmbeddingAssetRecord[] = (row as EmbeddingRow).assets.getItems(),
): Embedding => ({ ...embeddingView(row), assets: assets.map(toEmbeddingAsset) });
