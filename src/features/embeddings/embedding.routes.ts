import { z } from 'zod';
import { DOMAIN_PATH, domainAddress, route } from '../feature.ts';
import { assetCreate, assetResponse, assetUpdate } from './embedding-asset.contract.ts';
import * as assets from './embedding-asset.operations.ts';
import { embeddingCreate, embeddingResponse, embeddingUpdate } from './embedding.contract.ts';
import * as embeddings from './embedding.operations.ts';

export const ASSETS_TAG = { name: 'Embedding assets', description: 'The cookies and storage keys of an embedding (the "cookie" operations).' };
export const EMBEDDINGS_TAG = { name: 'Embeddings', description: 'Third-party services on the site, with purpose, texts and assets.' };

const EMBEDDING = `${DOMAIN_PATH}/embedding/:embeddingId` as const;

export const embeddingRoutes = [
  // ── embedding assets ("cookies") ─────────────────────────────────────────
  route({ tag: ASSETS_TAG.name, method: 'POST', path: `${EMBEDDING}/asset`, summary: 'Create cookie', body: assetCreate,
    response: assetResponse,
    operation: (ctx, p, body) => assets.createAsset(ctx, p, body), status: 201, errors: [400, 404],
    location: (p, asset) => `${domainAddress(p)}/embedding/${p.embeddingId}/asset/${asset.id}` }),
  route({ tag: ASSETS_TAG.name, method: 'GET', path: `${EMBEDDING}/asset`, summary: 'Read all cookies',
    response: z.array(assetResponse),
    operation: (ctx, p) => assets.listAssets(ctx, p), status: 200, errors: [404] }),
  route({ tag: ASSETS_TAG.name, method: 'GET', path: `${EMBEDDING}/asset/:assetId`, summary: 'Read cookie',
    response: assetResponse,
    operation: (ctx, p) => assets.getAsset(ctx, p), status: 200, errors: [404] }),
  route({ tag: ASSETS_TAG.name, method: 'PUT', path: `${EMBEDDING}/asset/:assetId`, summary: 'Update cookie', body: assetUpdate,
    response: assetResponse,
    operation: (ctx, p, body) => assets.updateAsset(ctx, p, body), status: 200, errors: [400, 404] }),
  route({ tag: ASSETS_TAG.name, method: 'DELETE', path: `${EMBEDDING}/asset/:assetId`, summary: 'Delete cookie',
    operation: (ctx, p) => assets.deleteAsset(ctx, p), status: 204, errors: [404] }),

  // ── embeddings ───────────────────────────────────────────────────────────
  route({ tag: EMBEDDINGS_TAG.name, method: 'POST', path: `${DOMAIN_PATH}/embedding`, summary: 'Create embedding', body: embeddingCreate,
    response: embeddingResponse,
    operation: (ctx, p, body) => embeddings.createEmbedding(ctx, p, body), status: 201, errors: [400, 404],
    location: (p, embedding) => `${domainAddress(p)}/embedding/${embedding.id}` }),
  route({ tag: EMBEDDINGS_TAG.name, method: 'GET', path: `${DOMAIN_PATH}/embedding`, summary: 'Read all embeddings',
    response: z.array(embeddingResponse),
    operation: (ctx, p) => embeddings.listEmbeddings(ctx, p), status: 200, errors: [404] }),
  route({ tag: EMBEDDINGS_TAG.name, method: 'GET', path: EMBEDDING, summary: 'Read embedding',
    response: embeddingResponse,
    operation: (ctx, p) => embeddings.getEmbedding(ctx, p), status: 200, errors: [404] }),
  route({ tag: EMBEDDINGS_TAG.name, method: 'PUT', path: EMBEDDING, summary: 'Update embedding (assets sent replace all assets)', body: embeddingUpdate,
    response: embeddingResponse,
    operation: (ctx, p, body) => embeddings.updateEmbedding(ctx, p, body), status: 200, errors: [400, 404] }),
  route({ tag: EMBEDDINGS_TAG.name, method: 'DELETE', path: EMBEDDING, summary: 'Delete embedding and its assets',
    operation: (ctx, p) => embeddings.deleteEmbedding(ctx, p), status: 204, errors: [404] }),
];
