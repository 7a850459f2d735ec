import { BLOCKED, HELD_SRC, MANAGED, OWN, PENDING, PLACEHOLDER } from './attributes.ts';
import { HANDOVER } from './handover.ts';
import { type Interception, intercept } from './interception.ts';
import { holdMarkup } from './markup.ts';
import { revive } from './revive.ts';
import { runnable } from './runnable.ts';
import { absolute, isWebAddress, onOwnSite } from './site.ts';

/**
 * The snippet's inline part: what runs on the site before the service has answered, so the
 * page never waits for the service and nothing slips through while it is slow or down.
 *
 * It holds every script, iframe and script-set image from another site the moment it appears
 * (the same interception as the banner's blocker, and an observer for what the parser
 * inserts), marks it `data-ccm-pending`, and loads app.js without blocking the page. When
 * app.js runs, its blocker takes the interception over (`adopt`) and judges each pending
 * element by the domain's configuration: what may run runs, in its order; the rest stays held.
 * Scripts of the page's own site and inline scripts run at once, as they would with the
 * banner. While the service does not answer, app.js is asked for again, later each time.
 */

/** How long each attempt to get app.js may take; then it is given up and the next one made (a hung service is not waited for forever). */
const RETRY_AFTER_SECONDS = [5, 10, 20, 40, 80];

export type Guard = {
  /** Hands the interception to the banner's blocker; answers the elements held so far, to be judged now. */
  adopt(hooks: Interception): Element[];
  /** The domain has no banner (switched off, or nothing to ask): everything held goes back as it was. */
  release(): void;
};

export const GUARD = '__ccmGuard';

declare global {
  interface Window {
    [GUARD]?: Guard;
  }
}

const foreign = (address: string | null): boolean => {
  const url = address === null ? null : absolute(address);
  return isWebAddress(url) && !onOwnSite(url);
};

export function guard(appUrl: string): void {
  if (window[GUARD] || window[HANDOVER]) return;
  const held: Element[] = [];

  const pend = (element: Element) => {
    element.setAttribute(PENDING, '');
    held.push(element);
  };
  const holdScript = (script: HTMLScriptElement, src: string | null) => {
    if (script.hasAttribute(OWN) || script.hasAttribute(MANAGED) || script.hasAttribute(BLOCKED) || script.hasAttribute(PENDING)) return;
    if (!runnable(script.getAttribute('type')) || !foreign(src)) return;
    const type = script.getAttribute('type');
    if (type) script.setAttribute('data-type', type);
    script.setAttribute('type', 'text/plain');
    pend(script);
  };
  const holdFrame = (iframe: HTMLIFrameElement, parent: Node | null) => {
    const src = iframe.getAttribute('src');
    const inPlaceholder = parent instanceof Element && !!parent.closest(`[${PLACEHOLDER}]`);
    if (src === null || inPlaceholder || iframe.hasAttribute(PENDING) || !foreign(src)) return;
    iframe.setAttribute('data-src', src);
    iframe.removeAttribute('src');
    pend(iframe);
  };

  const pending: Interception = {
    guard(element, parent) {
      if (element instanceof HTMLScriptElement) holdScript(element, element.getAttribute('src'));
      else if (element instanceof HTMLIFrameElement) holdFrame(element, parent);
    },
    guardSource(element, address) {
      if (element instanceof HTMLScriptElement) holdScript(element, address);
      else if (!element.hasAttribute(OWN) && foreign(address) && (element instanceof HTMLImageElement || element.isConnected)) {
        element.setAttribute(element instanceof HTMLImageElement ? HELD_SRC : 'data-src', address);
        pend(element);
        return null;
      }
      return address;
    },
    rewrite: (html) =>
      holdMarkup(html, (tag, src, _text, type) => {
        if (!foreign(src) || (tag === 'script' && !runnable(type))) return null;
        return tag === 'script' ? { attributes: { [PENDING]: '' } } : { attributes: { [PENDING]: '' }, moveSrcTo: tag === 'img' ? HELD_SRC : 'data-src' };
      }),
  };
  let hooks = pending;
  intercept({
    guard: (element, parent) => hooks.guard(element, parent),
    guardSource: (element, address) => hooks.guardSource(element, address),
    rewrite: (html) => hooks.rewrite(html),
  });
  const observer = new MutationObserver((records) => {
    for (const record of records) {
      for (const node of Array.from(record.addedNodes)) {
        if (!(node instanceof Element)) continue;
        const found = node.matches('script, iframe') ? [node] : Array.from(node.querySelectorAll('script, iframe'));
        found.forEach((element) => pending.guard(element, element.parentNode));
      }
    }
  });
  observer.observe(document.documentElement, { childList: true, subtree: true });

  /** What is held: in the page (in its order), then what is not in the page yet. */
  const takeHeld = () => {
    const inPage = Array.from(document.querySelectorAll(`[${PENDING}]`));
    const elsewhere = held.filter((element) => !element.isConnected);
    held.length = 0;
    return [...inPage, ...elsewhere];
  };

  window[GUARD] = {
    adopt(real) {
      hooks = real;
      observer.disconnect();
      return takeHeld();
    },
    release() {
      hooks = { guard: () => {}, guardSource: (_element, address) => address, rewrite: (html) => html };
      observer.disconnect();
      runInOrder(takeHeld().flatMap((element) => unpend(element) ?? []));
    },
  };
  load(appUrl, document.currentScript?.nonce ?? '');
}

