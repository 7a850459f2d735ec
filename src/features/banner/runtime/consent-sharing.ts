import type { BannerConfig } from '../banner-config.ts';

/**
 * Consent sharing (`consentSharingDomains`, `consentSharingCrossDomain`): one choice for every
 * site that carries the same snippet.
 *
 * - Subdomains: on a page whose host is a listed domain or below one, a consent kept in a cookie
 *   is set for that domain, so `www.`, `shop.` and the bare domain read the same cookie. A consent
 *   kept in localStorage (one per host in the browser) is handed over as below.
 * - Other listed domains (cross-domain on), and other hosts of the same listed domain when the
 *   consent is in localStorage: links, form submissions and `CCM.navigate()` to such a page carry
 *   the stored consent in the address's fragment (`#ccm19=…`, never sent to a server), and an
 *   iframe of such a page asks its parent page for it. The receiving page takes it only when it names this domain's banner,
 *   is at most a few minutes old, and comes from a listed site: the page it was linked from
 *   (the referrer) or the parent frame's origin. A consent handed over from anywhere else, say
 *   a link someone crafted on their own site, is ignored, so nobody can consent on a visitor's
 *   behalf.
 */

/** The fragment parameter that carries a handed-over consent. */
export const FRAGMENT_KEY = 'ccm19';
/** How old a handed-over consent may be when it arrives. */
const MAX_AGE_MS = 10 * 60_000;
/** The message an iframe sends its parent to ask for the consent, and the answer's. */
const ASK = 'ccm19:consent?';
const ANSWER = 'ccm19:consent';

type Sharing = BannerConfig['sharing'];

/** The listed domain `host` is or lies below; undefined when none. */
export function listedDomainOf(sharing: Sharing, host: string): string | undefined {
  const name = host.toLowerCase();
  return sharing.domains.find((domain) => name === domain || name.endsWith(`.${domain}`));
}

/** The domain the consent cookie is set for: the listed domain of this page, or the host alone. */
export const consentCookieDomain = (sharing: Sharing): string | undefined => listedDomainOf(sharing, location.hostname);

/** Whether `src` is a page of a site that shares this consent (a listed domain or below one). */
export function sharesConsent(config: BannerConfig, src: string): boolean {
  if (config.sharing.domains.length === 0) return false;
  try {
    const url = new URL(src, document.baseURI);
    return /^https?:$/.test(url.protocol) && !!listedDomainOf(config.sharing, url.hostname);
  } catch {
    return false;
  }
}

/** Whether the consent is handed to `address`: a page of another host that shares it and does not read it already. */
function sharesWith(config: BannerConfig, address: URL): boolean {
  if (!/^https?:$/.test(address.protocol) || address.hostname === location.hostname) return false;
  const target = listedDomainOf(config.sharing, address.hostname);
  if (!target) return false;
  if (target !== listedDomainOf(config.sharing, location.hostname)) return config.sharing.crossDomain;
  return config.consent.storage === 'localStorage';
}

/** Whether a page at `address` (a referrer, a frame's origin) shares its consent with this page. */
const sharingPage = (config: BannerConfig, address: string): boolean => {
  try {
    return sharesWith(config, new URL(address));
  } catch {
    return false;
  }
};

/** The hand-over string of a stored consent record (CCM.crossDomainConsentString without the `#`). */
export function handOverString(config: BannerConfig, record: Record<string, unknown> | null): string {
  return record ? `${FRAGMENT_KEY}=${encodeURIComponent(JSON.stringify({ d: config.domainId, t: Date.now(), c: record }))}` : '';
}

/** Stores a consent record as vanilla-cookieconsent does (its cookie or localStorage item), for `days`. */
function store(config: BannerConfig, record: Record<string, unknown>): void {
  const { consent } = config;
  const lifetime = consent.storage === 'sessionStorage' ? 0 : consent.lifetimeDays * 86_400_000;
  const expires = new Date(Date.now() + lifetime);
  const value = JSON.stringify({ ...record, expirationTime: lifetime ? expires.getTime() : record.expirationTime });
  if (consent.storage === 'localStorage') return localStorage.setItem(consent.name, value);
  const domain = consentCookieDomain(config.sharing);
  document.cookie =
    `${consent.name}=${encodeURIComponent(value)}` +
    (lifetime ? `; expires=${expires.toUTCString()}` : '') +
    '; Path=/; SameSite=Lax' +
    (domain ? `; Domain=${domain}` : '') +
    (consent.secure && location.protocol === 'https:' ? '; Secure' : '');
}

