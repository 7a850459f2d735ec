import type { BannerConfig } from '../banner-config.ts';
import { ALLOWED, BLOCKED, PLACEHOLDER } from './attributes.ts';
import { eraseCookie } from './cookies.ts';
import { allowHost } from './iframe-hosts.ts';
import type { BlockedIframe } from './handover.ts';
import { plainText } from './html-text.ts';
import type { IframeManager, IframeManagerConfig, IframeManagerService } from './iframemanager-api.ts';
import { inLocale } from './locale.ts';

/** The cookie iframemanager keeps per accepted service (it sets it itself). */
export const iframeManagerCookie = (serviceId: string) => `im_${serviceId}`;

/** The host of the iframe a placeholder stands for. */
const HOST = 'data-ccm-host';

const FALLBACK_TEXTS: Record<string, { text: string; button: string; always?: string }> = {
  de: { text: 'Dieser Inhalt eines Drittanbieters wurde blockiert.', button: 'Inhalt laden' },
  en: { text: 'This third-party content has been blocked.', button: 'Load content' },
};

/** Loads a blocked iframe where it is; `once`: the visitor's choice for this iframe alone, never blocked again. */
function releaseIframe(iframe: HTMLIFrameElement, once: boolean): void {
  const src = iframe.getAttribute('data-src');
  iframe.removeAttribute(BLOCKED);
  if (once) iframe.setAttribute(ALLOWED, '');
  if (iframe.style.display === 'none') iframe.style.display = '';
  if (src) {
    iframe.removeAttribute('data-src');
    iframe.setAttribute('src', src);
  }
}

/**
 * What replaces blocked iframes: iframemanager's notice for an embedding's iframes (its
 * "always allow" accepts the embedding in cookieconsent), a plain notice with a load button
 * for iframes only the domain's rules blocked, nothing for hidden ones until their embedding
 * is accepted.
 */
