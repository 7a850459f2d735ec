import { ALLOWED, BLOCKED, HELD_SRC, HOLD, MANAGED, OWN, PLACEHOLDER } from './attributes.ts';
import { GUARD, runInOrder, unpend } from './guard.ts';
import type { BlockedIframe, Handover } from './handover.ts';
import { type Interception, intercept } from './interception.ts';
import { holdMarkup, type MarkupHold } from './markup.ts';
import { iframeVerdictHere as iframeVerdict } from './iframe-hosts.ts';
import { type Hold, imageHold, scriptHold } from './markers.ts';
import { silenceOffPage } from './page-rules.ts';
import { runnable } from './runnable.ts';
import { absolute } from './site.ts';

const LOADER_TYPE = 'text/x-ccm-loader';

/** What a held script carries: cookieconsent's `data-category`/`data-service` when a service holds it, and why it waits. */
function heldAttributes(hold: Hold): Record<string, string> {
  if (hold.reason === 'service') return { [BLOCKED]: '', [HOLD]: 'service', 'data-category': hold.ref.category, 'data-service': hold.ref.service.id };
  return { [BLOCKED]: '', [HOLD]: hold.reason };
}

/**
 * Holds back, from the first moment, the scripts, iframes and tracking images of services the
 * visitor has not accepted, and scripts no service claims as the domain's rules say (see
 * `scriptHold`). Every way in is covered:
 *
 * - scripts the page's parser inserts: a MutationObserver sees each before it runs (the parser
 *   runs a microtask checkpoint before it prepares a script) and makes it `type="text/plain"`;
 * - scripts, iframes and images that scripts insert or point elsewhere (DOM insertion methods,
 *   `src`, `setAttribute`, `document.write`, `innerHTML`): held before the browser acts
 *   (interception.ts);
 * - the runtime later runs held scripts again as copies, loads held iframes and images, once
 *   their service is accepted (release.ts).
 *
 * What no script can stop, in Chromium at least: the preload scanner fetches a `<script src>`
 * written in the HTML ahead of the parser (the script still never runs), and an iframe written
 * with `src` in the HTML requests its address as the parser inserts it. Sites that must not let
 * even these out write `type="text/plain" data-category` scripts and `data-src` iframes.
 */
