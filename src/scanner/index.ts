import type { Settings } from '../config.ts';
import { dnsEgressPolicy, type RefusalLog } from './address-policy.ts';
import { createSharedBrowser } from './browser.ts';
import { createScanner, DEFAULT_SCAN_LIMITS, type Scanner } from './scan.ts';

/** The scanner as the settings describe it: one shared browser, public addresses only (`logRefusal` hears what a refusal leaves out). */
export function scannerFromSettings(scan: Settings['scan'], logRefusal?: RefusalLog): Scanner {
  return createScanner({
    browser: createSharedBrowser({ chromePath: scan.chromePath, noSandbox: !scan.chromiumSandbox }),
    policy: dnsEgressPolicy({ allowPrivate: scan.allowPrivateAddresses, logRefusal }),
    limits: {
      ...DEFAULT_SCAN_LIMITS,
      pageLimit: scan.pageLimit,
      totalTimeoutMs: scan.totalTimeoutMs,
      navigationTimeoutMs: scan.navigationTimeoutMs,
      loadTimeoutMs: scan.loadTimeoutMs,
      pageWaitMs: scan.pageWaitMs,
      startPageWaitMs: scan.startPageWaitMs,
      graceMs: scan.graceMs,
      existingBannerWaitMs: scan.existingBannerWaitMs,
      pageConcurrency: scan.pageConcurrency,
    },
  });
}
