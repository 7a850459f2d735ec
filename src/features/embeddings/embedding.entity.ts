import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import type { AssetTranslation, StorageType } from './embedding-asset.contract.ts';
import type { EmbeddingTranslation, GoogleConsentMode } from './embedding.contract.ts';
import type { PurposeId } from '../../kernel/contract/fields.ts';
import { timestamps } from '../../db/timestamps.ts';
import { DomainEntity } from '../domains/domain.entity.ts';

export const EmbeddingEntity = defineEntity({
  name: 'Embedding',
  tableName: 'embedding',
  indexes: [{ properties: ['domain', 'catalogKey'] }],
  properties: {
    id: p.uuid().primary(),
    domain: () => p.manyToOne(DomainEntity).deleteRule('cascade').index(),
    name: p.text(),
    active: p.boolean(),
    purpose: p.text().$type<PurposeId>(),
    vendor: p.text(),
    scriptHtmlCode: p.text(),
    scriptLoaderGroup: p.text(),
    scriptMarkers: p.json<string[]>(),
    iframeMarkers: p.json<string[]>(),
    hideIframesUntilConsent: p.boolean(),
    excludeUrlsMode: p.text(),
    excludeFromUrls: p.json<string[]>(),
    description: p.text(),
    privacyPolicyUrl: p.text(),
    whatDataIsCollected: p.text(),
    purposeOfDataCollection: p.text(),
    legalBasis: p.text(),
    placeOfProcessing: p.text(),
    translations: p.json<Record<string, EmbeddingTranslation>>(),
    tcfVendor: p.integer().nullable(),
    tcfPurposes: p.json<number[]>(),
    tcfSpecialFeatures: p.json<number[]>(),
    googleConsentMode: p.json<GoogleConsentMode[]>(),
    assets: () => p.oneToMany(EmbeddingAssetEntity).mappedBy('embedding').orderBy({ position: 'asc' }),
    /**
     * Which catalog service the onboarding made this embedding for (`preset:<id>`), or
     * `unrecognised` for the one that collects cookies nobody recognised. Not part of payloads.
     */
    catalogKey: p.text().nullable(),
    ...timestamps(),
  },
});

export const EmbeddingAssetEntity = defineEntity({
  name: 'EmbeddingAsset',
  tableName: 'embedding_asset',
  // An embedding's assets are read in their order: the index gives them sorted.
  indexes: [{ properties: ['embedding', 'position'] }],
  properties: {
    id: p.uuid().primary(),
    embedding: () => p.manyToOne(EmbeddingEntity).deleteRule('cascade'),
    /** Order of the asset within its embedding, as the client last sent the list. */
    position: p.integer(),
    name: p.text(),
    dynamic: p.boolean(),
    storageType: p.text().$type<StorageType>(),
    lifetime: p.text(),
    description: p.text(),
    translations: p.json<Record<string, AssetTranslation>>(),
    ...timestamps(),
  },
});

export type EmbeddingRow = InferEntity<typeof EmbeddingEntity>;
export type EmbeddingAssetRow = InferEntity<typeof EmbeddingAssetEntity>;
/** Stored fields without relations, as the read paths load them. */
export type EmbeddingRecord = Omit<EmbeddingRow, 'domain' | 'assets' | 'createdAt' | 'updatedAt'>;
export type EmbeddingAssetRecord = Omit<EmbeddingAssetRow, 'embedding' | 'createdAt' | 'updatedAt'>;
