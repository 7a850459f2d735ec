import type { BannerService } from '../banner-config.ts';
import { BLOCKED, HELD_SRC, HOLD, OWN } from './attributes.ts';
import { type Revival, revive } from './revive.ts';

const LOADER_TYPE = 'text/x-ccm-loader';
/** What the blocker added to a held script; its copy goes without them. */
const HELD_SCRIPT_ATTRIBUTES = /^(type|data-type|data-category|data-service|data-ccm-hold|data-ccm-blocked)$/;

/** Releases the scripts and HTML code of accepted services, each at most once a page, one after another. */
export function createReleaser() {
  const done = new WeakSet<Element>();
  const injected = new Set<string>();
  let queue = Promise.resolve();
  const enqueue = (step: () => Promise<void>) => {
    queue = queue.then(step, step);
  };
  const inOrder = (scripts: HTMLScriptElement[], revival: (script: HTMLScriptElement) => Revival) => {
    const pending = scripts.filter((script) => !done.has(script));
    pending.forEach((script) => done.add(script));
    if (pending.length > 0) enqueue(async () => {
      for (const script of pending) await revive(script, revival(script));
    });
  };

  return {
    /** CCM19's `<script type="text/x-ccm-loader" data-ccm-loader-group="…">` of the service's group (or just `only`). */
    loaders(service: BannerService, only?: HTMLScriptElement) {
      if (!service.scriptLoaderGroup) return;
      const scripts = only ? [only] : Array.from(document.querySelectorAll<HTMLScriptElement>(`script[type="${LOADER_TYPE}"]`));
      inOrder(
        scripts.filter((script) => script.type === LOADER_TYPE && script.getAttribute('data-ccm-loader-group') === service.scriptLoaderGroup),
        (script) => ({ drop: /^(type|data-ccm-loader-.*)$/, src: script.getAttribute('data-ccm-loader-src') }),
      );
    },

    /** Scripts the bootstrap blocked for the service that cookieconsent does not manage (they came after it started). */
    blocked(service: BannerService, managedByCookieConsent: WeakSet<Element>) {
      const scripts = Array.from(document.querySelectorAll<HTMLScriptElement>(`script[${BLOCKED}][type="text/plain"]`)).filter(
        (script) => script.getAttribute('data-service') === service.id && !managedByCookieConsent.has(script),
      );
      inOrder(scripts, (script) => ({ drop: HELD_SCRIPT_ATTRIBUTES, type: script.getAttribute('data-type') }));
    },

    /**
     * The `type="text/plain" data-category` scripts of accepted services (the page's own and
     * those the bootstrap held), which cookieconsent runs only on a consent it keeps: for the
     * services a visitor gets without one (`enableOnlyInEu`, outside the region).
     */
    withoutConsent(accepted: Set<string>, categories: Set<string>) {
      const scripts = Array.from(document.querySelectorAll<HTMLScriptElement>('script[type="text/plain"][data-category]')).filter((script) => {
        const service = script.getAttribute('data-service');
        return categories.has(script.getAttribute('data-category')!) && (service === null || accepted.has(service));
      });
      inOrder(scripts, (script) => ({ drop: HELD_SCRIPT_ATTRIBUTES, type: script.getAttribute('data-type') }));
    },

    /**
     * Scripts no service claims, held by the domain's rules until the visitor accepted
     * everything; inline ones only when `evalInline` (otherwise they run from the next page on).
     */
    unknown(evalInline: boolean) {
      const scripts = Array.from(document.querySelectorAll<HTMLScriptElement>(`script[${HOLD}="unknown"][type="text/plain"]`)).filter(
        (script) => evalInline || script.hasAttribute('src'),
      );
      inOrder(scripts, (script) => ({ drop: HELD_SCRIPT_ATTRIBUTES, type: script.getAttribute('data-type') }));
    },

    /** Tracking images of the service that waited for its consent: they load now. */
    images(service: BannerService, held: HTMLImageElement[]) {
      const markup = Array.from(document.querySelectorAll<HTMLImageElement>(`img[${HELD_SRC}][${HOLD}="service"]`));
      for (const image of new Set([...held, ...markup])) {
        if (image.getAttribute('data-service') !== service.id || done.has(image)) continue;
        done.add(image);
        const src = image.getAttribute(HELD_SRC)!;
        image.removeAttribute(HELD_SRC);
        image.removeAttribute(BLOCKED);
        image.setAttribute('src', src);
      }
    },

    /** The service's `scriptHtmlCode`, appended to the body, its scripts made anew so that they run. */
    html(service: BannerService) {
      if (!service.scriptHtmlCode.trim() || injected.has(service.id)) return;
      injected.add(service.id);
      // Parsed apart from the page (not through innerHTML, which the blocker rewrites): the operator's code for an accepted service runs as written.
      const parsed = new DOMParser().parseFromString(`<body>${service.scriptHtmlCode}`, 'text/html');
      const nodes = Array.from(parsed.body.childNodes);
      enqueue(async () => {
        for (const node of nodes) {
          if (node instanceof HTMLScriptElement) {
            await revive(node, { drop: /^$/, place: (fresh) => document.body.appendChild(fresh) });
            continue;
          }
          const nested = node instanceof Element ? Array.from(node.querySelectorAll('script')) : [];
          nested.forEach((script) => script.setAttribute(OWN, ''));
          document.body.appendChild(node);
          for (const script of nested) await revive(script, { drop: /^$/ });
        }
      });
    },
  };
}
