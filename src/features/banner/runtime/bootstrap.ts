import type { BannerConfig } from '../banner-config.ts';
import { OWN } from './attributes.ts';
import { startBlocker } from './blocker.ts';
import { setConsentDefaults, updateConsent } from './consent-mode.ts';
import { HANDOVER, type Handover } from './handover.ts';
import { acceptedServices, validStoredConsent } from './stored-consent.ts';

/**
 * The first part of app.js: runs synchronously where the snippet is, before any other tag of
 * the page. Sets Google Consent Mode's defaults, starts blocking what is not accepted yet,
 * then loads the runtime (the banner itself) and hands it its state.
 */
export function start(config: BannerConfig, runtimeUrl: string): void {
  if (window[HANDOVER]) return;
  const stored = validStoredConsent(config);
  const accepted = acceptedServices(config, stored);
  if (config.googleConsentMode) {
    setConsentDefaults();
    if (stored) updateConsent(config, accepted);
  }
  const handover: Handover = { config, accepted, blocked: [], heldImages: [], reblockIframes: () => {} };
  window[HANDOVER] = handover;
  startBlocker(handover);

  const runtime = document.createElement('script');
  // Marked before its address is set: the blocker holds scripts the moment they get one.
  runtime.setAttribute(OWN, '');
  runtime.src = runtimeUrl;
  runtime.async = true;
  (document.head ?? document.documentElement).appendChild(runtime);
}
