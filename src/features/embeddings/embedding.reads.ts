import type { EntityManager } from '@mikro-orm/postgresql';
import { columnsOf, jsonObjectOf } from '../../db/read-model.ts';
import { itemsOfDomainsLoader } from '../domains/domain.reads.ts';
import { EmbeddingAssetEntity, type EmbeddingAssetRecord, EmbeddingEntity, type EmbeddingRecord } from './embedding.entity.ts';

export type EmbeddingWithAssets = EmbeddingRecord & { assets: EmbeddingAssetRecord[] };

/** The assets of embedding `e`, in order, as a JSON array of plain records. */
export const assetsJson = (em: EntityManager, embeddingAlias: string) =>
  `coalesce((select json_agg(${jsonObjectOf(em, EmbeddingAssetEntity, 'a')} order by a.position) ` +
  `from embedding_asset a where a.embedding_id = ${embeddingAlias}.id), '[]'::json)`;

/** The embeddings of each domain asked for in one tick, with their assets (see domain.reads.ts). */
export const embeddingsOfDomainLoader = itemsOfDomainsLoader<EmbeddingWithAssets>(
  'embedding',
  'e',
  (em) => `${columnsOf(em, EmbeddingEntity, 'e')}, ${assetsJson(em, 'e')} as "assets"`,
);
