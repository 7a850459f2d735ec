import type { MikroORM } from '@mikro-orm/postgresql';
import type { JobQueue } from '../db/job-queue.ts';
import { compliancePassAfterScan, type ComplianceScans, createComplianceScans, startComplianceWorker } from '../features/compliance/compliance-scans.service.ts';
import { findingsAfterScan, type PermanentScan, startPermanentScan } from '../features/permanent-scan/permanent-scan.ts';
import { createWebhookDeliveries, type WebhookDeliveries } from '../features/permanent-scan/webhook-delivery.ts';
import { createScanJobs, type ScanJobs } from '../features/scan-jobs/scan-jobs.service.ts';
import { createScanQueue } from '../features/scan-jobs/scan-queue.ts';
import { startScanWorker } from '../features/scan-jobs/scan-worker.ts';
import { dnsEgressPolicy, type EgressPolicy } from '../scanner/address-policy.ts';
import type { Scanner } from '../scanner/scan.ts';
import type { ScanOutcome } from '../features/onboarding/scan-gate.ts';

/**
 * How scans, their findings and webhook deliveries are put together on the job queue — the same
 * for the service, a worker process and the tests.
 */
export type Scanning = { scanJobs: ScanJobs; webhooks: WebhookDeliveries; complianceScans: ComplianceScans };

export function composeScanning({
  orm,
  scanner,
  jobs,
  pageLimit,
  webhookPolicy = dnsEgressPolicy({ allowPrivate: false }),
  webhookRetryDelaySeconds,
  observeQueuedScan,
  onError,
}: {
  orm: MikroORM;
  scanner: Scanner;
  /** The job queue (asked for at first use). */
  jobs: () => Promise<JobQueue>;
  pageLimit: number;
  /** Where webhook deliveries may connect (default: public addresses only). */
  webhookPolicy?: EgressPolicy;
  webhookRetryDelaySeconds?: number;
  /** Told how each queued scan this process runs ended, and how long it took (the metrics). */
  observeQueuedScan?: (outcome: ScanOutcome, seconds: number) => void;
  onError: (error: unknown, what: string) => void;
}): Scanning {
  const webhooks = createWebhookDeliveries(jobs, {
    orm,
    policy: webhookPolicy,
    retryDelaySeconds: webhookRetryDelaySeconds,
    onRefused: (clientId, reason) => onError(new Error(reason), `a webhook delivery of client ${clientId} was refused`),
  });
  const complianceScans = createComplianceScans({ orm, scanner, jobs, webhooks, onError });
  const findings = findingsAfterScan({ orm, webhooks });
  const compliancePass = compliancePassAfterScan({ orm, complianceScans });
  const scanJobs = createScanJobs({
    orm,
    scanner,
    queue: createScanQueue(jobs),
    pageLimit,
    observeQueued: observeQueuedScan,
    // A scheduled scan's findings are recorded, then its domain gets its compliance pass.
    afterSuccess: async (job) => {
      await findings(job).catch((error: unknown) => onError(error, 'recording the findings of a scan failed'));
      await compliancePass(job).catch((error: unknown) => onError(error, 'queueing the compliance scan of a scheduled scan failed'));
    },
  });
  return { scanJobs, webhooks, complianceScans };
}

export type PermanentScanTiming = {
  /** How long after a domain's last scheduled scan the next one is queued. */
  intervalMs: number;
  /** How often the domains due are looked for. */
  sweepEveryMs: number;
};

/** The permanent scan's timing for an interval in minutes: a sweep a minute (or twice an interval, if shorter). */
export const permanentScanTiming = (intervalMinutes: number): PermanentScanTiming => ({
  intervalMs: intervalMinutes * 60_000,
  sweepEveryMs: Math.min(60_000, (intervalMinutes * 60_000) / 2),
});

/**
 * The work a process takes from the queue: queued scans and queued compliance scans
 * (`concurrency` of each at once), webhook deliveries, and the permanent scan's sweep. The API
 * process runs it unless SCAN_WORKER=0; a `consent-config scan-worker` process runs nothing else.
 */
export async function startBackgroundWork({
  orm,
  scanning,
  concurrency,
  permanentScan,
  onError,
}: {
  orm: MikroORM;
  scanning: Scanning;
  concurrency: number;
  permanentScan: PermanentScanTiming;
  onError: (error: unknown, what: string) => void;
}): Promise<{ stop(): Promise<void> }> {
  const { scanJobs, webhooks, complianceScans } = scanning;
  await startScanWorker(scanJobs.queue, scanJobs.runner, concurrency);
  await startComplianceWorker(complianceScans, concurrency);
  await webhooks.work();
  const sweep: PermanentScan = startPermanentScan({
    orm,
    queue: scanJobs.queue,
    pageLimit: scanJobs.pageLimit,
    ...permanentScan,
    onError: (error) => onError(error, 'the permanent scan could not queue its scans'),
  });
  return { stop: () => sweep.stop() };
}
