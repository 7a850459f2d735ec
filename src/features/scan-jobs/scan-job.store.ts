import type { EntityManager } from '@mikro-orm/postgresql';
import type { VisitedPage } from '../../scanner/scan.ts';
import type { OnboardingScanResult } from '../onboarding/onboarding.contract.ts';
import type { ScanJob, ScanJobError, ScanJobStatus, ScanJobSummary, ScanTrigger } from './scan-job.contract.ts';

/**
 * The `scan_job` rows, in SQL: a running scan writes its progress many times and from processes
 * that have no request, so these are single statements rather than unit-of-work flushes.
 */

type ScanJobRecord = {
  id: string;
  domain_id: string;
  trigger: ScanTrigger;
  status: ScanJobStatus;
  url: string;
  requested_at: Date | string;
  started_at: Date | string | null;
  finished_at: Date | string | null;
  page_limit: number;
  pages: VisitedPage[] | string;
  attempts: number;
  worker: string | null;
  error: ScanJobError | string | null;
  result?: OnboardingScanResult | string | null;
};

const SUMMARY_COLUMNS = `"id", "domain_id", "trigger", "status", "url", "requested_at", "started_at", "finished_at", "page_limit", "pages", "attempts", "worker", "error"`;
const ALL_COLUMNS = `${SUMMARY_COLUMNS}, "result"`;

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());
const parsed = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);

function toSummary(row: ScanJobRecord): ScanJobSummary {
  return {
    id: row.id,
    domainId: row.domain_id,
    trigger: row.trigger,
    status: row.status,
    url: row.url,
    requestedAt: iso(row.requested_at)!,
    startedAt: iso(row.started_at),
    finishedAt: iso(row.finished_at),
    pageLimit: row.page_limit,
    pagesVisited: parsed(row.pages).length,
    attempts: row.attempts,
    worker: row.worker,
    error: row.error === null ? null : parsed(row.error),
  };
}

function toJob(row: ScanJobRecord): ScanJob {
  return { ...toSummary(row), pages: parsed(row.pages), result: row.result == null ? null : parsed(row.result) };
}

export async function insertScanJob(
  em: EntityManager,
  job: { id: string; domainId: string; trigger: ScanTrigger; url: string; pageLimit: number },
): Promise<ScanJob> {
  const [row] = await em.execute<ScanJobRecord[]>(
    `insert into "scan_job" ("id", "domain_id", "trigger", "status", "url", "page_limit", "pages") values (?, ?, ?, 'queued', ?, ?, '[]') returning ${ALL_COLUMNS}`,
    [job.id, job.domainId, job.trigger, job.url, job.pageLimit],
  );
  return toJob(row!);
}

/** The job, if it is one of the domain's. */
export async function findScanJob(em: EntityManager, domainId: string, id: string): Promise<ScanJob | undefined> {
  const [row] = await em.execute<ScanJobRecord[]>(`select ${ALL_COLUMNS} from "scan_job" where "id" = ? and "domain_id" = ?`, [id, domainId]);
  return row && toJob(row);
}

/** The domain's jobs, newest first, requested before `before` (a job id) if given. */
export async function listScanJobs(
  em: EntityManager,
  domainId: string,
  { before, limit }: { before?: string; limit: number },
): Promise<ScanJobSummary[]> {
  const rows = await em.execute<ScanJobRecord[]>(
    `select ${SUMMARY_COLUMNS} from "scan_job" where "domain_id" = ?` +
      (before ? ` and ("requested_at", "id") < (select "requested_at", "id" from "scan_job" where "id" = ? and "domain_id" = ?)` : '') +
      ` order by "requested_at" desc, "id" desc limit ?`,
    before ? [domainId, before, domainId, limit] : [domainId, limit],
  );
  return rows.map(toSummary);
}

/** The domain's latest succeeded job requested before the given one. */
export async function previousSucceededJob(em: EntityManager, domainId: string, job: ScanJob): Promise<ScanJob | undefined> {
  const [row] = await em.execute<ScanJobRecord[]>(
    `select ${ALL_COLUMNS} from "scan_job" where "domain_id" = ? and "status" = 'succeeded' and ("requested_at", "id") < (?::timestamptz, ?::uuid) ` +
      `order by "requested_at" desc, "id" desc limit 1`,
    [domainId, job.requestedAt, job.id],
  );
  return row && toJob(row);
}

/** A queued or running job of the domain, if any (one runs at a time per domain). */
export async function unfinishedJobOf(em: EntityManager, domainId: string): Promise<ScanJobSummary | undefined> {
  const [row] = await em.execute<ScanJobRecord[]>(
    `select ${SUMMARY_COLUMNS} from "scan_job" where "domain_id" = ? and "status" in ('queued', 'running') order by "requested_at" limit 1`,
    [domainId],
  );
  return row && toSummary(row);
}

/**
 * Takes the job for a run: running, one more attempt, no pages yet. Nothing when it has already
 * ended (a duplicate delivery) or no longer exists (its domain was deleted).
 */
export async function claimScanJob(em: EntityManager, id: string, worker: string): Promise<ScanJob | undefined> {
  const [row] = await em.execute<ScanJobRecord[]>(
    `update "scan_job" set "status" = 'running', "started_at" = clock_timestamp(), "attempts" = "attempts" + 1, "worker" = ?, "pages" = '[]' ` +
      `where "id" = ? and "status" in ('queued', 'running') returning ${ALL_COLUMNS}`,
    [worker, id],
  );
  return row && toJob(row);
}

export async function recordScanProgress(em: EntityManager, id: string, pages: VisitedPage[]): Promise<void> {
  await em.execute(`update "scan_job" set "pages" = ? where "id" = ? and "status" = 'running'`, [JSON.stringify(pages), id]);
}

export async function finishScanJob(
  em: EntityManager,
  id: string,
  end: { result: OnboardingScanResult } | { error: ScanJobError; pages?: VisitedPage[] },
): Promise<void> {
  if ('result' in end) {
    await em.execute(
      `update "scan_job" set "status" = 'succeeded', "finished_at" = clock_timestamp(), "result" = ?, "pages" = ?, "error" = null where "id" = ?`,
      [JSON.stringify(end.result), JSON.stringify(end.result.pages), id],
    );
  } else {
    await em.execute(
      `update "scan_job" set "status" = 'failed', "finished_at" = clock_timestamp(), "error" = ?` +
        (end.pages ? `, "pages" = ?` : '') +
        ` where "id" = ? and "status" in ('queued', 'running')`,
      end.pages ? [JSON.stringify(end.error), JSON.stringify(end.pages), id] : [JSON.stringify(end.error), id],
    );
  }
}
