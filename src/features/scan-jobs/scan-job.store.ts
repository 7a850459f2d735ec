import type { EntityManager } from '@mikro-orm/postgresql';
import type { VisitedPage } from '../../scanner/scan.ts';
import type { OnboardingScanResult } from '../onboarding/onboarding.contract.ts';
import { type JobRecord, jobSummaryOf, jobTable, parsedJson } from './job-table.ts';
import type { ScanJob, ScanJobError, ScanJobSummary, ScanTrigger } from './scan-job.contract.ts';

/** The `scan_job` rows, in SQL: the statements of a job table (job-table.ts), and the scan's progress. */

type ScanJobRecord = JobRecord<ScanTrigger> & {
  page_limit: number;
  pages: VisitedPage[] | string;
  result?: OnboardingScanResult | string | null;
};

function toSummary(row: ScanJobRecord): ScanJobSummary {
  // The scan's own fields stand before `attempts` in its answer, as they always have.
  const { attempts, worker, error, ...job } = jobSummaryOf(row);
  return { ...job, pageLimit: row.page_limit, pagesVisited: parsedJson(row.pages).length, attempts, worker, error };
}

function toJob(row: ScanJobRecord): ScanJob {
  return { ...toSummary(row), pages: parsedJson(row.pages), result: row.result == null ? null : parsedJson(row.result) };
}

const scanJobs = jobTable<ScanJobRecord, ScanJobSummary, ScanJob>({
  table: 'scan_job',
  summaryColumns: ['id', 'domain_id', 'trigger', 'status', 'url', 'requested_at', 'started_at', 'finished_at', 'page_limit', 'pages', 'attempts', 'worker', 'error'],
  toSummary,
  toJob,
  // A new run starts without pages.
  claimResets: [`"pages" = '[]'`],
});

export function insertScanJob(em: EntityManager, job: { id: string; domainId: string; trigger: ScanTrigger; url: string; pageLimit: number }): Promise<ScanJob> {
  return scanJobs.insert(em, job, { page_limit: job.pageLimit, pages: '[]' });
}

export const findScanJob = scanJobs.find;
export const listScanJobs = scanJobs.list;
export const previousSucceededJob = scanJobs.previousSucceeded;
export const unfinishedJobOf = scanJobs.unfinishedOf;
export const claimScanJob = scanJobs.claim;

export async function recordScanProgress(em: EntityManager, id: string, pages: VisitedPage[]): Promise<void> {
  await em.execute(`update "scan_job" set "pages" = ? where "id" = ? and "status" = 'running'`, [JSON.stringify(pages), id]);
}

export async function finishScanJob(
  em: EntityManager,
  id: string,
  end: { result: OnboardingScanResult } | { error: ScanJobError; pages?: VisitedPage[] },
): Promise<void> {
  if ('result' in end) await scanJobs.succeed(em, id, { result: JSON.stringify(end.result), pages: JSON.stringify(end.result.pages) });
  else await scanJobs.fail(em, id, end.error, end.pages ? { pages: JSON.stringify(end.pages) } : {});
}
