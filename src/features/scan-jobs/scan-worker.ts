import { ScanError } from '../../scanner/scan.ts';
import type { ScanOutcome } from '../onboarding/scan-gate.ts';
import type { ScanQueue } from './scan-queue.ts';
import { runScanJob, type ScanRunner } from './scan-run.ts';
import { finishScanJob } from './scan-job.store.ts';

/**
 * Takes queued scans and runs them in this process, `concurrency` at once: in the API process
 * (unless SCAN_WORKER=0) and in `consent-config scan-worker` processes. A scan that ends in a
 * ScanError has ended (recorded on the job); anything else fails the queue's try, which it
 * repeats with a growing delay.
 */
export async function startScanWorker(queue: ScanQueue, runner: ScanRunner, concurrency: number): Promise<void> {
  await queue.work({
    concurrency,
    async run(scanJobId) {
      const started = performance.now();
      const observe = (outcome: ScanOutcome) => runner.observeQueued?.(outcome, (performance.now() - started) / 1000);
      try {
        if (await runScanJob(runner, scanJobId)) observe('ok');
      } catch (error) {
        observe(error instanceof ScanError ? error.failure : 'crawl');
        if (!(error instanceof ScanError)) throw error;
      }
    },
    async interrupted(scanJobId, reason) {
      await finishScanJob(runner.orm.em.fork(), scanJobId, { error: { kind: 'interrupted', message: reason } });
    },
  });
}
