import { defineEntity, p } from '@mikro-orm/core';
import { DomainEntity } from '../domains/domain.entity.ts';
import { FINDING_KINDS, type FindingDetail } from './scan-finding.contract.ts';

/**
 * Something a permanent scan found on the site that no embedding of the domain declares: a
 * cookie, a storage key or a recognised service. One row per domain, kind and key; a later scan
 * that finds it again updates when it was last seen.
 */
export const ScanFindingEntity = defineEntity({
  name: 'ScanFinding',
  tableName: 'scan_finding',
  uniques: [{ name: 'scan_finding_domain_kind_key_unique', properties: ['domain', 'kind', 'key'] }],
  properties: {
    id: p.uuid().primary(),
    domain: () => p.manyToOne(DomainEntity).deleteRule('cascade'),
    kind: p.enum(FINDING_KINDS),
    /** What identifies it within its kind: a cookie's name, `storageType name` of a key, a preset id. */
    key: p.text(),
    name: p.text(),
    detail: p.json<FindingDetail>(),
    firstScanId: p.uuid(),
    lastScanId: p.uuid(),
    firstSeenAt: p.datetime().defaultRaw('clock_timestamp()'),
    lastSeenAt: p.datetime().defaultRaw('clock_timestamp()'),
    timesSeen: p.integer().default(1),
  },
});
