import type { BannerConfig } from '../../banner-config.ts';
import { consentCookieDomain } from '../consent-sharing.ts';

/**
 * The visitor's TCF choice, kept beside the banner's own consent (`<consent name>_tcf`, in the
 * same kind of storage and for as long): the TC and AC strings, and what the banner asked for
 * when they were made. Asked for again when the vendors or special features asked change.
 */
export type StoredTcfChoice = { tcString: string; acString: string | null; asked: string };

/** What the banner asks for: a choice made when it asked something else is asked for again. */
export const askedKey = (tcf: NonNullable<BannerConfig['tcf']>): string =>
  `${tcf.vendorIds.join(',')}|${tcf.specialFeatures.join(',')}|${(tcf.additionalConsentProviders ?? []).join(',')}`;

const nameOf = (config: BannerConfig) => `${config.consent.name}_tcf`;

export function readTcfChoice(config: BannerConfig): StoredTcfChoice | null {
  const name = nameOf(config);
  try {
    let text: string | null = null;
    if (config.consent.storage === 'localStorage') {
      const item = JSON.parse(localStorage.getItem(name) ?? 'null') as { value?: string; expires?: number } | null;
      text = item && Number(item.expires) > Date.now() ? (item.value ?? null) : null;
    } else {
      const cookie = document.cookie.split(/;\s*/).find((part) => part.startsWith(`${name}=`));
      text = cookie ? decodeURIComponent(cookie.slice(name.length + 1)) : null;
    }
    const value = JSON.parse(text ?? 'null') as Partial<StoredTcfChoice> | null;
    return value && typeof value.tcString === 'string' && typeof value.asked === 'string'
      ? { tcString: value.tcString, acString: typeof value.acString === 'string' ? value.acString : null, asked: value.asked }
      : null;
  } catch {
    return null;
  }
}

export function writeTcfChoice(config: BannerConfig, choice: StoredTcfChoice): void {
  const { consent } = config;
  const name = nameOf(config);
  const text = JSON.stringify(choice);
  const lifetime = consent.lifetimeDays * 86_400;
  if (consent.storage === 'localStorage') {
    localStorage.setItem(name, JSON.stringify({ value: text, expires: Date.now() + lifetime * 1000 }));
    return;
  }
  const domain = consentCookieDomain(config.sharing);
  // sessionStorage: a session cookie, as the banner keeps its own consent (cookieconsent-config.ts).
  document.cookie =
    `${name}=${encodeURIComponent(text)}; Path=/; SameSite=Lax` +
    (consent.storage === 'sessionStorage' ? '' : `; Max-Age=${lifetime}`) +
    (domain ? `; Domain=${domain}` : '') +
    (consent.secure && location.protocol === 'https:' ? '; Secure' : '');
}
