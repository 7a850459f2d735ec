import { ALLOWED, BLOCKED, OWN, PLACEHOLDER } from './attributes.ts';
import type { BlockedIframe, Handover } from './handover.ts';
import { blockingScriptService, iframeVerdict } from './markers.ts';

const JAVASCRIPT_TYPE = /^(?:(?:text|application)\/(?:x-)?(?:java|ecma)script|module)$/i;

const absolute = (address: string) => {
  try {
    return new URL(address, document.baseURI).href;
  } catch {
    return null;
  }
};

const executes = (script: HTMLScriptElement) => {
  const type = (script.getAttribute('type') ?? '').trim();
  return type === '' || JAVASCRIPT_TYPE.test(type);
};

/**
 * Watches the page from the first moment for scripts and iframes of services the visitor has
 * not accepted. The observer sees a parser-inserted script before it runs (the parser runs a
 * microtask checkpoint before each script): it becomes `type="text/plain"` with cookieconsent's
 * `data-category` and `data-service`. An iframe loses its `src` (kept in `data-src`), so its
 * document never loads.
 *
 * Two requests go out before any script can act, in Chromium at least: the preload scanner
 * fetches a `<script src>` ahead of the parser (the script still never runs), and an iframe
 * requests its address as it is inserted (the answer is discarded). Sites that must not let
 * even these out write `type="text/plain" data-category` scripts and `data-src` iframes
 * (without `src`); the latter are loaded here once allowed.
 */
export function startBlocker(handover: Handover): void {
  const { config, accepted } = handover;

  const blockScript = (script: HTMLScriptElement) => {
    if (script.type === 'text/x-ccm-loader') return handover.onLate?.(script);
    if (script.hasAttribute(BLOCKED) || script.hasAttribute(OWN) || script === document.currentScript || !executes(script)) return;
    const ref = blockingScriptService(config, accepted, script.hasAttribute('src') ? script.src : (script.textContent ?? ''));
    if (!ref) return;
    const type = script.getAttribute('type');
    if (type) script.setAttribute('data-type', type);
    script.type = 'text/plain';
    script.setAttribute('data-category', ref.category);
    script.setAttribute('data-service', ref.service.id);
    script.setAttribute(BLOCKED, '');
  };

  const blockIframe = (iframe: HTMLIFrameElement) => {
    if (iframe.hasAttribute(BLOCKED) || iframe.hasAttribute(ALLOWED) || iframe.closest(`[${PLACEHOLDER}]`)) return;
    const src = iframe.getAttribute('src');
    // An iframe the site holds back itself (`data-src`, no `src`): nothing was requested yet.
    const held = src === null ? iframe.getAttribute('data-src') : null;
    const address = src ?? held;
    const url = address ? absolute(address) : null;
    if (!address || !url || !/^https?:/i.test(url)) return;
    const verdict = iframeVerdict(config, accepted, url);
    if (!verdict.blocked) {
      if (held !== null && (verdict.service || verdict.listed)) {
        // Chromium ignores a src set while the parser's new frame is being set up; a task later it loads.
        setTimeout(() => {
          if (!iframe.hasAttribute('src')) iframe.setAttribute('src', held);
        });
      }
      return;
    }
    if (src !== null) {
      iframe.setAttribute('data-src', src);
      iframe.removeAttribute('src');
    }
    iframe.setAttribute(BLOCKED, '');
    const service = verdict.service?.service ?? null;
    if (service) iframe.setAttribute('data-service', service.id);
    const hidden = !!service?.hideIframesUntilConsent;
    if (hidden) iframe.style.display = 'none';
    const item: BlockedIframe = { iframe, src: address, service: service?.id ?? null, hidden };
    if (handover.onLate) handover.onLate(item);
    else handover.blocked.push(item);
  };

  const inspect = (node: Node) => {
    if (!(node instanceof Element)) return;
    if (node instanceof HTMLScriptElement) return blockScript(node);
    if (node instanceof HTMLIFrameElement) return blockIframe(node);
    if (node.firstElementChild) node.querySelectorAll('script, iframe').forEach(inspect);
  };

  new MutationObserver((records) => {
    for (const record of records) record.addedNodes.forEach(inspect);
  }).observe(document.documentElement, { childList: true, subtree: true });
  document.querySelectorAll('script, iframe').forEach(inspect);

  // Firefox runs a script whose type changed after insertion; it lets this event cancel it.
  document.addEventListener('beforescriptexecute', (event) => {
    if (event.target instanceof Element && event.target.hasAttribute(BLOCKED)) event.preventDefault();
  });

  handover.reblockIframes = () => document.querySelectorAll('iframe').forEach(blockIframe);
}
