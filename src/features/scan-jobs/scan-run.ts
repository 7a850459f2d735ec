import type { MikroORM } from '@mikro-orm/postgresql';
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
    const findings = await scanner.scan(job.url, { onPage });
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
