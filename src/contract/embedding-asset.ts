import { z } from 'zod';
import { nameText, readOnly, text, translations } from './fields.ts';

/** EmbeddingAsset ("cookie"): a cookie or storage key an embedding sets (SERVICE.md §2). */

export const STORAGE_TYPES = ['cookie', 'localStorage', 'sessionStorage', 'indexedDb', 'webSql', 'other'] as const;
export type StorageType = (typeof STORAGE_TYPES)[number];

export const assetTranslation = z.strictObject({
  lifetime: text().optional(),
  description: text().optional(),
});

export const assetFields = {
  id: readOnly(),
  name: nameText(),
  dynamic: z.boolean(),
  storageType: z.enum(STORAGE_TYPES),
  lifetime: text(),
  description: text(),
  translations: translations(assetTranslation),
};

export const assetCreate = z.strictObject(assetFields).partial().required({ name: true });
export const assetUpdate = z.strictObject(assetFields).partial();

export const assetDefaults = {
  dynamic: false,
  storageType: 'cookie' as StorageType,
  lifetime: '',
  description: '',
  translations: {},
};

export type AssetTranslation = z.infer<typeof assetTranslation>;
export type AssetCreate = z.infer<typeof assetCreate>;
export type AssetUpdate = z.infer<typeof assetUpdate>;

export type EmbeddingAsset = {
  id: string;
  name: string;
  dynamic: boolean;
  storageType: StorageType;
  lifetime: string;
  description: string;
  translations: Record<string, AssetTranslation>;
};
