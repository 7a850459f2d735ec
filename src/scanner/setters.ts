import type { Page } from 'puppeteer-core';
import { setCookieNames } from './site-visit.ts';

/**
 * Who set each cookie and Web Storage key during a scan, as a regulator's report names it
 * ("`_fbp` set by connect.facebook.net/…/fbevents.js"): for a cookie of a `Set-Cookie` header, the
 * address of the response; for one written by `document.cookie`, or a key by `setItem`, the script
 * that wrote it (the innermost script address on the call stack; an inline script shows as its
 * page's address). The first setter of a name is kept.
 *
 * Scripts are watched from inside each document: a script added before any of the page's own
 * replaces the `document.cookie` setter and `Storage.prototype.setItem` with ones that report the
 * call stack to the scanner and then do what the originals do.
 */

export type SetterKind = 'cookie' | 'localStorage' | 'sessionStorage';

export type SetterLog = {
  /** Watches `page` (before it navigates). */
  watch(page: Page): Promise<void>;
  /** The address of what first set `name`, if it was seen. */
  setterOf(kind: SetterKind, name: string): string | undefined;
};

const REPORT_BINDING = '__consentScanSetter';

/** Runs in every document before its scripts: reports writes of cookies and storage keys with their stack. */
function watchWrites(binding: string): void {
  const report = (globalThis as unknown as Record<string, (message: string) => void>)[binding];
  if (typeof report !== 'function') return;
  const tell = (kind: string, name: string) => {
    try {
      void report(JSON.stringify({ kind, name, stack: new Error().stack ?? '' }));
    } catch {
      // never in the page's way
    }
  };
  const cookie = Object.getOwnPropertyDescriptor(Document.prototype, 'cookie');
  if (cookie?.get && cookie.set) {
    const { get, set } = cookie;
    Object.defineProperty(Document.prototype, 'cookie', {
      configurable: true,
      enumerable: cookie.enumerable,
      get() {
        return get.call(this);
      },
      set(value: unknown) {
        tell('cookie', String(value).split(';')[0]!.split('=')[0]!.trim());
        set.call(this, value);
      },
    });
  }
  const setItem = Storage.prototype.setItem;
  Storage.prototype.setItem = function (this: Storage, key: string, value: string) {
    let kind = 'sessionStorage';
    try {
      if (this === globalThis.localStorage) kind = 'localStorage';
    } catch {
      // storage switched off: it is then neither
    }
    tell(kind, String(key));
    return setItem.call(this, key, value);
  };
}

/** The innermost http(s) script address on a V8 stack, without its line and column. */
export function innermostScript(stack: string): string | undefined {
  for (const line of stack.split('\n').slice(1)) {
    const match = /(https?:\/\/[^\s()]+?)(?::\d+){1,2}\)?\s*$/.exec(line);
    if (match) return match[1];
  }
  return undefined;
}

export function createSetterLog(): SetterLog {
  const setters = new Map<string, string>();
  const note = (kind: SetterKind, name: string, by: string | undefined) => {
    const key = `${kind} ${name}`;
    if (by && !setters.has(key)) setters.set(key, by);
  };
  return {
    async watch(page) {
      await page.exposeFunction(REPORT_BINDING, (message: string) => {
        try {
          const { kind, name, stack } = JSON.parse(message) as { kind: SetterKind; name: string; stack: string };
          if (kind === 'cookie' || kind === 'localStorage' || kind === 'sessionStorage') note(kind, name, innermostScript(stack));
        } catch {
          // not ours
        }
      });
      await page.evaluateOnNewDocument(watchWrites, REPORT_BINDING);
      page.on('response', (response) => {
        for (const name of setCookieNames(response.headers()['set-cookie'])) note('cookie', name, response.url());
      });
    },
    setterOf: (kind, name) => setters.get(`${kind} ${name}`),
  };
}