export function createIframes(config: BannerConfig, locale: string, alwaysAllow: (serviceId: string) => void, isAccepted: (serviceId: string) => boolean) {
  const manager: IframeManager | undefined = window.iframemanager?.();
  const services = new Map(config.categories.flatMap((category) => category.services).map((service) => [service.id, service]));
  const blockedTexts = (serviceId: string) => {
    const service = services.get(serviceId);
    return service && inLocale(service.blockedContent, locale);
  };
  const managed = new Set<string>();
  const hidden: BlockedIframe[] = [];
  let ran = false;
  let rerun = false;

  const imService = (serviceId: string): IframeManagerService | null => {
    const texts = blockedTexts(serviceId);
    if (!texts) return null;
    return {
      embedUrl: '{data-id}',
      cookie: { name: iframeManagerCookie(serviceId) },
      // Without `appendConsentSwitchToIframes` the notice only loads the one iframe: no "always allow".
      languages: { [locale]: { notice: texts.text + (texts.details ?? ''), loadBtn: texts.button, loadAllBtn: config.iframes.consentSwitch ? texts.allowAlways : '' } },
    };
  };

  const runManager = () => {
    if (!manager || managed.size === 0) return;
    const imServices: IframeManagerConfig['services'] = {};
    for (const id of managed) {
      const service = imService(id);
      if (!service) continue;
      imServices[id] = service;
      // iframemanager trusts its own cookie; after a reset or a new revision it may be stale.
      if (!isAccepted(id)) eraseCookie(iframeManagerCookie(id));
    }
    if (ran) manager.reset(true);
    ran = true;
    manager.run({
      currLang: locale,
      services: imServices,
      onChange: ({ changedServices, eventSource }) => {
        if (eventSource.type === 'click' && eventSource.action === 'accept') changedServices.forEach(alwaysAllow);
      },
    });
  };

  /**
   * Remembers the host of an iframe the visitor loaded (`rememberIframeConsentPerDomain`, or the
   * "always show" button) and loads the other placeholders of that host on the page.
   */
  let remembering = false;
  const rememberHost = (src: string, from: Element) => {
    const host = allowHost(config, src);
    if (!host || remembering) return;
    remembering = true;
    document.querySelectorAll<HTMLElement>(`[${PLACEHOLDER}][${HOST}]`).forEach((box) => {
      if (box !== from && box.getAttribute(HOST) === host) box.querySelector<HTMLElement>('.c-l-b, .ccm-blocked-iframe button')?.click();
    });
    remembering = false;
  };
  const markHost = (box: HTMLElement, src: string) => {
    try {
      box.setAttribute(HOST, new URL(src, location.href).host.toLowerCase());
    } catch {
      // No host: nothing to remember.
    }
  };

  const managerNotice = (item: BlockedIframe, serviceId: string): boolean => {
    const texts = blockedTexts(serviceId);
    if (!manager || !texts) return false;
    const { iframe } = item;
    const box = document.createElement('div');
    box.setAttribute('data-service', serviceId);
    // iframemanager puts data-id into embedUrl with String#replace, where `$` is special.
    box.setAttribute('data-id', item.src.replace(/\$/g, '$$$$'));
    box.setAttribute('data-title', texts.title);
    box.setAttribute(PLACEHOLDER, '');
    for (const { name, value } of Array.from(iframe.attributes)) {
      if (!/^(src|data-src|width|height|style|data-service|data-ccm-.*)$/.test(name)) box.setAttribute(`data-iframe-${name}`, value);
    }
    if (!iframe.hasAttribute('title')) box.setAttribute('data-iframe-title', plainText(texts.title));
    const width = Number.parseInt(iframe.getAttribute('width') ?? '', 10);
    if (width > 0) box.style.width = `${width}px`;
    markHost(box, item.src);
    if (config.iframes.rememberHosts) {
      box.addEventListener('click', (event) => {
        if (event.target instanceof Element && event.target.closest('.c-l-b')) rememberHost(item.src, box);
      });
    }
    iframe.replaceWith(box);
    managed.add(serviceId);
    return true;
  };

  const genericNotice = (item: BlockedIframe) => {
    const texts = config.texts[locale]?.blockedIframe ?? FALLBACK_TEXTS[locale.slice(0, 2)] ?? FALLBACK_TEXTS.en!;
    const box = document.createElement('div');
    box.className = 'ccm-blocked-iframe';
    box.setAttribute(PLACEHOLDER, '');
    const text = document.createElement('p');
    text.innerHTML = texts.text;
    const host = document.createElement('span');
    host.className = 'ccm-blocked-iframe__host';
    host.textContent = new URL(item.src, location.href).host;
    text.append(' ', host);
    const button = document.createElement('button');
    button.type = 'button';
    button.innerHTML = texts.button;
    const load = (remember: boolean) => {
      box.replaceWith(item.iframe);
      releaseIframe(item.iframe, true);
      if (remember) rememberHost(item.src, box);
    };
    button.addEventListener('click', () => load(config.iframes.rememberHosts));
    box.append(text, button);
    if (config.iframes.consentSwitch && texts.always) {
      const always = document.createElement('button');
      always.type = 'button';
      always.className = 'ccm-blocked-iframe__always';
      always.innerHTML = texts.always;
      always.addEventListener('click', () => load(true));
      box.append(always);
    }
    markHost(box, item.src);
    item.iframe.replaceWith(box);
  };

  const place = (item: BlockedIframe): boolean => {
    if (item.service && isAccepted(item.service)) {
      releaseIframe(item.iframe, false);
      return false;
    }
    if (item.hidden) {
      hidden.push(item);
      return false;
    }
    if (item.service && managerNotice(item, item.service)) return true;
    genericNotice(item);
    return false;
  };

  return {
    /** The iframes the bootstrap blocked before the runtime started. */
    start(items: BlockedIframe[]) {
      items.forEach(place);
      runManager();
    },
    /**
     * An iframe blocked later: iframemanager is run again to take its notice in (it has no way
     * to add one). That redraws its other notices too: a video loaded just once shows its notice again.
     */
    late(item: BlockedIframe) {
      if (!place(item) || rerun) return;
      rerun = true;
      queueMicrotask(() => {
        rerun = false;
        runManager();
      });
    },
    accept(serviceId: string) {
      if (managed.has(serviceId)) manager?.acceptService(serviceId);
      for (const item of hidden.filter((candidate) => candidate.service === serviceId)) {
        hidden.splice(hidden.indexOf(item), 1);
        releaseIframe(item.iframe, false);
      }
    },
    reject(serviceId: string) {
      if (managed.has(serviceId)) manager?.rejectService(serviceId);
    },
  };
}