/**
 * A held element back as it was written, its address set through the interception's current
 * hooks (which hold it again if they must). A script gets its type back; one in the page does
 * not run by that (its type changed after it was inserted): answered, for its caller to run a
 * copy of it or hold it.
 */
export function unpend(element: Element): HTMLScriptElement | null {
  element.removeAttribute(PENDING);
  if (element instanceof HTMLScriptElement) {
    const type = element.getAttribute('data-type');
    if (type) element.setAttribute('type', type);
    else element.removeAttribute('type');
    element.removeAttribute('data-type');
    return element.isConnected ? element : null;
  }
  const from = element instanceof HTMLImageElement ? HELD_SRC : 'data-src';
  const src = element.getAttribute(from);
  element.removeAttribute(from);
  if (src !== null) element.setAttribute('src', src);
  return null;
}

/** Runs copies of scripts one after another, in their order. */
export function runInOrder(scripts: HTMLScriptElement[]): void {
  void scripts.reduce<Promise<void>>((previous, script) => previous.then(() => revive(script, { drop: /^$/ })), Promise.resolve());
}

/**
 * app.js, fetched (a fetch neither blocks the page nor holds back its `load` event, as a
 * script element would while the service does not answer) and run as an inline script with the
 * snippet's nonce, if the site's Content Security Policy gave it one. An attempt that gets no
 * answer in time is given up and made again, with more time each time; an error answer
 * (a 5xx while the service restarts) is asked for again after two seconds.
 */
function load(appUrl: string, nonce: string, attempt = 0): void {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), RETRY_AFTER_SECONDS[attempt]! * 1_000);
  const again = (afterMs: number) => {
    if (attempt + 1 < RETRY_AFTER_SECONDS.length) setTimeout(() => window[HANDOVER] || load(appUrl, nonce, attempt + 1), afterMs);
  };
  fetch(appUrl, { credentials: 'omit', referrerPolicy: 'origin', signal: controller.signal })
    .then((answer) => {
      if (!answer.ok) throw new Error(`app.js answered ${answer.status}`);
      return answer.text();
    })
    .then(
      (text) => {
        clearTimeout(timer);
        if (window[HANDOVER]) return;
        const script = document.createElement('script');
        script.setAttribute(OWN, '');
        if (nonce) script.nonce = nonce;
        script.text = text;
        (document.head ?? document.documentElement).appendChild(script);
      },
      () => {
        clearTimeout(timer);
        again(controller.signal.aborted ? 0 : 2_000);
      },
    );
}
