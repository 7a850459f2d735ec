import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { ConsentCheckError, type ConsentCheck } from '../../scanner/compliance.ts';
import type { Scanner } from '../../scanner/scan.ts';
import { inSpan } from '../../kernel/tracing.ts';
import { loadCatalog } from '../catalog/catalog.ts';
import type { Embedding } from '../embeddings/embedding.contract.ts';
import { readRevisions } from '../revisions/revision-store.ts';
import type { ComplianceScan } from './compliance-scan.contract.ts';
import { complianceResultOf } from './compliance-findings.ts';
import { claimComplianceScan, finishComplianceScan } from './compliance-scan.store.ts';

export type ComplianceRunner = {
  orm: MikroORM;
  scanner: Scanner;
  /** Who runs it (`host:pid`). */
  worker: string;
  /** What else happens when a compliance scan has succeeded (the webhook hears of new violations); its failure is only reported. */
  afterSuccess?: (scan: ComplianceScan) => Promise<void>;
  onAfterSuccessError?: (error: unknown) => void;
};

/**
 * The configuration revision the visitors were shown: the one whose content hash the banner
 * reported, else (no banner showed) the domain's newest. Its active embeddings are what the
 * findings are judged by. Null hash: the domain has no revision (nothing was published).
 */
async function testedConfiguration(em: EntityManager, domainId: string, check: ConsentCheck): Promise<{ hash: string | null; number: number | null; embeddings: Embedding[] }> {
  const reported = [check.states.beforeConsent, check.states.afterReject, check.states.afterAcceptAll]
    .map((state) => state.banner)
    .find((banner) => banner !== null && banner.domainId === domainId)?.revision;
  const [shown] = reported ? await readRevisions(em, domainId, { hash: reported }) : [];
  const [revision] = shown ? [shown] : await readRevisions(em, domainId, { newest: true });
  if (!revision) return { hash: reported ?? null, number: null, embeddings: [] };
  // A reported hash no revision has (the banner of another service?) is named as reported, judged by the newest.
  if (reported && reported !== revision.hash) return { hash: reported, number: null, embeddings: revision.configuration.embeddings.filter((e) => e.active) };
  return { hash: revision.hash, number: revision.number, embeddings: revision.configuration.embeddings.filter((e) => e.active) };
}

/**
 * Runs a stored compliance scan to its end: claims it, has the scanner's browser visit the site
 * three times, judges what it saw against the revision it tested, and records the result, or why
 * it failed. A ConsentCheckError (the site, a refused address, the browser) is recorded and thrown
 * again; anything else is thrown with the scan left running, for the queue to try again.
 * Undefined: the scan had already ended or no longer exists.
 */
export async function runComplianceScan({ orm, scanner, worker, afterSuccess, onAfterSuccessError }: ComplianceRunner, id: string): Promise<ComplianceScan | undefined> {
  const em = orm.em.fork();
  const scan = await claimComplianceScan(em, id, worker);
  if (!scan) return undefined;
  try {
    const check = await inSpan('consent check', { attributes: { 'compliance_scan.id': id, 'scan.domain_id': scan.domainId, 'url.full': scan.url } }, () =>
      scanner.checkConsent(scan.url),
    );
    const tested = await testedConfiguration(em, scan.domainId, check);
    const result = complianceResultOf(check, tested.embeddings, await loadCatalog(em));
    await finishComplianceScan(em, id, { result, revision: tested.hash, revisionNumber: tested.number });
    const done: ComplianceScan = {
      ...scan,
      status: 'succeeded',
      revision: tested.hash,
      revisionNumber: tested.number,
      verdict: result.findings.length === 0 ? 'clean' : 'violations',
      findingCount: result.findings.length,
      site: result.site,
      bannerOrigin: result.bannerOrigin,
      durationMs: result.durationMs,
      findings: result.findings,
      states: result.states,
    };
    await afterSuccess?.(done).catch((error: unknown) => onAfterSuccessError?.(error));
    return done;
  } catch (error) {
    if (error instanceof ConsentCheckError) await finishComplianceScan(em, id, { error: { kind: error.failure, message: error.message } });
    throw error;
  }
}
