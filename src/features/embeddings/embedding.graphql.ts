import { assetCreate, assetFields, assetTranslation, assetUpdate, type EmbeddingAsset } from './embedding-asset.contract.ts';
import { type Embedding, embeddingCreate, embeddingFields, embeddingTranslation, embeddingUpdate } from './embedding.contract.ts';
import { list } from '../../kernel/contract/fields.ts';
import { domainArgs } from '../../graphql/args.ts';
import { builder } from '../../graphql/builder.ts';
import { payloadInputFields, payloadObjectFields } from '../../graphql/field-list.ts';
import { translationEntryInput, translationEntryType } from '../../graphql/translation-types.ts';
import { toEntries, translationEntries } from '../../graphql/translations.ts';
import { notFound } from '../../kernel/errors.ts';
import { DomainType, scopeOf } from '../domains/domain.graphql.ts';
import { createAsset, deleteAsset, updateAsset } from './embedding-asset.operations.ts';
import {
  createEmbedding,
  deleteEmbedding,
  getEmbedding,
  listEmbeddings,
  updateEmbedding,
} from './embedding.operations.ts';
import { declareList, declareTable, prefetched } from '../../graphql/selection-sql/index.ts';
import { EmbeddingAssetEntity, EmbeddingEntity } from './embedding.entity.ts';
import { toEmbedding, toEmbeddingAsset } from './embedding.view.ts';

// ── output types: the field lists, translations as lists of entries ─────────

const AssetTranslationType = translationEntryType('EmbeddingAssetTranslation', assetTranslation);

const EmbeddingAssetType = builder.objectRef<EmbeddingAsset>('EmbeddingAsset').implement({
  description: 'A cookie or storage key an embedding sets (the REST API calls these "cookies").',
  fields: (t) =>
    payloadObjectFields(t, assetFields, {
      translations: t.field({ type: [AssetTranslationType], resolve: (asset) => toEntries(asset.translations) }),
    }),
});

const EmbeddingTranslationType = translationEntryType('EmbeddingTranslation', embeddingTranslation);

export const EmbeddingType = builder.objectRef<Embedding>('Embedding').implement({
  description: 'A third-party service on the site (YouTube, Google Analytics, …) with its purpose and assets.',
  fields: (t) => ({
    ...payloadObjectFields(t, embeddingFields, {
      translations: t.field({
        type: [EmbeddingTranslationType],
        resolve: (embedding) => toEntries(embedding.translations),
      }),
      assets: t.expose('assets', { type: [EmbeddingAssetType] }),
    }),
    asset: t.field({
      type: EmbeddingAssetType,
      args: { id: t.arg.id({ required: true }) },
      resolve: (embedding, { id }) => {
        const asset = embedding.assets.find((candidate) => candidate.id === id);
        if (!asset) throw notFound(`asset ${id}`);
        return asset;
      },
    }),
  }),
});

// ── compiled selections (src/graphql/selection-sql): a domain's embeddings with their assets ──

declareTable({
  type: 'EmbeddingAsset',
  entity: EmbeddingAssetEntity,
  fields: assetFields,
  always: ['id'],
  toNode: (row) => toEmbeddingAsset(row as unknown as Parameters<typeof toEmbeddingAsset>[0]),
});
declareTable({
  type: 'Embedding',
  entity: EmbeddingEntity,
  fields: embeddingFields,
  always: ['id'],
  // `assets` are set on the payload from the list (below), as the usual read sets them.
  toNode: (row) => toEmbedding(row as unknown as Parameters<typeof toEmbedding>[0], []),
});
// In order of position, as the usual read (jsonArrayOf) orders them; `asset(id:)` looks in them.
declareList({
  parent: 'Embedding',
  field: 'assets',
  child: 'EmbeddingAsset',
  foreignKey: 'embedding',
  orderBy: 'position',
  inPayload: true,
  readBy: ['asset'],
});
// By id, as embeddingsOfDomainLoader reads them.
declareList({ parent: 'Domain', field: 'embeddings', child: 'Embedding', foreignKey: 'domain', orderBy: 'id' });

builder.objectFields(DomainType, (t) => ({
  embeddings: t.field({
    type: [EmbeddingType],
    resolve: (domain, _, ctx) => prefetched<Embedding>(domain, 'embeddings') ?? listEmbeddings(ctx, scopeOf(domain)),
  }),
  embedding: t.field({
    type: EmbeddingType,
    args: { id: t.arg.id({ required: true }) },
    resolve: (domain, { id }, ctx) => getEmbedding(ctx, { ...scopeOf(domain), embeddingId: id }),
  }),
}));

