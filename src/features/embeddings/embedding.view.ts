import type { EmbeddingAsset } from './embedding-asset.contract.ts';
import type { Embedding } from './embedding.contract.ts';
import type { EmbeddingAssetRecord, EmbeddingRecord, EmbeddingRow } from './embedding.entity.ts';

/** Stored rows → the payloads of SERVICE.md §2. */

export const toEmbeddingAsset = (row: EmbeddingAssetRecord): EmbeddingAsset => ({
  id: row.id,
  name: row.name,
  dynamic: row.dynamic,
  storageType: row.storageType,
  lifetime: row.lifetime,
  description: row.description,
  translations: row.translations,
});

/** Without `assets`, the entity's populated collection is used. */
export const toEmbedding = (
  row: EmbeddingRecord,
  assets: EmbeddingAssetRecord[] = (row as EmbeddingRow).assets.getItems(),
): Embedding => ({
  id: row.id,
  name: row.name,
  active: row.active,
  purpose: row.purpose,
  vendor: row.vendor,
  scriptHtmlCode: row.scriptHtmlCode,
  scriptLoaderGroup: row.scriptLoaderGroup,
  scriptMarkers: row.scriptMarkers,
  iframeMarkers: row.iframeMarkers,
  hideIframesUntilConsent: row.hideIframesUntilConsent,
  excludeUrlsMode: row.excludeUrlsMode,
  excludeFromUrls: row.excludeFromUrls,
  description: row.description,
  privacyPolicyUrl: row.privacyPolicyUrl,
  whatDataIsCollected: row.whatDataIsCollected,
  purposeOfDataCollection: row.purposeOfDataCollection,
  legalBasis: row.legalBasis,
  placeOfProcessing: row.placeOfProcessing,
  translations: row.translations,
  tcfVendor: row.tcfVendor ?? null,
  tcfPurposes: row.tcfPurposes,
  tcfSpecialFeatures: row.tcfSpecialFeatures,
  googleConsentMode: row.googleConsentMode,
  assets: assets.map(toEmbeddingAsset),
});
