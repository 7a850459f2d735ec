import type { ScanFindings } from '../../src/scanner/scan.ts';

/** What a scan of `url` reports when it finds nothing but the one page, with `found` laid over it. */
export function scanFindingsOf(url: string, found: Partial<ScanFindings> = {}): ScanFindings {
  return {
    url,
    pages: [{ url, status: 200 }],
    cookies: [],
    localStorage: [],
    sessionStorage: [],
    indexedDB: [],
    cacheStorage: [],
    scripts: [],
    iframes: [],
    stylesheets: [],
    fonts: [],
    unblockable: [],
    imprintUrl: null,
    privacyPolicyUrl: null,
    address: { company: null, street: null, zipCode: null, city: null },
    refusedRequests: [],
    requests: [],
    existingBanner: null,
    durationMs: 1,
    ...found,
  };
}
