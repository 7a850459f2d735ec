import type { BannerConfig, BannerService, StoredName } from '../banner-config.ts';
import { cookieNames, eraseCookie } from './cookies.ts';
import { iframeManagerCookie } from './iframes.ts';

const matches = (key: string, names: StoredName[]) => names.some((stored) => (stored.prefix ? key.startsWith(stored.name) : key === stored.name));

function removeKeys(storage: Storage, names: StoredName[]): void {
  if (names.length === 0) return;
  for (let index = storage.length - 1; index >= 0; index--) {
    const key = storage.key(index);
    if (key !== null && matches(key, names)) storage.removeItem(key);
  }
}

/** Removes the service's localStorage and sessionStorage keys (after an opt-out). */
export function removeStoredKeys(service: BannerService): void {
  try {
    removeKeys(localStorage, service.localStorage);
    removeKeys(sessionStorage, service.sessionStorage);
  } catch {
    // Storage can be off altogether (privacy settings): then nothing was stored either.
  }
}

/** Erases the first-party cookies no service declares (`deleteUnknownCookies`); never the consent's own. Answers their names. */
export function eraseUnknownCookies(config: BannerConfig): string[] {
  const services = config.categories.flatMap((category) => category.services);
  const declared = services.flatMap((service) => service.cookies);
  const own = new Set([config.consent.name, ...services.map((service) => iframeManagerCookie(service.id))]);
  const unknown = cookieNames().filter((name) => !own.has(name) && !matches(name, declared));
  unknown.forEach(eraseCookie);
  return unknown;
}
