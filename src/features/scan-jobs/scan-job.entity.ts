import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { DomainEntity } from '../domains/domain.entity.ts';
import type { VisitedPage } from '../../scanner/scan.ts';
import type { OnboardingScanResult } from '../onboarding/onboarding.contract.ts';
import { SCAN_JOB_STATUSES, SCAN_TRIGGERS, type ScanJobError } from './scan-job.contract.ts';

/**
 * One scan of a domain's website, from the moment it was asked for: its progress page by page
 * while it runs, then its result or why it failed. The synchronous scan, a started job and the
 * permanent scan all leave one.
 */
export const ScanJobEntity = defineEntity({
  name: 'ScanJob',
  tableName: 'scan_job',
  indexes: [{ name: 'scan_job_domain_requested_index', properties: ['domain', 'requestedAt'] }],
  properties: {
    id: p.uuid().primary(),
    domain: () => p.manyToOne(DomainEntity).deleteRule('cascade'),
    trigger: p.enum(SCAN_TRIGGERS),
    status: p.enum(SCAN_JOB_STATUSES),
    /** The address scanned (the domain's, when the scan was asked for). */
    url: p.text(),
    requestedAt: p.datetime().defaultRaw('clock_timestamp()'),
    startedAt: p.datetime().nullable(),
    finishedAt: p.datetime().nullable(),
    pageLimit: p.integer(),
    pages: p.json<VisitedPage[]>(),
    result: p.json<OnboardingScanResult>().nullable(),
    error: p.json<ScanJobError>().nullable(),
    /** Runs begun: more than one when a worker stopped during the scan and another took it over. */
    attempts: p.integer().default(0),
    /** The process that runs it, or ran it last (`host:pid`). */
    worker: p.text().nullable(),
  },
});

export type ScanJobRow = InferEntity<typeof ScanJobEntity>;
