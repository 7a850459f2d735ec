import type { AvailablePreset, OnboardingScanResult } from '../contract/onboarding.ts';
import { siteUrl } from '../contract/site-address.ts';
import type { RequestContext } from '../context.ts';
import { invalid, ServiceError } from '../errors.ts';
import { type DomainScope, readDomain } from '../features/domains/domain.scope.ts';
import { type CatalogEntry, loadCatalog } from './catalog/catalog.ts';
import { ScanError, type ScanFindings } from './scanner/scan.ts';

type Evidence = AvailablePreset['evidence'][number];

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
    if (error.failure === 'crawl') throw new ServiceError('upstream', error.message);
    throw invalid(error.message);
  }
  const catalog = await loadCatalog(ctx.em);
  const found = new Map<number, { entry: CatalogEntry; evidence: Evidence[] }>();
  const note = (entry: CatalogEntry, evidence: Evidence) => {
    const record = found.get(entry.id) ?? { entry, evidence: [] };
    if (!record.evidence.some((e) => e.kind === evidence.kind && e.value === evidence.value)) record.evidence.push(evidence);
    found.set(entry.id, record);
  };
  for (const cookie of findings.cookies) {
    const match = catalog.matchStorageKey(cookie.name, 'cookie');
    if (match) note(match.entry, { kind: 'cookie', value: cookie.name });
  }
  for (const kind of ['localStorage', 'sessionStorage'] as const) {
    for (const key of findings[kind]) {
      const match = catalog.matchStorageKey(key.name, kind);
      if (match) note(match.entry, { kind, value: key.name });
    }
  }
  for (const [kind, urls] of [['script', findings.scripts], ['iframe', findings.iframes]] as const) {
    for (const source of urls) {
      for (const entry of catalog.matchUrl(source, kind === 'script' ? 'scripts' : 'iframes')) note(entry, { kind, value: source });
    }
  }
  const availablePresets = [...found.values()]
    .sort((a, b) => a.entry.id - b.entry.id)
    .map(({ entry, evidence }) => ({
      id: entry.id,
      name: entry.name,
      purpose: entry.purpose,
      vendor: entry.vendor,
      translations: entry.translations,
      evidence,
    }));
  return {
    address: findings.address,
    imprintUrl: findings.imprintUrl,
    privacyPolicyUrl: findings.privacyPolicyUrl,
    availablePresets,
    storage: {
      cookies: findings.cookies,
      localStorage: findings.localStorage,
      sessionStorage: findings.sessionStorage,
    },
    url: findings.url,
    pages: findings.pages,
    durationMs: findings.durationMs,
  };
}
