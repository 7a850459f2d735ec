import type { Feature } from '../feature.ts';
import { EmbeddingAssetEntity, EmbeddingEntity } from './embedding.entity.ts';
import './embedding.graphql.ts';
import { ASSETS_TAG, EMBEDDINGS_TAG, embeddingRoutes } from './embedding.routes.ts';

export const embeddingsFeature: Feature = {
  name: 'embeddings',
  entities: [EmbeddingEntity, EmbeddingAssetEntity],
  routes: embeddingRoutes,
  tags: [EMBEDDINGS_TAG, ASSETS_TAG],
  parameters: { embeddingId: "The embedding's id.", assetId: 'The id of the embedding asset ("cookie").' },
};
