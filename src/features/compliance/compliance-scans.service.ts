import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { JobQueue } from '../../db/job-queue.ts';
import { siteUrl } from '../../kernel/contract/site-address.ts';
import { newId } from '../../kernel/ids.ts';
import { ConsentCheckError } from '../../scanner/compliance.ts';
import type { Scanner } from '../../scanner/scan.ts';
import { sendToDomainOwner, type WebhookDeliveries } from '../permanent-scan/webhook-delivery.ts';
import type { ScanJob } from '../scan-jobs/scan-job.contract.ts';
import { createScanQueue, type ScanQueue, workerName } from '../scan-jobs/scan-queue.ts';
import type { ComplianceFinding, ComplianceScan } from './compliance-scan.contract.ts';
import { type ComplianceRunner, runComplianceScan } from './compliance-run.ts';
import { finishComplianceScan, insertComplianceScan, previousSucceededComplianceScan, unfinishedComplianceScanOf } from './compliance-scan.store.ts';

/** What the service holds for compliance scans (AppServices `complianceScans`). */
export type ComplianceScans = {
  /** Where started compliance scans go to the workers (the job queue's `compliance-scan`). */
  queue: ScanQueue;
  /** What runs one in this process. */
  runner: ComplianceRunner;
};

/** The queue on the job queue that hands compliance scans to workers. */
export const COMPLIANCE_QUEUE = 'compliance-scan';

/** The webhook event of new violations a scheduled compliance scan found. */
export const VIOLATIONS_EVENT = 'compliance.violations';

/**
 * Compliance scans on the job queue, run with the scanner's browser; the violations a scheduled
 * one finds that the one before it did not go to the client's webhook.
 */
export function createComplianceScans({
  orm,
  scanner,
  jobs,
  webhooks,
  onError,
}: {
  orm: MikroORM;
  scanner: Scanner;
  jobs: () => Promise<JobQueue>;
  webhooks: WebhookDeliveries;
  onError: (error: unknown, what: string) => void;
}): ComplianceScans {
  return {
    queue: createScanQueue(jobs, { name: COMPLIANCE_QUEUE }),
    runner: {
      orm,
      scanner,
      worker: workerName(),
      afterSuccess: violationsToWebhook({ orm, webhooks }),
      onAfterSuccessError: (error) => onError(error, 'telling the webhook of a compliance scan’s violations failed'),
    },
  };
}

/**
 * Stores a compliance scan of the domain's address and hands it to the workers, unless one is
 * queued or running: the scan, or the unfinished one (`running`). A queue that cannot be reached
 * fails the stored scan as interrupted and throws.
 */
export async function queueComplianceScan(
  em: EntityManager,
  queue: ScanQueue,
  domain: { id: string } & Parameters<typeof siteUrl>[0],
  trigger: ComplianceScan['trigger'],
): Promise<{ queued: ComplianceScan } | { running: { id: string; status: string } }> {
  const unfinished = await unfinishedComplianceScanOf(em, domain.id);
  if (unfinished) return { running: unfinished };
  const scan = await insertComplianceScan(em, { id: newId(), domainId: domain.id, trigger, url: siteUrl(domain) });
  try {
    await queue.enqueue(scan.id);
  } catch (error) {
    const message = `the compliance scan could not be queued: ${error instanceof Error ? error.message : String(error)}`;
    await finishComplianceScan(em, scan.id, { error: { kind: 'interrupted', message } }).catch(() => {});
    throw error;
  }
  return { queued: scan };
}

/**
 * The permanent scan's compliance pass: after a scheduled scan of a domain has succeeded, a
 * compliance scan of it is queued (unless one is queued or running), so every domain with
 * `permanentScanEnabled` is checked as often as it is scanned.
 */
export function compliancePassAfterScan({ orm, complianceScans }: { orm: MikroORM; complianceScans: ComplianceScans }): (job: ScanJob) => Promise<void> {
  return async (job) => {
    if (job.trigger !== 'schedule') return;
    const [domain] = await orm.em.fork().execute<{ id: string; scheme: 'http' | 'https'; host: string; port: number | null; path: string }[]>(
        `select "id", "scheme", "host", "port", "path" from "domain" where "id" = ? and "permanent_scan_enabled"`,
        [job.domainId],
      );
    if (domain) await queueComplianceScan(orm.em.fork(), complianceScans.queue, domain, 'schedule');
  };
}

/** Takes queued compliance scans and runs them in this process, `concurrency` at once. */
export async function startComplianceWorker({ queue, runner }: ComplianceScans, concurrency: number): Promise<void> {
  await queue.work({
    concurrency,
    async run(id) {
      try {
        await runComplianceScan(runner, id);
      } catch (error) {
        if (!(error instanceof ConsentCheckError)) throw error;
      }
    },
    async interrupted(id, reason) {
      await finishComplianceScan(runner.orm.em.fork(), id, { error: { kind: 'interrupted', message: reason } });
    },
  });
}

/** A finding as the same violation found again (on whichever page): state, kind, what, whose. */
const violationKey = (finding: ComplianceFinding) =>
  [finding.state, finding.kind, finding.name, finding.host, finding.path, finding.resourceType, finding.storageType, finding.embeddingId, finding.presetId].join('\n');

/**
 * After a scheduled compliance scan with violations: those the domain's compliance scan before it
 * did not find go to the client's webhook (a violation found again is not news), as
 * `compliance.violations`.
 */
function violationsToWebhook({ orm, webhooks }: { orm: MikroORM; webhooks: WebhookDeliveries }): (scan: ComplianceScan) => Promise<void> {
  return async (scan) => {
    if (scan.trigger !== 'schedule' || scan.findings.length === 0) return;
    const em = orm.em.fork();
    const previous = await previousSucceededComplianceScan(em, scan.domainId, scan);
    const known = new Set((previous?.findings ?? []).map(violationKey));
    const fresh = scan.findings.filter((finding) => !known.has(violationKey(finding)));
    if (fresh.length === 0) return;
    await sendToDomainOwner(em, webhooks, scan.domainId, VIOLATIONS_EVENT, (clientId) => ({
      clientId,
      domainId: scan.domainId,
      complianceScanId: scan.id,
      url: scan.url,
      revision: scan.revision,
      verdict: scan.verdict,
      findings: fresh,
    }));
  };
}
