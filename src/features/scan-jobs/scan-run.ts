import type { MikroORM } from '@mikro-orm/postgresql';
import { inSpan } from '../../kernel/tracing.ts';
import type { ScanOutcome } from '../onboarding/scan-gate.ts';
import { ScanError, type Scanner, type VisitedPage } from '../../scanner/scan.ts';
import { loadCatalog } from '../catalog/catalog.ts';
import { scanResultOf } from '../onboarding/scan-result.ts';
import type { ScanJob } from './scan-job.contract.ts';
import { claimScanJob, finishScanJob, recordScanProgress } from './scan-job.store.ts';

export type ScanRunner = {
  orm: MikroORM;
  scanner: Scanner;
  /** Who runs it (`host:pid`), recorded on the job while it runs. */
  worker: string;
  /** What else happens when a scan has succeeded (the permanent scan's findings); its failure is only reported. */
  afterSuccess?: (job: ScanJob) => Promise<void>;
  onAfterSuccessError?: (error: unknown) => void;
  /** Told how each queued scan run here ended (the metrics); a scan run at once is told by the scan gate. */
  observeQueued?: (outcome: ScanOutcome, seconds: number) => void;
};

/**
 * Runs a stored scan job to its end: claims it, scans its address, writes each page's visit as it
 * ends (the progress readers watch), then the result or why it failed. A ScanError (the site, a
 * refused address, the crawl) is recorded and thrown again; anything else (the database went away)
 * is thrown with the job left running, for the queue to try again. Undefined: the job had already
 * ended or no longer exists.
 */
export async function runScanJob({ orm, scanner, worker, afterSuccess, onAfterSuccessError }: ScanRunner, id: string): Promise<ScanJob | undefined> {
  const em = orm.em.fork();
  const job = await claimScanJob(em, id, worker);
  if (!job) return undefined;
  const pages: VisitedPage[] = [];
  // Progress is written one page after another, never two writes at once.
  let progress = Promise.resolve();
  const onPage = (page: VisitedPage) => {
    pages.push({ ...page });
    const snapshot = [...pages];
    progress = progress.then(() => recordScanProgress(em, id, snapshot)).catch(() => {});
  };
  try {
    const findings = await inSpan(
      'scan',
      { attributes: { 'scan.job_id': id, 'scan.domain_id': job.domainId, 'scan.trigger': job.trigger, 'url.full': job.url, 'scan.page_limit': job.pageLimit } },
      async (span) => {
        try {
          const found = await scanner.scan(job.url, { onPage });
          span.setAttributes({ 'scan.outcome': 'ok', 'scan.pages_visited': pages.length });
          return found;
        } catch (error) {
          span.setAttributes({ 'scan.outcome': error instanceof ScanError ? error.failure : 'crawl', 'scan.pages_visited': pages.length });
          throw error;
        }
      },
    );
    await progress;
    const result = scanResultOf(findings, await loadCatalog(em));
    await finishScanJob(em, id, { result });
    const done: ScanJob = { ...job, status: 'succeeded', pages: result.pages, pagesVisited: result.pages.length, result };
    await afterSuccess?.(done).catch((error: unknown) => onAfterSuccessError?.(error));
    return done;
  } catch (error) {
    await progress;
    if (error instanceof ScanError) {
      await finishScanJob(em, id, { error: { kind: error.failure, message: error.message }, pages });
    }
    throw error;
  }
}
