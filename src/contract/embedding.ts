import { z } from 'zod';
import { assetCreate, type EmbeddingAsset } from './embedding-asset.ts';
import {
  httpUrlOrEmpty,
  list,
  nameText,
  type PurposeId,
  purposeId,
  readOnly,
  text,
  translations,
  uniqueList,
} from './fields.ts';

/** Embedding: a third-party service on the site, with its purpose and assets (SERVICE.md §2). */

export const GOOGLE_CONSENT_MODES = [
  'ad_storage',
  'analytics_storage',
  'functionality_storage',
  'personalization_storage',
  'security_storage',
] as const;
export type GoogleConsentMode = (typeof GOOGLE_CONSENT_MODES)[number];

export const embeddingTranslation = z.strictObject({
  name: text().optional(),
  description: text().optional(),
  privacyPolicyUrl: httpUrlOrEmpty().optional(),
  whatDataIsCollected: text().optional(),
  purposeOfDataCollection: text().optional(),
  legalBasis: text().optional(),
  placeOfProcessing: text().optional(),
  blockedContentTitle: text().optional(),
  blockedContentText: text().optional(),
  blockedContentButtonText: text().optional(),
});

export const embeddingFields = {
  id: readOnly(),
  name: nameText(),
  active: z.boolean(),
  purpose: purposeId,
  vendor: text(),
  scriptHtmlCode: text(),
  scriptLoaderGroup: text(),
  scriptMarkers: list(text()),
  iframeMarkers: list(text()),
  hideIframesUntilConsent: z.boolean(),
  excludeUrlsMode: text(),
  excludeFromUrls: list(text()),
  description: text(),
  privacyPolicyUrl: httpUrlOrEmpty(),
  whatDataIsCollected: text(),
  purposeOfDataCollection: text(),
  legalBasis: text(),
  placeOfProcessing: text(),
  translations: translations(embeddingTranslation),
  tcfVendor: z.int().min(1).nullable(),
  tcfPurposes: uniqueList(z.int().min(1).max(11)),
  tcfSpecialFeatures: uniqueList(z.int().min(1).max(2)),
  googleConsentMode: uniqueList(z.enum(GOOGLE_CONSENT_MODES)),
  /** In a write, replaces every asset of the embedding. */
  assets: list(assetCreate),
};

export const embeddingCreate = z.strictObject(embeddingFields).partial().required({ name: true, purpose: true });
export const embeddingUpdate = z.strictObject(embeddingFields).partial();

export const embeddingDefaults = {
  active: true,
  vendor: '',
  scriptHtmlCode: '',
  scriptLoaderGroup: '',
  scriptMarkers: [] as string[],
  iframeMarkers: [] as string[],
  hideIframesUntilConsent: false,
  excludeUrlsMode: '',
  excludeFromUrls: [] as string[],
  description: '',
  privacyPolicyUrl: '',
  whatDataIsCollected: '',
  purposeOfDataCollection: '',
  legalBasis: '',
  placeOfProcessing: '',
  translations: {} as Record<string, EmbeddingTranslation>,
  tcfVendor: null as number | null,
  tcfPurposes: [] as number[],
  tcfSpecialFeatures: [] as number[],
  googleConsentMode: [] as GoogleConsentMode[],
};

export type EmbeddingTranslation = z.infer<typeof embeddingTranslation>;
export type EmbeddingCreate = z.infer<typeof embeddingCreate>;
export type EmbeddingUpdate = z.infer<typeof embeddingUpdate>;

export type Embedding = Omit<typeof embeddingDefaults, 'googleConsentMode'> & {
  id: string;
  name: string;
  purpose: PurposeId;
  googleConsentMode: GoogleConsentMode[];
  assets: EmbeddingAsset[];
};
