import type { EntityManager } from '@mikro-orm/postgresql';
import type { ScanJobError, ScanJobStatus } from '../scan-jobs/scan-job.contract.ts';
import type { ComplianceResult, ComplianceScan, ComplianceScanSummary, ComplianceTrigger, ComplianceVerdict } from './compliance-scan.contract.ts';

/**
 * The `compliance_scan` rows, in SQL: single statements, as for `scan_job` (written by processes
 * that serve no request).
 */

type ComplianceScanRecord = {
  id: string;
  domain_id: string;
  trigger: ComplianceTrigger;
  status: ScanJobStatus;
  url: string;
  requested_at: Date | string;
  started_at: Date | string | null;
  finished_at: Date | string | null;
  revision: string | null;
  revision_number: number | null;
  verdict: ComplianceVerdict | null;
  finding_count: number;
  attempts: number;
  worker: string | null;
  error: ScanJobError | string | null;
  result?: ComplianceResult | string | null;
};

const SUMMARY_COLUMNS = `"id", "domain_id", "trigger", "status", "url", "requested_at", "started_at", "finished_at", "revision", "revision_number", "verdict", "finding_count", "attempts", "worker", "error"`;
const ALL_COLUMNS = `${SUMMARY_COLUMNS}, "result"`;

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());
const parsed = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);

function toSummary(row: ComplianceScanRecord): ComplianceScanSummary {
  return {
    id: row.id,
    domainId: row.domain_id,
    trigger: row.trigger,
    status: row.status,
    url: row.url,
    requestedAt: iso(row.requested_at)!,
    startedAt: iso(row.started_at),
    finishedAt: iso(row.finished_at),
    attempts: row.attempts,
    worker: row.worker,
    error: row.error === null ? null : parsed(row.error),
    revision: row.revision,
    revisionNumber: row.revision_number,
    verdict: row.verdict,
    findingCount: row.finding_count,
  };
}

function toScan(row: ComplianceScanRecord): ComplianceScan {
  const result = row.result == null ? null : parsed(row.result);
  return {
    ...toSummary(row),
    site: result?.site ?? null,
    bannerOrigin: result?.bannerOrigin ?? null,
    durationMs: result?.durationMs ?? null,
    findings: result?.findings ?? [],
    states: result?.states ?? null,
  };
}

export async function insertComplianceScan(
  em: EntityManager,
  scan: { id: string; domainId: string; trigger: ComplianceTrigger; url: string },
): Promise<ComplianceScan> {
  const [row] = await em.execute<ComplianceScanRecord[]>(
    `insert into "compliance_scan" ("id", "domain_id", "trigger", "status", "url") values (?, ?, ?, 'queued', ?) returning ${ALL_COLUMNS}`,
    [scan.id, scan.domainId, scan.trigger, scan.url],
  );
  return toScan(row!);
}

/** The scan, if it is one of the domain's. */
export async function findComplianceScan(em: EntityManager, domainId: string, id: string): Promise<ComplianceScan | undefined> {
  const [row] = await em.execute<ComplianceScanRecord[]>(`select ${ALL_COLUMNS} from "compliance_scan" where "id" = ? and "domain_id" = ?`, [id, domainId]);
  return row && toScan(row);
}

/** The domain's scans, newest first, requested before `before` (a scan id) if given. */
export async function listComplianceScans(
  em: EntityManager,
  domainId: string,
  { before, limit }: { before?: string; limit: number },
): Promise<ComplianceScanSummary[]> {
  const rows = await em.execute<ComplianceScanRecord[]>(
    `select ${SUMMARY_COLUMNS} from "compliance_scan" where "domain_id" = ?` +
      (before ? ` and ("requested_at", "id") < (select "requested_at", "id" from "compliance_scan" where "id" = ? and "domain_id" = ?)` : '') +
      ` order by "requested_at" desc, "id" desc limit ?`,
    before ? [domainId, before, domainId, limit] : [domainId, limit],
  );
  return rows.map(toSummary);
}

/** The domain's latest succeeded scan requested before the given one. */
export async function previousSucceededComplianceScan(em: EntityManager, domainId: string, scan: ComplianceScanSummary): Promise<ComplianceScan | undefined> {
  const [row] = await em.execute<ComplianceScanRecord[]>(
    `select ${ALL_COLUMNS} from "compliance_scan" where "domain_id" = ? and "status" = 'succeeded' and ("requested_at", "id") < (?::timestamptz, ?::uuid) ` +
      `order by "requested_at" desc, "id" desc limit 1`,
    [domainId, scan.requestedAt, scan.id],
  );
  return row && toScan(row);
}

/** A queued or running compliance scan of the domain, if any (one runs at a time per domain). */
export async function unfinishedComplianceScanOf(em: EntityManager, domainId: string): Promise<ComplianceScanSummary | undefined> {
  const [row] = await em.execute<ComplianceScanRecord[]>(
    `select ${SUMMARY_COLUMNS} from "compliance_scan" where "domain_id" = ? and "status" in ('queued', 'running') order by "requested_at" limit 1`,
    [domainId],
  );
  return row && toSummary(row);
}

/** Takes the scan for a run; nothing when it has already ended or no longer exists. */
export async function claimComplianceScan(em: EntityManager, id: string, worker: string): Promise<ComplianceScan | undefined> {
  const [row] = await em.execute<ComplianceScanRecord[]>(
    `update "compliance_scan" set "status" = 'running', "started_at" = clock_timestamp(), "attempts" = "attempts" + 1, "worker" = ? ` +
      `where "id" = ? and "status" in ('queued', 'running') returning ${ALL_COLUMNS}`,
    [worker, id],
  );
  return row && toScan(row);
}

export async function finishComplianceScan(
  em: EntityManager,
  id: string,
  end: { result: ComplianceResult; revision: string | null; revisionNumber: number | null } | { error: ScanJobError },
): Promise<void> {
  if ('result' in end) {
    const verdict: ComplianceVerdict = end.result.findings.length === 0 ? 'clean' : 'violations';
    await em.execute(
      `update "compliance_scan" set "status" = 'succeeded', "finished_at" = clock_timestamp(), "result" = ?, "revision" = ?, "revision_number" = ?, ` +
        `"verdict" = ?, "finding_count" = ?, "error" = null where "id" = ?`,
      [JSON.stringify(end.result), end.revision, end.revisionNumber, verdict, end.result.findings.length, id],
    );
  } else {
    await em.execute(
      `update "compliance_scan" set "status" = 'failed', "finished_at" = clock_timestamp(), "error" = ? where "id" = ? and "status" in ('queued', 'running')`,
      [JSON.stringify(end.error), id],
    );
  }
}
