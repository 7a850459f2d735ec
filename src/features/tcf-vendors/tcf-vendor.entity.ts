import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { timestamps } from '../../db/timestamps.ts';

/**
 * The TCF vendors of the IAB Europe Global Vendor List an operator last imported
 * (`consent-config tcf import`). Every row comes from the same list: an import replaces them all.
 * An empty table means no list has been imported.
 */
export const TcfVendorEntity = defineEntity({
  name: 'TcfVendor',
  tableName: 'tcf_vendor',
  properties: {
    /** The vendor's id in the Global Vendor List. */
    id: p.integer().primary().autoincrement(false),
    name: p.text(),
    /** From when on the list no longer counts the vendor as valid; null: it does. */
    deletedDate: p.datetime().nullable(),
    /** `vendorListVersion` of the list the vendor came from. */
    vendorListVersion: p.integer(),
    ...timestamps(),
  },
});

export type TcfVendorRow = InferEntity<typeof TcfVendorEntity>;
