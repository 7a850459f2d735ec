import type { TcfSettings } from '../banner-config.ts';
import { OWN } from './attributes.ts';
import type { Handover } from './handover.ts';
import { askRegion } from './region.ts';

/**
 * TCF domains, as app.js starts (the IAB stub `__tcfapi` already stands: runtime-bundle.ts puts it
 * before the bootstrap): whether GDPR applies (the region's answer, also when the domain does not
 * limit the banner to the region: the answer lives beside the bundles), and the TCF bundle.
 */
export function startTcf(tcf: TcfSettings, regionUrl: string | null | undefined, handover: Handover): void {
  // The same answer enableOnlyInEu asked for already, if it did.
  handover.gdprApplies = handover.region ?? askRegion(regionUrl ?? new URL('region', tcf.chunkUrl).href);
  const chunk = document.createElement('script');
  // Marked before its address is set: the blocker holds scripts the moment they get one.
  chunk.setAttribute(OWN, '');
  handover.tcfLoaded = new Promise((settle) => (chunk.onload = chunk.onerror = settle));
  chunk.src = tcf.chunkUrl;
  chunk.async = true;
  (document.head ?? document.documentElement).appendChild(chunk);
}
