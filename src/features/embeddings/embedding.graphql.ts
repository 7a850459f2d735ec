import {
  type AssetTranslation,
  assetCreate,
  assetTranslation,
  assetUpdate,
  type EmbeddingAsset,
  STORAGE_TYPES,
} from './embedding-asset.contract.ts';
import {
  type Embedding,
  embeddingCreate,
  type EmbeddingTranslation,
  embeddingTranslation,
  embeddingUpdate,
  GOOGLE_CONSENT_MODES,
} from './embedding.contract.ts';
import { list, PURPOSES } from '../../kernel/contract/fields.ts';
import { domainArgs } from '../../graphql/args.ts';
import { builder, oneOf } from '../../graphql/builder.ts';
import { toEntries, type TranslationEntry, translationEntries } from '../../graphql/translations.ts';
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

const PURPOSE_LIST = Object.entries(PURPOSES).map(([id, meaning]) => `${id} (${meaning})`);

// ── output types ────────────────────────────────────────────────────────────

const AssetTranslationType = builder.objectRef<TranslationEntry<AssetTranslation>>('EmbeddingAssetTranslation').implement({
  fields: (t) => ({
    locale: t.exposeString('locale'),
    lifetime: t.exposeString('lifetime', { nullable: true }),
    description: t.exposeString('description', { nullable: true }),
  }),
});

export const EmbeddingAssetType = builder.objectRef<EmbeddingAsset>('EmbeddingAsset').implement({
  description: 'A cookie or storage key an embedding sets (the REST API calls these "cookies").',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    dynamic: t.exposeBoolean('dynamic', { description: 'The name is a pattern such as _gac_*.' }),
    storageType: t.exposeString('storageType', { description: oneOf(STORAGE_TYPES) }),
    lifetime: t.exposeString('lifetime'),
    description: t.exposeString('description'),
    translations: t.field({ type: [AssetTranslationType], resolve: (asset) => toEntries(asset.translations) }),
  }),
});

const TRANSLATION_TEXTS = [
  'name',
  'description',
  'privacyPolicyUrl',
  'whatDataIsCollected',
  'purposeOfDataCollection',
  'legalBasis',
  'placeOfProcessing',
  'blockedContentTitle',
  'blockedContentText',
  'blockedContentButtonText',
] as const satisfies readonly (keyof EmbeddingTranslation)[];

const EmbeddingTranslationType = builder
  .objectRef<TranslationEntry<EmbeddingTranslation>>('EmbeddingTranslation')
  .implement({
    fields: (t) => ({
      locale: t.exposeString('locale'),
      ...Object.fromEntries(TRANSLATION_TEXTS.map((key) => [key, t.exposeString(key, { nullable: true })])),
    }),
  });

