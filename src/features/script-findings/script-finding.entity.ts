import { defineEntity, p } from '@mikro-orm/core';
import { DomainEntity } from '../domains/domain.entity.ts';

/**
 * A script the banner found on the domain's pages that no embedding knows: one row per domain and
 * script address (scheme, host and path: the query is never kept), written by the banner's
 * reports (script-report.routes.ts), read by the operators (Migration20261128120000_script_findings).
 */
export const ScriptFindingEntity = defineEntity({
  name: 'ScriptFinding',
  tableName: 'script_finding',
  indexes: [{ name: 'script_finding_domain_id_last_seen_at_index', properties: ['domain', 'lastSeenAt'] }],
  properties: {
    domain: () => p.manyToOne(DomainEntity).primary().deleteRule('cascade'),
    scriptUrl: p.text().primary(),
    /** The path of the page it was first reported from (no query: nothing about the visitor). */
    pagePath: p.text(),
    firstSeenAt: p.datetime().defaultRaw('clock_timestamp()'),
    lastSeenAt: p.datetime().defaultRaw('clock_timestamp()'),
    /** Visitor sessions that reported it. */
    timesSeen: p.integer().default(1),
  },
});
