import type { Domain } from '../domains/domain.contract.ts';
import { DEVELOPMENT_CMP_ID } from '../tcf-vendors/tcf-cmp.ts';
import type { GppSettings } from './banner-config.ts';

/**
 * What app.js carries of GPP: only for a domain whose US visitors get the opt-out model
 * (`usPrivacyModel`), and only where the bundles are served (not in tests of the configuration alone).
 * `cmpId`: the service's (TCF_CMP_ID: IAB registers one id for both frameworks); without one,
 * TCF's development placeholder.
 */
export function gppPart(domain: Domain, regionUrl: string | null, chunkUrl: string | undefined, cmpId: number = DEVELOPMENT_CMP_ID): { gpp?: GppSettings } {
  if (domain.usPrivacyModel !== 'opt-out' || !chunkUrl || !regionUrl) return {};
  return { gpp: { chunkUrl, cmpId, regionUrl } };
}