export const EmbeddingType = builder.objectRef<Embedding>('Embedding').implement({
  description: 'A third-party service on the site (YouTube, Google Analytics, …) with its purpose and assets.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    active: t.exposeBoolean('active'),
    purpose: t.exposeString('purpose', { description: oneOf(PURPOSE_LIST, 'A purpose id') }),
    vendor: t.exposeString('vendor'),
    scriptHtmlCode: t.exposeString('scriptHtmlCode'),
    scriptLoaderGroup: t.exposeString('scriptLoaderGroup'),
    scriptMarkers: t.exposeStringList('scriptMarkers'),
    iframeMarkers: t.exposeStringList('iframeMarkers'),
    hideIframesUntilConsent: t.exposeBoolean('hideIframesUntilConsent'),
    excludeUrlsMode: t.exposeString('excludeUrlsMode'),
    excludeFromUrls: t.exposeStringList('excludeFromUrls'),
    description: t.exposeString('description'),
    privacyPolicyUrl: t.exposeString('privacyPolicyUrl'),
    whatDataIsCollected: t.exposeString('whatDataIsCollected'),
    purposeOfDataCollection: t.exposeString('purposeOfDataCollection'),
    legalBasis: t.exposeString('legalBasis'),
    placeOfProcessing: t.exposeString('placeOfProcessing'),
    translations: t.field({
      type: [EmbeddingTranslationType],
      resolve: (embedding) => toEntries(embedding.translations),
    }),
    tcfVendor: t.exposeInt('tcfVendor', { nullable: true }),
    tcfPurposes: t.exposeIntList('tcfPurposes'),
    tcfSpecialFeatures: t.exposeIntList('tcfSpecialFeatures'),
    googleConsentMode: t.exposeStringList('googleConsentMode', { description: oneOf(GOOGLE_CONSENT_MODES, 'Each of') }),
    assets: t.expose('assets', { type: [EmbeddingAssetType] }),
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

builder.objectFields(DomainType, (t) => ({
  embeddings: t.field({ type: [EmbeddingType], resolve: (domain, _, ctx) => listEmbeddings(ctx, scopeOf(domain)) }),
  embedding: t.field({
    type: EmbeddingType,
    args: { id: t.arg.id({ required: true }) },
    resolve: (domain, { id }, ctx) => getEmbedding(ctx, { ...scopeOf(domain), embeddingId: id }),
  }),
}));

// ── input types: the contract's fields, translations as lists of entries ────

const AssetTranslationInput = builder.inputType('EmbeddingAssetTranslationInput', {
  fields: (t) => ({
    locale: t.string({ required: true }),
    lifetime: t.string(),
    description: t.string(),
  }),
});

const assetInput = (required: boolean) =>
  builder.inputType(required ? 'EmbeddingAssetInput' : 'EmbeddingAssetUpdateInput', {
    fields: (t) => ({
      ...(required
        ? {
            id: t.id({
              description:
                "Only in an embedding's `assets`: the id of one of its current assets, which then keeps that id. Otherwise ignored.",
            }),
          }
        : {}),
      name: t.string({ required }),
      dynamic: t.boolean(),
      storageType: t.string({ description: oneOf(STORAGE_TYPES) }),
      lifetime: t.string(),
      description: t.string(),
      translations: t.field({ type: [AssetTranslationInput] }),
    }),
  });
const AssetInput = assetInput(true);
const AssetUpdateInput = assetInput(false);

const EmbeddingTranslationInput = builder.inputType('EmbeddingTranslationInput', {
  fields: (t) => ({
    locale: t.string({ required: true }),
    ...Object.fromEntries(TRANSLATION_TEXTS.map((key) => [key, t.string()])),
  }),
});

const embeddingInput = (required: boolean) =>
  builder.inputType(required ? 'EmbeddingCreateInput' : 'EmbeddingUpdateInput', {
    fields: (t) => ({
      name: t.string({ required }),
      active: t.boolean({ description: 'Default true.' }),
      purpose: t.string({ required, description: oneOf(PURPOSE_LIST, 'A purpose id') }),
      vendor: t.string(),
      scriptHtmlCode: t.string(),
      scriptLoaderGroup: t.string(),
      scriptMarkers: t.stringList(),
      iframeMarkers: t.stringList(),
      hideIframesUntilConsent: t.boolean(),
      excludeUrlsMode: t.string(),
      excludeFromUrls: t.stringList(),
      description: t.string(),
      privacyPolicyUrl: t.string({ description: 'An absolute http(s) URL or empty.' }),
      whatDataIsCollected: t.string(),
      purposeOfDataCollection: t.string(),
      legalBasis: t.string(),
      placeOfProcessing: t.string(),
      translations: t.field({ type: [EmbeddingTranslationInput] }),
      tcfVendor: t.int(),
      tcfPurposes: t.intList(),
      tcfSpecialFeatures: t.intList(),
      googleConsentMode: t.stringList({ description: oneOf(GOOGLE_CONSENT_MODES, 'Each of') }),
      assets: t.field({ type: [AssetInput], description: 'Replaces every asset of the embedding.' }),
    }),
  });
const EmbeddingCreateInput = embeddingInput(true);
const EmbeddingUpdateInput = embeddingInput(false);

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
