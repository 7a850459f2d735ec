import { conflict, rateLimited } from '../../kernel/errors.ts';
import { ScanError } from '../../scanner/scan.ts';

/**
 * Scans are heavy (a browser context each), so at most one runs per domain (another request
 * for the same domain: 409) and at most `maxConcurrent` run at once (beyond that: 429 with
 * Retry-After). Refusing at once, rather than queueing, keeps requests from piling up.
 */
export type ScanGate = { run<T>(domainId: string, work: () => Promise<T>): Promise<T> };

const RETRY_AFTER_SECONDS = 10;

/** How a scan ended (`busy`: refused by the gate), for the metrics. */
export type ScanOutcome = 'ok' | 'site' | 'refused' | 'crawl' | 'busy';

export function createScanGate(
  maxConcurrent: number,
  observe: (outcome: ScanOutcome, seconds: number) => void = () => {},
): ScanGate {
  const running = new Set<string>();
  return {
    async run(domainId, work) {
      if (running.has(domainId) || running.size >= maxConcurrent) {
        observe('busy', 0);
        if (running.has(domainId)) throw conflict('a scan of this domain is already running; try again when it has finished');
        throw rateLimited(`${maxConcurrent} scans are already running; try again shortly`, RETRY_AFTER_SECONDS);
      }
      running.add(domainId);
      const started = performance.now();
      let outcome: ScanOutcome = 'crawl';
      try {
        const result = await work();
        outcome = 'ok';
        return result;
      } catch (error) {
        if (error instanceof ScanError) outcome = error.failure;
        throw error;
      } finally {
        running.delete(domainId);
        observe(outcome, (performance.now() - started) / 1000);
      }
    },
  };
}
