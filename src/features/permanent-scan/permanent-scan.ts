import type { MikroORM } from '@mikro-orm/postgresql';
import { siteUrl } from '../../kernel/contract/site-address.ts';
import { newId } from '../../kernel/ids.ts';
import type { ScanJob } from '../scan-jobs/scan-job.contract.ts';
import { finishScanJob, insertScanJob } from '../scan-jobs/scan-job.store.ts';
import type { ScanQueue } from '../scan-jobs/scan-queue.ts';
import { recordFindings } from './scan-findings.ts';
import { sendToDomainOwner, type WebhookDeliveries } from './webhook-delivery.ts';

/**
 * The permanent scan (`permanentScanEnabled` of a domain): every `sweepEveryMs` one process (the
 * first to take the sweep's lock) queues a scan of each such domain whose last scheduled scan was
 * requested more than `intervalMs` ago and that has none queued or running. The scans run on the
 * workers like started ones; what they find that no embedding declares becomes findings.
 */
export type PermanentScan = { stop(): Promise<void> };

/** Domains queued per sweep at most; the next sweep takes the rest. */
const PER_SWEEP = 200;

type DueDomain = { id: string; scheme: 'http' | 'https'; host: string; port: number | null; path: string };

export function startPermanentScan({
  orm,
  queue,
  pageLimit,
  intervalMs,
  sweepEveryMs,
  onError,
}: {
  orm: MikroORM;
  queue: ScanQueue;
  pageLimit: number;
  intervalMs: number;
  sweepEveryMs: number;
  onError: (error: unknown) => void;
}): PermanentScan {
  let running: Promise<void> = Promise.resolve();
  const sweep = async () => {
    const em = orm.em.fork();
    const queued = await em.transactional(async (tx) => {
      // One sweep at a time across every process.
      const [lock] = await tx.execute<{ taken: boolean }[]>(`select pg_try_advisory_xact_lock(hashtext('permanent-scan-sweep')) as "taken"`);
      if (!lock?.taken) return [];
      const due = await tx.execute<DueDomain[]>(
        `select d."id", d."scheme", d."host", d."port", d."path" from "domain" d where d."permanent_scan_enabled" and not exists (` +
          `select 1 from "scan_job" j where j."domain_id" = d."id" and (j."status" in ('queued', 'running') ` +
          `or (j."trigger" = 'schedule' and j."requested_at" > clock_timestamp() - make_interval(secs => ?)))) order by d."id" limit ?`,
        [intervalMs / 1000, PER_SWEEP],
      );
      const jobs: string[] = [];
      for (const domain of due) {
        const job = await insertScanJob(tx, { id: newId(), domainId: domain.id, trigger: 'schedule', url: siteUrl(domain), pageLimit });
        jobs.push(job.id);
      }
      return jobs;
    });
    for (const id of queued) {
      await queue.enqueue(id).catch(async (error: unknown) => {
        onError(error);
        await finishScanJob(em, id, { error: { kind: 'interrupted', message: 'the scan could not be queued' } });
      });
    }
  };
  const timer = setInterval(() => {
    running = running.then(sweep).catch(onError);
  }, sweepEveryMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}

/**
 * What happens after a scheduled scan has succeeded: what it found that no embedding declares is
 * recorded as findings, and the new ones go to the client's webhook, if it has one.
 */
export function findingsAfterScan({ orm, webhooks }: { orm: MikroORM; webhooks: WebhookDeliveries }): (job: ScanJob) => Promise<void> {
  return async (job) => {
    if (job.trigger !== 'schedule' || !job.result) return;
    const em = orm.em.fork();
    const found = await recordFindings(em, { id: job.id, domainId: job.domainId, result: job.result });
    if (found.length === 0) return;
    await sendToDomainOwner(em, webhooks, job.domainId, 'scan.findings', (clientId) => ({ clientId, domainId: job.domainId, scanId: job.id, url: job.url, findings: found }));
  };
}
