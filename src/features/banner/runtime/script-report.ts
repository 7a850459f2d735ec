import type { BannerConfig } from '../banner-config.ts';
import { OWN } from './attributes.ts';
import { allServices } from './markers.ts';
import { absolute, isWebAddress } from './site.ts';

/** Scripts one page reports at most, and the longest address it reports (the service's limits). */
const MAX_SCRIPTS = 25;
const MAX_LENGTH = 1024;
/** Scripts found within this time after the first go out together (or at `pagehide`, if sooner). */
const BATCH_MS = 2_000;

/**
 * Reports the addresses of the page's scripts that no embedding's `scriptMarkers` claim to the
 * service's `POST /script-report` (src/features/script-findings/), when the domain records them
 * (`scriptReportUrl`; `recordScriptsOnWebsite`). Only the address without query or fragment and
 * the page's origin and path go out; each address once per page, MAX_SCRIPTS at most; nothing is
 * stored on the device (the service counts a visitor once per session). The banner's own scripts
 * (marked, or from the service) are left out.
 */
export function startScriptReport(config: BannerConfig): void {
  const endpoint = config.scriptReportUrl;
  if (!endpoint || typeof navigator.sendBeacon !== 'function') return;
  const own = new URL(endpoint).origin;
  const markers = allServices(config).flatMap(({ service }) => service.scriptMarkers.filter((marker) => marker !== ''));
  const reported = new Set<string>();
  let batch: string[] = [];
  let timer = 0;

  const send = () => {
    window.clearTimeout(timer);
    timer = 0;
    if (batch.length === 0) return;
    const report = { domain: config.domainId, url: location.origin + location.pathname, scripts: batch };
    batch = [];
    try {
      navigator.sendBeacon(endpoint, JSON.stringify(report));
    } catch {
      // A report that could not go out is nobody's problem on this page.
    }
  };

  const note = (script: HTMLScriptElement) => {
    const src = script.getAttribute('src');
    const url = src === null || script.hasAttribute(OWN) ? null : absolute(src);
    if (!isWebAddress(url) || markers.some((marker) => url.includes(marker))) return;
    const address = url.replace(/[?#].*$/, '');
    if (address.length > MAX_LENGTH || reported.has(address) || reported.size >= MAX_SCRIPTS || new URL(address).origin === own) return;
    reported.add(address);
    batch.push(address);
    timer ||= window.setTimeout(send, BATCH_MS);
  };
  const inspect = (node: Node) => {
    if (node instanceof HTMLScriptElement) note(node);
    else if (node instanceof Element && node.firstElementChild) node.querySelectorAll('script').forEach(note);
  };

  document.querySelectorAll('script').forEach(note);
  new MutationObserver((records) => {
    for (const record of records) {
      if (record.type === 'attributes') {
        if (record.target instanceof HTMLScriptElement) note(record.target);
      } else record.addedNodes.forEach(inspect);
    }
  }).observe(document.documentElement, { childList: true, subtree: true, attributes: true, attributeFilter: ['src'] });
  addEventListener('pagehide', send);
}
