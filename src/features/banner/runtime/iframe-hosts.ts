import type { BannerConfig } from '../banner-config.ts';
import { eraseCookie } from './cookies.ts';
import { iframeVerdict } from './markers.ts';

/**
 * The iframe hosts a visitor allowed from a placeholder, remembered when the domain says so
 * (`rememberIframeConsentPerDomain`, or the placeholder's "always show external content"): an
 * iframe from such a host loads on every page from then on, without a notice. Kept beside the
 * consent and like it (localStorage, or a cookie for the other storages), valid as long as a
 * consent is: its lifetime, the domain's reset date, the legal revision. A rejection withdraws
 * them (forgetHosts).
 */

/** `of`: the embedding an iframe of the host belonged to when it was allowed. */
type Kept = { revision: number; hosts: Record<string, number>; of?: Record<string, string> };

const keyOf = (config: BannerConfig) => `${config.consent.name}_iframes`;

function read(config: BannerConfig): Record<string, number> {
  return readKept(config)?.hosts ?? {};
}

function readKept(config: BannerConfig): Kept | null {
  const { consent } = config;
  try {
    let text: string | null;
    if (consent.storage === 'localStorage') text = localStorage.getItem(keyOf(config));
    else {
      const prefix = `${keyOf(config)}=`;
      const cookie = document.cookie.split(/;\s*/).find((part) => part.startsWith(prefix));
      text = cookie ? decodeURIComponent(cookie.slice(prefix.length)) : null;
    }
    const kept = text ? (JSON.parse(text) as Kept) : null;
    if (!kept || kept.revision !== config.revision) return null;
    const oldest = Math.max(Date.now() - consent.lifetimeDays * 86_400_000, consent.resetBefore ? Date.parse(consent.resetBefore) : 0);
    return { ...kept, hosts: Object.fromEntries(Object.entries(kept.hosts).filter(([, since]) => since >= oldest)) };
  } catch {
    return null;
  }
}

function write(config: BannerConfig, hosts: Record<string, number>, of: Record<string, string> = {}): void {
  const text = JSON.stringify({ revision: config.revision, hosts, of } satisfies Kept);
  const { consent } = config;
  if (consent.storage === 'localStorage') return localStorage.setItem(keyOf(config), text);
  const lifetime = consent.storage === 'cookie' ? `; Max-Age=${consent.lifetimeDays * 86_400}` : '';
  const secure = consent.secure && location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${keyOf(config)}=${encodeURIComponent(text)}; Path=/; SameSite=Lax${lifetime}${secure}`;
}

const hostOf = (address: string): string | null => {
  try {
    return new URL(address, location.href).host.toLowerCase() || null;
  } catch {
    return null;
  }
};

/** Whether the visitor allowed iframes from `address`'s host before. */
export const hostAllowed = (config: BannerConfig, address: string): boolean => {
  const host = hostOf(address);
  return !!host && host in read(config);
};

/** Remembers `address`'s host as allowed; answers the host. */
export function allowHost(config: BannerConfig, address: string): string | null {
  const host = hostOf(address);
  if (host) {
    try {
      const kept = readKept(config);
      const service = iframeVerdict(config, new Set(), address).service?.service.id;
      write(config, { ...kept?.hosts, [host]: Date.now() }, { ...kept?.of, ...(service ? { [host]: service } : {}) });
    } catch {
      // Storage refused (full, or disabled): the iframe still loads on this page.
    }
  }
  return host;
}

/**
 * Withdraws remembered hosts: every one (`serviceIds` undefined: the visitor rejected everything
 * that is not necessary), or those whose iframes belong to one of the embeddings the visitor
 * switched off. A host no embedding claims is then kept: only the domain's iframe rules held it.
 */
export function forgetHosts(config: BannerConfig, serviceIds?: readonly string[]): void {
  const kept = readKept(config);
  if (!kept || Object.keys(kept.hosts).length === 0) return;
  const of = kept.of ?? {};
  const left = serviceIds ? Object.entries(kept.hosts).filter(([host]) => !serviceIds.includes(of[host] ?? '')) : [];
  try {
    if (left.length > 0) return write(config, Object.fromEntries(left), of);
    if (config.consent.storage === 'localStorage') localStorage.removeItem(keyOf(config));
    else eraseCookie(keyOf(config));
  } catch {
    // Storage refused: nothing was kept there either.
  }
}

/**
 * `iframeVerdict`, with the hosts the visitor allowed: an iframe from one loads, as if the
 * domain's list named it (so that one the site holds in `data-src` loads too). Not one of an
 * embedding kept off this page, whose iframes never load here.
 */
export function iframeVerdictHere(config: BannerConfig, accepted: Set<string>, src: string): ReturnType<typeof iframeVerdict> {
  const verdict = iframeVerdict(config, accepted, src);
  return verdict.blocked && !verdict.service?.service.offPage && hostAllowed(config, src) ? { ...verdict, blocked: false, listed: true } : verdict;
}
