import { CmpApi, CmpApiModel } from '@iabtechlabtcf/cmpapi';
import type { GVL } from '@iabtechlabtcf/core';

type Callback = (response: unknown, success: boolean) => void;
type TcfApi = (command: string, version: number, callback: Callback, parameter?: unknown) => void;

declare global {
  interface Window {
    __tcfapi?: TcfApi;
  }
}

/** The CMP API version this CMP speaks (the library's ping says "2"). */
const API_VERSION = '2.2';

export type Cmp = {
  api: CmpApi;
  /** The Additional Consent string `getTCData`/`addEventListener` add as `addtlConsent` (null: none, the domain does not ask). */
  setAdditionalConsent(acString: string | null): void;
  /** Answers `getVendorList` from the domain's list from now on. */
  serveVendorList(gvl: GVL): void;
};

/**
 * The CMP API (`@iabtechlabtcf/cmpapi`): takes over `__tcfapi` from the stub with its queued calls.
 * `getTCData` is deprecated in TCF 2.2 (listeners get the same TCData), still answered for the
 * tags that call it.
 */
export function startCmpApi(cmpId: number, cmpVersion: number, policyVersion: number): Cmp {
  let additionalConsent: string | null = null;
  const api = new CmpApi(cmpId, cmpVersion, true, {
    ping: (next: Callback, ping: { apiVersion: string }) => next({ ...ping, apiVersion: API_VERSION }, true),
    // Also what addEventListener and removeEventListener answer through (the library's rule).
    getTCData: (next: Callback, tcData: unknown, success: boolean) => {
      if (additionalConsent !== null && tcData && typeof tcData === 'object' && (tcData as { gdprApplies?: boolean }).gdprApplies) {
        (tcData as { addtlConsent?: string }).addtlConsent = additionalConsent;
      }
      next(tcData, success);
    },
  });
  // Until the first TC string: the policy version of the domain's list.
  CmpApiModel.tcfPolicyVersion = policyVersion;
  return {
    api,
    setAdditionalConsent: (acString) => (additionalConsent = acString),
    serveVendorList(gvl) {
      const library = window.__tcfapi!;
      window.__tcfapi = (command, version, callback, parameter) => {
        if (command !== 'getVendorList' || typeof callback !== 'function' || version !== 2) return library(command, version, callback, parameter);
        callback(...vendorListAnswer(gvl, parameter));
      };
    },
  };
}

/**
 * `getVendorList` (optional in TCF 2.2): no version, `'LATEST'` or the list's version → the
 * domain's list (the Global Vendor List narrowed to the vendors the banner asks for). Another
 * valid version is one this CMP does not hold, an invalid one (not an integer > 1) is refused:
 * both `null`, `false`, as the spec says of invalid versions and of lists that cannot be had.
 */
function vendorListAnswer(gvl: GVL, parameter: unknown): [unknown, boolean] {
  const latest = parameter === undefined || parameter === null || parameter === 'LATEST';
  const version = typeof parameter === 'number' || (typeof parameter === 'string' && /^\d+$/.test(parameter)) ? Number(parameter) : NaN;
  return latest || version === gvl.vendorListVersion ? [gvl.getJson(), true] : [null, false];
}
