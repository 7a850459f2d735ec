import type { EntityManager } from '@mikro-orm/postgresql';
import { type JobRecord, jobSummaryOf, jobTable, parsedJson } from '../scan-jobs/job-table.ts';
import type { ScanJobError } from '../scan-jobs/scan-job.contract.ts';
import type { ComplianceResult, ComplianceScan, ComplianceScanSummary, ComplianceTrigger, ComplianceVerdict } from './compliance-scan.contract.ts';

/** The `compliance_scan` rows, in SQL: the statements of a job table (scan-jobs/job-table.ts), as for `scan_job`. */

type ComplianceScanRecord = JobRecord<ComplianceTrigger> & {
  revision: string | null;
  revision_number: number | null;
  verdict: ComplianceVerdict | null;
  finding_count: number;
  result?: ComplianceResult | string | null;
};

function toSummary(row: ComplianceScanRecord): ComplianceScanSummary {
  return { ...jobSummaryOf(row), revision: row.revision, revisionNumber: row.revision_number, verdict: row.verdict, findingCount: row.finding_count };
}

function toScan(row: ComplianceScanRecord): ComplianceScan {
  const result = row.result == null ? null : parsedJson(row.result);
  return {
    ...toSummary(row),
    site: result?.site ?? null,
    bannerOrigin: result?.bannerOrigin ?? null,
    durationMs: result?.durationMs ?? null,
    findings: result?.findings ?? [],
    states: result?.states ?? null,
  };
}

const complianceScans = jobTable<ComplianceScanRecord, ComplianceScanSummary, ComplianceScan>({
  table: 'compliance_scan',
  summaryColumns: ['id', 'domain_id', 'trigger', 'status', 'url', 'requested_at', 'started_at', 'finished_at', 'revision', 'revision_number', 'verdict', 'finding_count', 'attempts', 'worker', 'error'],
  toSummary,
  toJob: toScan,
});

export function insertComplianceScan(em: EntityManager, scan: { id: string; domainId: string; trigger: ComplianceTrigger; url: string }): Promise<ComplianceScan> {
  return complianceScans.insert(em, scan);
}

export const findComplianceScan = complianceScans.find;
export const listComplianceScans = complianceScans.list;
export const previousSucceededComplianceScan = complianceScans.previousSucceeded;
export const unfinishedComplianceScanOf = complianceScans.unfinishedOf;
export const claimComplianceScan = complianceScans.claim;

export async function finishComplianceScan(
  em: EntityManager,
  id: string,
  end: { result: ComplianceResult; revision: string | null; revisionNumber: number | null } | { error: ScanJobError },
): Promise<void> {
  if ('result' in end) {
    await complianceScans.succeed(em, id, {
      result: JSON.stringify(end.result),
      revision: end.revision,
      revision_number: end.revisionNumber,
      verdict: end.result.findings.length === 0 ? 'clean' : 'violations',
      finding_count: end.result.findings.length,
    });
  } else await complianceScans.fail(em, id, end.error);
}