export function startBlocker(handover: Handover): void {
  const { config, accepted } = handover;

  const holdOf = (script: HTMLScriptElement, src: string | null): Hold | null =>
    scriptHold(config, accepted, src !== null ? { src: absolute(src) ?? src, text: '' } : { src: null, text: script.text });

  const hold = (script: HTMLScriptElement, reason: Hold) => {
    const type = script.getAttribute('type');
    if (type) script.setAttribute('data-type', type);
    script.setAttribute('type', 'text/plain');
    for (const [name, value] of Object.entries(heldAttributes(reason))) script.setAttribute(name, value);
  };

  /** A held script not yet in the page whose service was accepted meanwhile goes in as it was. */
  const unhold = (script: HTMLScriptElement) => {
    const type = script.getAttribute('data-type');
    if (type) script.setAttribute('type', type);
    else script.removeAttribute('type');
    for (const name of [BLOCKED, HOLD, 'data-type', 'data-category', 'data-service']) script.removeAttribute(name);
  };

  const guardScript = (script: HTMLScriptElement, src: string | null = script.getAttribute('src')) => {
    if (script.hasAttribute(OWN) || script.hasAttribute(MANAGED) || script === document.currentScript) return;
    if (script.type === LOADER_TYPE) return handover.onLate?.(script);
    if (script.hasAttribute(BLOCKED)) {
      if (!script.isConnected && script.type === 'text/plain' && script.getAttribute(HOLD) !== 'always' && !holdOf(script, src)) unhold(script);
      return;
    }
    if (!runnable(script.getAttribute('type'))) {
      // The site's own held script: cookieconsent runs a copy of it on consent, which must not be held again.
      silenceOffPage(config, script);
      if (script.hasAttribute('data-category')) script.setAttribute(MANAGED, '');
      return;
    }
    const reason = holdOf(script, src);
    if (reason) hold(script, reason);
  };

  const blockIframe = (iframe: HTMLIFrameElement, parent: Node | null = iframe.parentNode) => {
    const inPlaceholder = (node: Node | null) => node instanceof Element && !!node.closest(`[${PLACEHOLDER}]`);
    if (iframe.hasAttribute(BLOCKED) || iframe.hasAttribute(ALLOWED) || inPlaceholder(iframe) || inPlaceholder(parent)) return;
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
    // An embedding kept off this page: its iframe stays hidden, and no consent on this page loads it.
    const hidden = !!service?.hideIframesUntilConsent || !!service?.offPage;
    if (hidden) iframe.style.display = 'none';
    const item: BlockedIframe = { iframe, src: address, service: service && !service.offPage ? service.id : null, hidden };
    if (handover.onLate) handover.onLate(item);
    else handover.blocked.push(item);
  };

  /** An image's address, unless a service not accepted claims it: then it waits in `data-ccm-src`. */
  const guardImage = (image: HTMLImageElement, address: string): string | null => {
    if (image.hasAttribute(OWN)) return address;
    const url = absolute(address);
    const claim = url && /^https?:/i.test(url) ? imageHold(config, accepted, url) : null;
    if (!claim) return address;
    image.setAttribute(HELD_SRC, address);
    image.setAttribute(BLOCKED, '');
    image.setAttribute(HOLD, claim === 'always' ? 'always' : 'service');
    if (claim !== 'always') {
      image.setAttribute('data-service', claim.service.id);
      handover.heldImages.push(image);
    }
    return null;
  };

  const inspect = (node: Node) => {
    if (!(node instanceof Element)) return;
    if (node instanceof HTMLScriptElement) return guardScript(node);
    if (node instanceof HTMLIFrameElement) return blockIframe(node);
    if (node.firstElementChild) node.querySelectorAll('script, iframe').forEach(inspect);
  };

  const hooks: Interception = {
    guard(element, parent) {
      if (element instanceof HTMLScriptElement) guardScript(element);
      else if (element instanceof HTMLIFrameElement) blockIframe(element, parent);
    },
    guardSource(element, address) {
      if (element instanceof HTMLImageElement) return guardImage(element, address);
      if (element instanceof HTMLScriptElement) guardScript(element, address);
      else if (element instanceof HTMLIFrameElement && element.isConnected && !element.hasAttribute(ALLOWED) && !element.hasAttribute(BLOCKED)) {
        const url = absolute(address);
        if (url && /^https?:/i.test(url) && iframeVerdict(config, accepted, url).blocked) {
          element.setAttribute('data-src', address);
          blockIframe(element);
          return null;
        }
      }
      return address;
    },
    rewrite: (html) =>
      holdMarkup(html, (tag, src, text, type): MarkupHold | null => {
        const url = src !== null ? absolute(src) : null;
        if (tag === 'script') {
          if (!runnable(type)) return null;
          const reason = scriptHold(config, accepted, url !== null ? { src: url, text: '' } : { src: null, text });
          return reason && { attributes: heldAttributes(reason) };
        }
        if (!url || !/^https?:/i.test(url)) return null;
        if (tag === 'iframe') return iframeVerdict(config, accepted, url).blocked ? { attributes: {}, moveSrcTo: 'data-src' } : null;
        const claim = imageHold(config, accepted, url);
        if (!claim) return null;
        const service: Record<string, string> = claim === 'always' ? {} : { 'data-service': claim.service.id };
        return { attributes: { [BLOCKED]: '', [HOLD]: claim === 'always' ? 'always' : 'service', ...service }, moveSrcTo: HELD_SRC };
      }),
  };

  /**
   * What the snippet's guard held before this configuration arrived, now judged by it: held
   * scripts stay held (as this blocker holds them) or run as copies in their order; iframes and
   * images get their address back through the hooks above, which hold them if they must.
   */
  const settle = (elements: Element[]) => {
    const released: HTMLScriptElement[] = [];
    for (const element of elements) {
      const inPage = unpend(element);
      if (!inPage) {
        // A script not in the page yet is judged again when it is inserted; images and iframes went through the hooks.
        if (element instanceof HTMLScriptElement) guardScript(element);
        continue;
      }
      const reason = holdOf(inPage, inPage.getAttribute('src'));
      if (reason) hold(inPage, reason);
      else released.push(inPage);
    }
    runInOrder(released);
  };

  const guard = window[GUARD];
  if (guard) settle(guard.adopt(hooks));
  else intercept(hooks);

  new MutationObserver((records) => {
    for (const record of records) record.addedNodes.forEach(inspect);
  }).observe(document.documentElement, { childList: true, subtree: true });
  // What stands before the snippet: its iframes may still be held, and the site's own held scripts
  // marked as cookieconsent's. Its runnable scripts have run already (holding one now would run it twice on consent).
  document.querySelectorAll('iframe').forEach(inspect);
  document.querySelectorAll('script[data-category]').forEach((script) => {
    silenceOffPage(config, script);
    if (!runnable(script.getAttribute('type')) && script.hasAttribute('data-category')) script.setAttribute(MANAGED, '');
  });

  // Firefox runs a script whose type changed after insertion; it lets this event cancel it.
  document.addEventListener('beforescriptexecute', (event) => {
    if (event.target instanceof Element && event.target.hasAttribute(BLOCKED) && event.target.getAttribute('type') === 'text/plain') event.preventDefault();
  });

  handover.reblockIframes = () => document.querySelectorAll('iframe').forEach((iframe) => blockIframe(iframe));
}
