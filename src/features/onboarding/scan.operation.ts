import type { OnboardingScanResult } from './onboarding.contract.ts';
import { siteUrl } from '../../kernel/contract/site-address.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { invalid, upstreamFailure } from '../../kernel/errors.ts';
import { type DomainScope } from '../../kernel/access.ts';
import { readDomain } from '../domains/domain.access.ts';
import { loadCatalog } from '../catalog/catalog.ts';
import { recogniseServices } from './recognise.ts';
import { ScanError, type ScanFindings } from '../../scanner/scan.ts';

/** Scans the domain's website and tells which catalog services it uses. */
export async function scanDomain(ctx: RequestContext, scope: DomainScope): Promise<OnboardingScanResult> {
  const domain = await readDomain(ctx, scope);
  const url = siteUrl(domain);
  let findings: ScanFindings;
  try {
    findings = await ctx.services.scanGate.run(domain.id, () => ctx.services.scanner.scan(url));
  } catch (error) {
    if (!(error instanceof ScanError)) throw error;
    // The site's own answer, or an address the scanner may not visit, is the caller's to fix.
    if (error.failure === 'crawl') throw upstreamFailure(error.message);
    throw invalid(error.message);
  }
  const availablePresets = recogniseServices(await loadCatalog(ctx.em), findings);
  return {
    address: findings.address,
    imprintUrl: findings.imprintUrl,
    privacyPolicyUrl: findings.privacyPolicyUrl,
    availablePresets,
    storage: {
      cookies: findings.cookies,
      localStorage: findings.localStorage,
      sessionStorage: findings.sessionStorage,
      indexedDB: findings.indexedDB,
      cacheStorage: findings.cacheStorage,
    },
    url: findings.url,
    pages: findings.pages,
    durationMs: findings.durationMs,
  };
}
