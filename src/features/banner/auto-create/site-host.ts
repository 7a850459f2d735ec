import { isIP } from 'node:net';

/**
 * Which page a key-less client snippet (`/app.js?client=<id>`) runs on, and whether that page is
 * one a domain may be created for by itself (`autoCreateDomains`). CCM19 warns that this
 * automatism catches by-catch: pages framed or fetched by others (translators, caches, proxies).
 * Only a public host name of an http(s) page, read from the request the browser makes for a
 * `<script>`, qualifies.
 */
export type SitePage = { scheme: 'http' | 'https'; host: string };

/** Names that are never a public website: RFC 6761/6762/8375 special-use and private-use suffixes. */
const SPECIAL_SUFFIXES = ['localhost', 'local', 'internal', 'arpa', 'test', 'invalid', 'example', 'onion', 'lan', 'home', 'corp', 'intranet', 'localdomain'];

/**
 * Hosts that show other people's pages (translation, caches, archives, AMP caches, web proxies):
 * the snippet runs there on someone else's behalf, never on a site of the client's.
 */
const FOREIGN_PAGE_HOSTS = [
  'translate.goog',
  'googleusercontent.com',
  'google.com',
  'ampproject.org',
  'bing.com',
  'bingj.com',
  'microsofttranslator.com',
  'yandex.net',
  'yandex.ru',
  'archive.org',
  'archive.ph',
  'archive.today',
  'archive.is',
  'archive.li',
  'archive.md',
  'proxysite.com',
  'croxyproxy.com',
  'hidester.com',
];

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** Whether `host` ends with `suffix` as a whole label sequence (`a.example.org` ends with `example.org`). */
const endsWithName = (host: string, suffix: string) => host === suffix || host.endsWith(`.${suffix}`);

/** The page a script request comes from: its Referer (or Origin), when it is an http(s) address. */
export function pageOf(headers: { referer?: string | undefined; origin?: string | undefined }): SitePage | undefined {
  for (const address of [headers.referer, headers.origin]) {
    if (!address || address === 'null') continue;
    let url: URL;
    try {
      url = new URL(address);
    } catch {
      continue;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') continue;
    return { scheme: url.protocol === 'https:' ? 'https' : 'http', host: url.hostname.toLowerCase().replace(/\.$/, '') };
  }
  return undefined;
}

/**
 * Why a domain must not be created for `host` by itself, or undefined when it may:
 * an address, a special-use or single-label name, a host that shows others' pages, or the
 * service's own host.
 */
export function refusalOf(host: string, serviceHost: string): string | undefined {
  if (isIP(host.replace(/^\[|\]$/g, '')) !== 0) return 'an IP address is not a website name';
  const labels = host.split('.');
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) return 'not a public host name';
  const tld = labels.at(-1)!;
  if (!/^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/.test(tld)) return 'not a public host name';
  if (SPECIAL_SUFFIXES.includes(tld)) return `.${tld} names are not public websites`;
  const foreign = FOREIGN_PAGE_HOSTS.find((suffix) => endsWithName(host, suffix));
  if (foreign) return `${foreign} shows other people's pages (translation, cache, archive or proxy)`;
  if (serviceHost && endsWithName(host, serviceHost.toLowerCase())) return "the consent service's own host";
  return undefined;
}
