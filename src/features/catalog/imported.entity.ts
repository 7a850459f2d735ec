import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import type { PurposeId } from '../../kernel/contract/fields.ts';
import { timestamps } from '../../db/timestamps.ts';

/**
 * What operators imported from Open Cookie Database files: one service per platform, with its
 * cookies. Imported services get preset ids from 100000 up, stable across re-imports (the
 * platform name is the key).
 */
export const ImportedServiceEntity = defineEntity({
  name: 'ImportedService',
  tableName: 'catalog_service',
  properties: {
    id: p.integer().primary().autoincrement(false),
    platform: p.text().unique(),
    vendor: p.text(),
    purpose: p.text().$type<PurposeId>(),
    privacyPolicyUrl: p.text(),
    ...timestamps(),
  },
});

export const ImportedCookieEntity = defineEntity({
  name: 'ImportedCookie',
  tableName: 'catalog_cookie',
  properties: {
    /** The row's ID in the imported file. */
    id: p.text().primary(),
    service: () => p.manyToOne(ImportedServiceEntity).deleteRule('cascade').index(),
    name: p.text().index(),
    /** The name is a prefix: it matches every name that starts with it. */
    wildcard: p.boolean(),
    category: p.text(),
    domain: p.text(),
    description: p.text(),
    retention: p.text(),
    ...timestamps(),
  },
});

export type ImportedServiceRow = InferEntity<typeof ImportedServiceEntity>;
export type ImportedCookieRow = InferEntity<typeof ImportedCookieEntity>;
