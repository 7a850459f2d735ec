import type { BannerConfig } from '../banner-config.ts';
import type { TcfBridge } from './tcf/bridge.ts';

/** The window property on which the bootstrap hands its state to the runtime. */
export const HANDOVER = '__ccmBanner';

/** An iframe the bootstrap kept from loading: its address is in `data-src`, not `src`. */
export type BlockedIframe = {
  iframe: HTMLIFrameElement;
  src: string;
  /** The service whose `iframeMarkers` it matched; null when only the domain's iframe rules blocked it. */
  service: string | null;
  /** Hidden (`hideIframesUntilConsent`) rather than shown as a placeholder. */
  hidden: boolean;
};

export type Handover = {
  config: BannerConfig;
  /** Services whose scripts and iframes are let through; the runtime keeps it current. */
  accepted: Set<string>;
  /** Images held for a service, in the page or not (a pixel is often never inserted): they load on its consent. */
  heldImages: HTMLImageElement[];
  /** Iframes blocked before the runtime took over (it empties the list when it does). */
  blocked: BlockedIframe[];
  /** Set by the runtime: iframes blocked later, and CCM19 loader scripts as they appear. */
  onLate?: (item: BlockedIframe | HTMLScriptElement) => void;
  /** Blocks the iframes already in the page that are no longer allowed (after an opt-out). */
  reblockIframes(): void;
  /** `enableOnlyInEu`: whether the visitor is asked (false: outside the region), asked of the service as app.js starts. */
  region?: Promise<boolean>;
  /**
   * Set by the TCF and GPP bundles, kept current by them: the strings that encode the visitor's
   * present choice in their frameworks. A consent record carries them (consent-record.ts).
   */
  privacyStrings?: { tcString?: string; acString?: string; gppString?: string };
  /** `usPrivacyModel` `opt-out` (gpp-start.ts): whether the visitor is in the United States, asked as app.js starts. */
  usVisitor?: Promise<boolean>;
  /** Set by the runtime for the GPP bundle: saves the Do-Not-Sell control's opt-out as a banner choice (us-opt-out.ts). */
  saveUsOptOut?: () => void;
  /** TCF domains: whether GDPR applies to the visitor (the region's answer, asked by the bootstrap; true when not known). */
  gdprApplies?: Promise<boolean>;
  /** TCF domains: settles when the TCF bundle's script has loaded or failed (bootstrap). */
  tcfLoaded?: Promise<unknown>;
  /** Set by the TCF bundle as it runs: its side, once the vendor list and the region are known (null: it cannot work). */
  tcf?: Promise<TcfBridge | null>;
};

declare global {
  interface Window {
    [HANDOVER]?: Handover;
  }
}