// ── input types: the field lists, translations as lists of entries ──────────

const AssetTranslationInput = translationEntryInput('EmbeddingAssetTranslationInput', assetTranslation);

const AssetInput = builder.inputType('EmbeddingAssetInput', {
  fields: (t) => ({
    id: t.id({
      description:
        "Only in an embedding's `assets`: the id of one of its current assets, which then keeps that id. Otherwise ignored.",
    }),
    ...payloadInputFields(t, assetFields, 'create', { translations: t.field({ type: [AssetTranslationInput] }) }),
  }),
});
const AssetUpdateInput = builder.inputType('EmbeddingAssetUpdateInput', {
  fields: (t) => payloadInputFields(t, assetFields, 'update', { translations: t.field({ type: [AssetTranslationInput] }) }),
});

const EmbeddingTranslationInput = translationEntryInput('EmbeddingTranslationInput', embeddingTranslation);

const embeddingInput = (write: 'create' | 'update') =>
  builder.inputType(write === 'create' ? 'EmbeddingCreateInput' : 'EmbeddingUpdateInput', {
    fields: (t) =>
      payloadInputFields(t, embeddingFields, write, {
        translations: t.field({ type: [EmbeddingTranslationInput] }),
        assets: t.field({ type: [AssetInput], description: 'Replaces every asset of the embedding.' }),
      }),
  });
const EmbeddingCreateInput = embeddingInput('create');
const EmbeddingUpdateInput = embeddingInput('update');

const assetTranslations = translationEntries(assetTranslation).optional();
const graphqlAssetCreate = assetCreate.extend({ translations: assetTranslations });
const graphqlAssetUpdate = assetUpdate.extend({ translations: assetTranslations });
const graphqlEmbeddingFields = {
  translations: translationEntries(embeddingTranslation).optional(),
  assets: list(graphqlAssetCreate).optional(),
};
const graphqlEmbeddingCreate = embeddingCreate.extend(graphqlEmbeddingFields);
const graphqlEmbeddingUpdate = embeddingUpdate.extend(graphqlEmbeddingFields);

const embeddingArgs = (t: Parameters<typeof domainArgs>[0]) => ({
  ...domainArgs(t),
  embeddingId: t.arg.id({ required: true }),
});

builder.mutationFields((t) => ({
  createEmbedding: t.field({
    type: EmbeddingType,
    args: { ...domainArgs(t), input: t.arg({ type: EmbeddingCreateInput, required: true }).validate(graphqlEmbeddingCreate) },
    resolve: (_, { input, ...scope }, ctx) => createEmbedding(ctx, scope, input),
  }),
  updateEmbedding: t.field({
    type: EmbeddingType,
    args: { ...embeddingArgs(t), input: t.arg({ type: EmbeddingUpdateInput, required: true }).validate(graphqlEmbeddingUpdate) },
    resolve: (_, { input, ...scope }, ctx) => updateEmbedding(ctx, scope, input),
  }),
  deleteEmbedding: t.id({
    description: 'Deletes the embedding and its assets; returns its id.',
    args: embeddingArgs(t),
    resolve: async (_, scope, ctx) => {
      await deleteEmbedding(ctx, scope);
      return scope.embeddingId;
    },
  }),
  createEmbeddingAsset: t.field({
    type: EmbeddingAssetType,
    args: { ...embeddingArgs(t), input: t.arg({ type: AssetInput, required: true }).validate(graphqlAssetCreate) },
    resolve: (_, { input, ...scope }, ctx) => createAsset(ctx, scope, input),
  }),
  updateEmbeddingAsset: t.field({
    type: EmbeddingAssetType,
    args: {
      ...embeddingArgs(t),
      assetId: t.arg.id({ required: true }),
      input: t.arg({ type: AssetUpdateInput, required: true }).validate(graphqlAssetUpdate),
    },
    resolve: (_, { input, ...scope }, ctx) => updateAsset(ctx, scope, input),
  }),
  deleteEmbeddingAsset: t.id({
    description: 'Deletes the asset; returns its id.',
    args: { ...embeddingArgs(t), assetId: t.arg.id({ required: true }) },
    resolve: async (_, scope, ctx) => {
      await deleteAsset(ctx, scope);
      return scope.assetId;
    },
  }),
}));
