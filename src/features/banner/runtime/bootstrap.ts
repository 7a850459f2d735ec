import type { BannerConfig } from '../banner-config.ts';
import { OWN } from './attributes.ts';
import { startBlocker } from './blocker.ts';
import { receiveHandedOverConsent } from './consent-sharing.ts';
import { setConsentDefaults, updateConsent } from './consent-mode.ts';
import { HANDOVER, type Handover } from './handover.ts';
import { markOffPage } from './page-rules.ts';
import { askRegion } from './region.ts';
import { startGpp } from './gpp-start.ts';
import { startTcf } from './tcf-start.ts';
import { acceptedServices, validStoredConsent } from './stored-consent.ts';

/**
 * The first part of app.js: runs synchronously where the snippet is, before any other tag of
 * the page. Sets Google Consent Mode's defaults, starts blocking what is not accepted yet,
 * then loads the runtime (the banner itself) and hands it its state.
 */
export function start(config: BannerConfig, runtimeUrl: string): void {
  if (window[HANDOVER]) return;
  markOffPage(config);
  receiveHandedOverConsent(config);
  const stored = validStoredConsent(config);
  const accepted = acceptedServices(config, stored);
  if (config.googleConsentMode) {
    setConsentDefaults();
    if (stored) updateConsent(config, accepted);
  }
  const handover: Handover = { config, accepted, blocked: [], heldImages: [], reblockIframes: () => {} };
  // Asked while the runtime loads; a visitor who has chosen already is not asked where they are.
  if (config.regionUrl && !stored) handover.region = askRegion(config.regionUrl);
  window[HANDOVER] = handover;
  startBlocker(handover);
  // US visitors of an opt-out domain: `__gpp` before any other tag of the page asks for it.
  if (config.gpp) startGpp(config.gpp, handover);
  // TCF: whether GDPR applies, and the CMP (its stub `__tcfapi` stands already: appScript).
  if (config.tcf) startTcf(config.tcf, config.regionUrl, handover);

  const runtime = document.createElement('script');
  // Marked before its address is set: the blocker holds scripts the moment they get one.
  runtime.setAttribute(OWN, '');
  runtime.src = runtimeUrl;
  runtime.async = true;
  (document.head ?? document.documentElement).appendChild(runtime);
}