/** Takes a handed-over consent if it is one this page may trust; answers whether it did. */
function adopt(config: BannerConfig, text: string, from: string): boolean {
  if (!sharingPage(config, from)) return false;
  try {
    const { d, t, c } = JSON.parse(decodeURIComponent(text)) as { d?: unknown; t?: unknown; c?: Record<string, unknown> };
    const age = Date.now() - Number(t);
    if (d !== config.domainId || !(age >= -60_000 && age <= MAX_AGE_MS) || !c || typeof c !== 'object') return false;
    if (c.revision !== config.revision || !Array.isArray(c.categories) || typeof c.consentId !== 'string') return false;
    store(config, c);
    return true;
  } catch {
    return false;
  }
}

/**
 * The bootstrap's part, before the stored consent is read: a consent handed over in this page's
 * fragment is taken (and the fragment parameter removed from the address bar either way).
 */
export function receiveHandedOverConsent(config: BannerConfig): void {
  if (config.sharing.domains.length === 0) return;
  const hash = location.hash.slice(1);
  const parts = hash.split('&');
  const carried = parts.find((part) => part.startsWith(`${FRAGMENT_KEY}=`));
  if (!carried) return;
  adopt(config, carried.slice(FRAGMENT_KEY.length + 1), document.referrer);
  const rest = parts.filter((part) => part !== carried).join('&');
  history.replaceState(history.state, '', `${location.pathname}${location.search}${rest ? `#${rest}` : ''}`);
}

/** `address` with the hand-over string in its fragment. */
function withConsent(address: URL, carried: string): string {
  const hash = address.hash.slice(1).split('&').filter((part) => part && !part.startsWith(`${FRAGMENT_KEY}=`));
  address.hash = [...hash, carried].join('&');
  return address.href;
}

export type SharingApi = {
  /** CCM.crossDomainConsentString: the fragment to put on an address of another listed domain ('' without a consent). */
  readonly crossDomainConsentString: string;
  /** CCM.navigate(url[, replace[, navigateTop]]). */
  navigate(url: string, replace?: boolean, navigateTop?: boolean): void;
};

/**
 * The runtime's part: hands the consent on along links, forms and to iframes of other listed
 * domains; `storedRecord` reads the current consent record (null: none).
 */
export function shareConsent(config: BannerConfig, storedRecord: () => Record<string, unknown> | null): SharingApi {
  const sharing = config.sharing;
  const carried = () => handOverString(config, storedRecord());
  const decorated = (address: string): string => {
    const current = carried();
    if (!current) return address;
    try {
      const url = new URL(address, document.baseURI);
      return sharesWith(config, url) ? withConsent(url, current) : address;
    } catch {
      return address;
    }
  };

  if (sharing.crossDomain || (sharing.domains.length > 0 && config.consent.storage === 'localStorage')) {
    // The address is decorated as the link is followed, so the page never shows it.
    const follow = (event: Event) => {
      const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
      if (link instanceof HTMLAnchorElement) {
        const next = decorated(link.href);
        if (next !== link.href) link.href = next;
      }
    };
    document.addEventListener('click', follow, true);
    document.addEventListener('auxclick', follow, true);
    document.addEventListener(
      'submit',
      (event) => {
        const form = event.target;
        if (form instanceof HTMLFormElement) {
          const next = decorated(form.action);
          if (next !== form.action) form.action = next;
        }
      },
      true,
    );
    // An iframe of another listed site asks; it gets an answer only at its own origin.
    addEventListener('message', (event) => {
      if (event.data !== ASK || !event.source || !sharingPage(config, event.origin)) return;
      const current = carried();
      if (current) (event.source as WindowProxy).postMessage({ type: ANSWER, carried: current.slice(FRAGMENT_KEY.length + 1) }, event.origin);
    });
  }

  return {
    get crossDomainConsentString() {
      return carried();
    },
    navigate(url, replace = false, navigateTop = false) {
      const target = navigateTop ? window.top ?? window : window;
      const next = decorated(url);
      if (replace) target.location.replace(next);
      else target.location.href = next;
    },
  };
}

/**
 * In an iframe (sharing on, no consent yet): asks the parent page for its consent and
 * takes it if the parent is a listed site. Resolves once answered or after `waitMs`.
 */
export function askParentForConsent(config: BannerConfig, hasConsent: boolean, waitMs = 400): Promise<boolean> {
  if (config.sharing.domains.length === 0 || hasConsent || window.parent === window) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (taken: boolean) => {
      removeEventListener('message', listen);
      clearTimeout(timer);
      resolve(taken);
    };
    const listen = (event: MessageEvent) => {
      const data = event.data as { type?: unknown; carried?: unknown } | null;
      if (event.source !== window.parent || data?.type !== ANSWER || typeof data.carried !== 'string') return;
      done(adopt(config, data.carried, event.origin));
    };
    const timer = setTimeout(() => done(false), waitMs);
    addEventListener('message', listen);
    window.parent.postMessage(ASK, '*');
  });
}
