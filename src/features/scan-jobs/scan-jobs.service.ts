import type { MikroORM } from '@mikro-orm/postgresql';
import { newId } from '../../kernel/ids.ts';
import type { Scanner } from '../../scanner/scan.ts';
import type { ScanJob } from './scan-job.contract.ts';
import { insertScanJob } from './scan-job.store.ts';
import { type ScanQueue, workerName } from './scan-queue.ts';
import { runScanJob, type ScanRunner } from './scan-run.ts';

/** What the service holds for scan jobs (AppServices `scanJobs`). */
export type ScanJobs = {
  /** Where started scans go to the workers. */
  queue: ScanQueue;
  /** What runs a scan in this process. */
  runner: ScanRunner;
  /** The most pages a scan visits. */
  pageLimit: number;
  /**
   * Scans the domain's address here and now, kept as a job like a started one (the synchronous
   * onboarding scan). A ScanError is thrown as the scanner threw it; undefined: the domain was
   * deleted meanwhile.
   */
  scanNow(domainId: string, url: string): Promise<ScanJob | undefined>;
};

export function createScanJobs({
  orm,
  scanner,
  queue,
  pageLimit,
  afterSuccess,
  onAfterSuccessError,
  observeQueued,
}: {
  orm: MikroORM;
  scanner: Scanner;
  queue: ScanQueue;
  pageLimit: number;
} & Pick<ScanRunner, 'afterSuccess' | 'onAfterSuccessError' | 'observeQueued'>): ScanJobs {
  const runner: ScanRunner = { orm, scanner, worker: workerName(), afterSuccess, onAfterSuccessError, observeQueued };
  return {
    queue,
    runner,
    pageLimit,
    async scanNow(domainId, url) {
      const job = await insertScanJob(orm.em.fork(), { id: newId(), domainId, trigger: 'request', url, pageLimit });
      return runScanJob(runner, job.id);
    },
  };
}
