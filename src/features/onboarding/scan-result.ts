import type { Catalog } from '../catalog/catalog.ts';
import type { ScanFindings } from '../../scanner/scan.ts';
import type { OnboardingScanResult } from './onboarding.contract.ts';
import { scanAdvice } from './advice.ts';
import { recogniseServices } from './recognise.ts';
import { thirdPartiesOf } from './third-parties.ts';
import { scanVerdicts } from './verdicts.ts';

/**
 * A scan's findings as the onboarding scan answers them: with the catalog services they reveal,
 * the advice on what the site loads that no banner can hold back, the third parties its pages
 * contacted, and the verdicts on them.
 */
export function scanResultOf(findings: ScanFindings, catalog: Catalog): OnboardingScanResult {
  const thirdParties = thirdPartiesOf(catalog, findings);
  return {
    address: findings.address,
    imprintUrl: findings.imprintUrl,
    privacyPolicyUrl: findings.privacyPolicyUrl,
    availablePresets: recogniseServices(catalog, findings),
    storage: {
      cookies: findings.cookies,
      localStorage: findings.localStorage,
      sessionStorage: findings.sessionStorage,
      indexedDB: findings.indexedDB,
      cacheStorage: findings.cacheStorage,
    },
    advice: scanAdvice(catalog, findings),
    thirdParties,
    verdicts: scanVerdicts(catalog, findings, thirdParties),
    existingBanner: findings.existingBanner,
    url: findings.url,
    pages: findings.pages,
    durationMs: findings.durationMs,
  };
}
