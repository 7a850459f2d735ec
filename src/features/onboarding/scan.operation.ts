import type { OnboardingScanResult } from './onboarding.contract.ts';
import { siteUrl } from '../../kernel/contract/site-address.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { invalid, unavailable, upstreamFailure } from '../../kernel/errors.ts';
import { BrowserUnavailable } from '../../scanner/browser.ts';
import { type DomainScope } from '../../kernel/access.ts';
import { readDomain } from '../domains/domain.access.ts';
import { ScanError } from '../../scanner/scan.ts';

/** When to try a scan again after the browser did not start. */
const BROWSER_RETRY_AFTER_SECONDS = 60;

/**
 * Scans the domain's website and tells which catalog services it uses, answering when the scan
 * has ended (CCM19's contract). The scan runs here, and is kept as a job like a started one.
 */
export async function scanDomain(ctx: RequestContext, scope: DomainScope): Promise<OnboardingScanResult> {
  const domain = await readDomain(ctx, scope);
  try {
    const job = await ctx.services.scanGate.run(domain.id, () => ctx.services.scanJobs.scanNow(domain.id, siteUrl(domain)));
    // Only a domain deleted while it was scanned leaves no job to answer with.
    if (!job?.result) throw upstreamFailure('the domain was deleted while its website was scanned');
    return job.result;
  } catch (error) {
    if (!(error instanceof ScanError)) throw error;
    // Not the site's fault and not for good: the API stays up, scans answer 503 until the browser starts.
    if (error.cause instanceof BrowserUnavailable) throw unavailable(error.message, BROWSER_RETRY_AFTER_SECONDS);
    // The site's own answer, or an address the scanner may not visit, is the caller's to fix.
    if (error.failure === 'crawl') throw upstreamFailure(error.message);
    throw invalid(error.message);
  }
}
