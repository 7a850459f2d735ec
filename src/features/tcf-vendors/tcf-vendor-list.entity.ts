import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { timestamps } from '../../db/timestamps.ts';

/**
 * Every Global Vendor List an operator imported, whole, by version: a domain's vendors and the
 * texts its banner shows come from the list (and version) its revision names, so an older version
 * stays readable after a newer one is imported. Rows are written by the import alone.
 */
export const TcfVendorListEntity = defineEntity({
  name: 'TcfVendorList',
  tableName: 'tcf_vendor_list',
  properties: {
    vendorListVersion: p.integer().primary().autoincrement(false),
    tcfPolicyVersion: p.integer(),
    lastUpdated: p.datetime(),
    /** sha256 of the document as imported (hex): what the in-process cache of parsed lists goes by. */
    contentHash: p.text(),
    /** The file as imported (format v3). */
    document: p.json<Record<string, unknown>>(),
    ...timestamps(),
  },
});

/**
 * An imported translation of a list's texts (IAB's `purposes-xx.json`): purposes, special purposes,
 * features, special features, stacks and data categories in one language, kept per language and
 * the list version it was made for (a newer import of the same pair replaces it).
 */
export const TcfTranslationEntity = defineEntity({
  name: 'TcfTranslation',
  tableName: 'tcf_translation',
  properties: {
    /** ISO 639-1, lower case. */
    language: p.text().primary(),
    vendorListVersion: p.integer().primary(),
    contentHash: p.text(),
    document: p.json<Record<string, unknown>>(),
    ...timestamps(),
  },
});

/**
 * The list version current when a domain's `tcfEnabled` last turned on (a database trigger keeps
 * it; Migration20261128150000_tcf_vendor_lists); null while no list had been imported (the next
 * import sets it). Without `tcfEnableNewVendorsAfterGvlUpdate`, vendors that list lacks are not asked for.
 */
export const TcfDomainBaseEntity = defineEntity({
  name: 'TcfDomainBase',
  tableName: 'tcf_domain_base',
  properties: {
    domainId: p.uuid().primary(),
    vendorListVersion: p.integer().nullable(),
    ...timestamps(),
  },
});

export type TcfVendorListRow = InferEntity<typeof TcfVendorListEntity>;
