import type { DomainScope } from '../../kernel/access.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { conflict } from '../../kernel/errors.ts';
import type { RawAnswer } from '../feature.ts';
import { scanEvidenceHtml } from './scan-evidence.html.ts';
import { getScan } from './scan-job.operations.ts';

/**
 * A scan as a printable page, once it has ended: a succeeded scan with what it found, a failed one
 * with why and the pages it visited before. A queued or running scan has nothing to file yet (409).
 */
export async function getScanEvidencePage(ctx: RequestContext, scope: DomainScope, scanId: string): Promise<RawAnswer> {
  const job = await getScan(ctx, scope, scanId);
  if (job.status === 'queued' || job.status === 'running') {
    throw conflict(`scan ${scanId} is ${job.status}; its report can be read once it has ended`);
  }
  return { body: scanEvidenceHtml(job) };
}
