import type { RequestContext } from '../../kernel/context.ts';
import type { DomainScope } from '../../kernel/access.ts';
import { siteUrl } from '../../kernel/contract/site-address.ts';
import { conflict, invalid, notFound, unavailable } from '../../kernel/errors.ts';
import { isId, newId } from '../../kernel/ids.ts';
import { readDomain } from '../domains/domain.access.ts';
import type { ScanComparison, ScanJob, ScanJobSummary } from './scan-job.contract.ts';
import { compareScanResults } from './scan-comparison.ts';
import { findScanJob, finishScanJob, insertScanJob, listScanJobs, previousSucceededJob, unfinishedJobOf } from './scan-job.store.ts';

const DEFAULT_PAGE = 20;
const QUEUE_RETRY_SECONDS = 10;

/**
 * Starts a scan of the domain's website without waiting for it: stored as queued, handed to the
 * workers. One scan of a domain is queued or running at a time (another: 409).
 */
export async function startScan(ctx: RequestContext, scope: DomainScope): Promise<ScanJob> {
  const domain = await readDomain(ctx, scope);
  const { queue, pageLimit } = ctx.services.scanJobs;
  const unfinished = await unfinishedJobOf(ctx.em, domain.id);
  if (unfinished) throw conflict(`a scan of this domain is already ${unfinished.status} (${unfinished.id}); wait for it to end`);
  const job = await insertScanJob(ctx.em, { id: newId(), domainId: domain.id, trigger: 'job', url: siteUrl(domain), pageLimit });
  try {
    await queue.enqueue(job.id);
  } catch (error) {
    const message = `the scan could not be queued: ${error instanceof Error ? error.message : String(error)}`;
    await finishScanJob(ctx.em, job.id, { error: { kind: 'interrupted', message } }).catch(() => {});
    throw unavailable('the scan queue is not reachable; try again shortly', QUEUE_RETRY_SECONDS);
  }
  return job;
}

export async function listScans(
  ctx: RequestContext,
  scope: DomainScope,
  query: { before?: string; limit?: number } = {},
): Promise<{ scans: ScanJobSummary[]; nextCursor: string | null }> {
  const domain = await readDomain(ctx, scope);
  const limit = query.limit ?? DEFAULT_PAGE;
  if (query.before && !(await findScanJob(ctx.em, domain.id, query.before))) throw invalid(`before: no scan ${query.before} of this domain`);
  const rows = await listScanJobs(ctx.em, domain.id, { before: query.before, limit: limit + 1 });
  const scans = rows.slice(0, limit);
  return { scans, nextCursor: rows.length > limit ? scans.at(-1)!.id : null };
}

export async function getScan(ctx: RequestContext, scope: DomainScope, scanId: string): Promise<ScanJob> {
  const domain = await readDomain(ctx, scope);
  const job = isId(scanId) ? await findScanJob(ctx.em, domain.id, scanId) : undefined;
  if (!job) throw notFound(`scan ${scanId}`);
  return job;
}

/** What changed on the site between two succeeded scans (`against` defaults to the one before). */
export async function compareScans(ctx: RequestContext, scope: DomainScope, scanId: string, against?: string): Promise<ScanComparison> {
  const newer = await getScan(ctx, scope, scanId);
  if (!newer.result) throw conflict(`scan ${scanId} has not succeeded (it is ${newer.status}); only succeeded scans are compared`);
  const older = against === undefined ? await previousSucceededJob(ctx.em, newer.domainId, newer) : await findScanJob(ctx.em, newer.domainId, against);
  if (!older) {
    throw notFound(against === undefined ? `a succeeded scan of this domain before ${scanId}` : `scan ${against}`);
  }
  if (!older.result) throw conflict(`scan ${older.id} has not succeeded (it is ${older.status}); only succeeded scans are compared`);
  return { scanId: newer.id, againstId: older.id, ...compareScanResults(newer.result, older.result) };
}
