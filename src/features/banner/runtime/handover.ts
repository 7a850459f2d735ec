import type { BannerConfig } from '../banner-config.ts';

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
};

declare global {
  interface Window {
    [HANDOVER]?: Handover;
  }
}
