import { conflict, rateLimited } from '../errors.ts';

/**
 * Scans are heavy (a browser context each), so at most one runs per domain (another request
 * for the same domain: 409) and at most `maxConcurrent` run at once (beyond that: 429 with
 * Retry-After). Refusing at once, rather than queueing, keeps requests from piling up.
 */
export type ScanGate = { run<T>(domainId: string, work: () => Promise<T>): Promise<T> };

const RETRY_AFTER_SECONDS = 10;

export function createScanGate(maxConcurrent: number): ScanGate {
  const running = new Set<string>();
  return {
    async run(domainId, work) {
      if (running.has(domainId)) throw conflict('a scan of this domain is already running; try again when it has finished');
      if (running.size >= maxConcurrent) {
        throw rateLimited(`${maxConcurrent} scans are already running; try again shortly`, RETRY_AFTER_SECONDS);
      }
      running.add(domainId);
      try {
        return await work();
      } finally {
        running.delete(domainId);
      }
    },
  };
}
