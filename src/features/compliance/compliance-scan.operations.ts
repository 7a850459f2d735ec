import type { RequestContext } from '../../kernel/context.ts';
import type { DomainScope } from '../../kernel/access.ts';
import { conflict, invalid, notFound, unavailable } from '../../kernel/errors.ts';
import { isId } from '../../kernel/ids.ts';
import { readDomain } from '../domains/domain.access.ts';
import type { ComplianceScan, ComplianceScanSummary } from './compliance-scan.contract.ts';
import { queueComplianceScan } from './compliance-scans.service.ts';
import { findComplianceScan, listComplianceScans } from './compliance-scan.store.ts';

const DEFAULT_PAGE = 20;
const QUEUE_RETRY_SECONDS = 10;

/**
 * Starts a compliance scan of the domain's website without waiting for it: stored as queued,
 * handed to the workers. One compliance scan of a domain is queued or running at a time (another: 409).
 */
export async function startComplianceScan(ctx: RequestContext, scope: DomainScope): Promise<ComplianceScan> {
  const domain = await readDomain(ctx, scope);
  let started: Awaited<ReturnType<typeof queueComplianceScan>>;
  try {
    started = await queueComplianceScan(ctx.em, ctx.services.complianceScans.queue, domain, 'job');
  } catch {
    throw unavailable('the scan queue is not reachable; try again shortly', QUEUE_RETRY_SECONDS);
  }
  if ('running' in started) {
    throw conflict(`a compliance scan of this domain is already ${started.running.status} (${started.running.id}); wait for it to end`);
  }
  return started.queued;
}

export async function listComplianceScansOf(
  ctx: RequestContext,
  scope: DomainScope,
  query: { before?: string; limit?: number } = {},
): Promise<{ scans: ComplianceScanSummary[]; nextCursor: string | null }> {
  const domain = await readDomain(ctx, scope);
  const limit = query.limit ?? DEFAULT_PAGE;
  if (query.before && !(await findComplianceScan(ctx.em, domain.id, query.before))) throw invalid(`before: no compliance scan ${query.before} of this domain`);
  const rows = await listComplianceScans(ctx.em, domain.id, { before: query.before, limit: limit + 1 });
  const scans = rows.slice(0, limit);
  return { scans, nextCursor: rows.length > limit ? scans.at(-1)!.id : null };
}

export async function getComplianceScan(ctx: RequestContext, scope: DomainScope, scanId: string): Promise<ComplianceScan> {
  const domain = await readDomain(ctx, scope);
  const scan = isId(scanId) ? await findComplianceScan(ctx.em, domain.id, scanId) : undefined;
  if (!scan) throw notFound(`compliance scan ${scanId}`);
  return scan;
}
