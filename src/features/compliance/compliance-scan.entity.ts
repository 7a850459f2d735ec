import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { DomainEntity } from '../domains/domain.entity.ts';
import { SCAN_JOB_STATUSES, type ScanJobError } from '../scan-jobs/scan-job.contract.ts';
import { COMPLIANCE_TRIGGERS, COMPLIANCE_VERDICTS, type ComplianceResult } from './compliance-scan.contract.ts';

/**
 * One compliance scan of a domain's website, from the moment it was asked for: queued, running,
 * then what the three visitors saw and its verdict against the configuration revision it tested,
 * or why it failed. Run on the job queue like a started scan (its own queue).
 */
export const ComplianceScanEntity = defineEntity({
  name: 'ComplianceScan',
  tableName: 'compliance_scan',
  indexes: [{ name: 'compliance_scan_domain_requested_index', properties: ['domain', 'requestedAt'] }],
  properties: {
    id: p.uuid().primary(),
    domain: () => p.manyToOne(DomainEntity).deleteRule('cascade'),
    trigger: p.enum(COMPLIANCE_TRIGGERS),
    status: p.enum(SCAN_JOB_STATUSES),
    /** The address visited (the domain's, when the scan was asked for). */
    url: p.text(),
    requestedAt: p.datetime().defaultRaw('clock_timestamp()'),
    startedAt: p.datetime().nullable(),
    finishedAt: p.datetime().nullable(),
    /** The content hash of the configuration revision tested. */
    revision: p.text().nullable(),
    revisionNumber: p.integer().nullable(),
    verdict: p.enum(COMPLIANCE_VERDICTS).nullable(),
    findingCount: p.integer().default(0),
    result: p.json<ComplianceResult>().nullable(),
    error: p.json<ScanJobError>().nullable(),
    /** Runs begun: more than one when a worker stopped during the scan and another took it over. */
    attempts: p.integer().default(0),
    /** The process that runs it, or ran it last (`host:pid`). */
    worker: p.text().nullable(),
  },
});

export type ComplianceScanRow = InferEntity<typeof ComplianceScanEntity>;
