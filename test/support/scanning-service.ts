import { createSharedBrowser } from '../../src/scanner/browser.ts';
import { createScanner, DEFAULT_SCAN_LIMITS, type ScanLimits } from '../../src/scanner/scan.ts';
import { type FixtureWebsites, startFixtureWebsites } from '../fixtures/websites.ts';
import { startTestService, type TestService } from './service.ts';

/** Limits that keep fixture scans quick. */
const FIXTURE_SCAN_LIMITS: ScanLimits = {
  ...DEFAULT_SCAN_LIMITS,
  navigationTimeoutMs: 4_000,
  loadTimeoutMs: 1_500,
  pageWaitMs: 300,
  startPageWaitMs: 600,
  graceMs: 500,
  totalTimeoutMs: 20_000,
};

/** The service with a real scanner whose browser reaches the fixture websites (and public addresses only). */
export async function startScanningTestService(
  limits: ScanLimits = FIXTURE_SCAN_LIMITS,
): Promise<{ service: TestService; sites: FixtureWebsites; close(): Promise<void> }> {
  const sites = await startFixtureWebsites();
  const scanner = createScanner({ browser: createSharedBrowser({ acceptInsecureCerts: true }), policy: sites.policy, limits });
  const service = await startTestService({ scanner });
  return {
    service,
    sites,
    async close() {
      await service.close();
      await sites.close();
    },
  };
}
