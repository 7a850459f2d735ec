import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { dnsEgressPolicy, type EgressPolicy } from '../../../src/scanner/address-policy.ts';

/**
 * Operators' sites for the compliance scan, served on 127.0.0.1 under host names of their own,
 * each page with the banner snippet the test hands in (or none), and an analytics vendor whose
 * script sets `_ga` on the site it runs on and whose frame is a page of its own. Every request the
 * vendor gets is counted (`vendorHits`).
 *
 * - `www.held.test`: the tracker is inserted by an inline snippet, as vendors' stock snippets do:
 *   the banner holds it until consent.
 * - `www.leaky.test`: an inline script set before the snippet writes `_ga` itself, and the
 *   vendor's frame is written with `src` in the HTML: neither can a banner stop.
 * - `www.bare.test`: no snippet; the tracker is a plain `<script src>`.
 *
 * Every site sets its own session cookie (`site_session`) and links to a second page (`/about`).
 */

export const VENDOR_HOST = 'tracker.analytics.test';
export const SITES = { held: 'www.held.test', leaky: 'www.leaky.test', bare: 'www.bare.test' } as const;
export type SiteName = keyof typeof SITES;

const TRACKER = `
  document.cookie = '_ga=GA1.1.42.1700000000; path=/; max-age=63072000';
  window.trackerRan = (window.trackerRan || 0) + 1;
`;

/** The page's markup; `snippet` is the banner tag from `…/onboarding/embed` (empty: none). */
function pageOf(site: SiteName, snippet: string, title: string): string {
  const head = {
    // The address is put together so that the inline code itself names no tracker (a marker in its text would hold it).
    held: `${snippet}
<script>(function () { var s = document.createElement('script'); s.async = true; s.src = 'http://tracker.' + 'analytics.test/t.js'; document.head.appendChild(s); })();</script>`,
    leaky: `<script>document.cookie = '_ga=GA1.1.7.1700000000; path=/; max-age=63072000';</script>
${snippet}`,
    bare: `<script src="http://${VENDOR_HOST}/t.js"></script>`,
  }[site];
  const body = site === 'leaky' ? `<iframe src="http://${VENDOR_HOST}/frame.html" title="Stats" width="300" height="150"></iframe>` : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>
${head}
</head><body><main><h1>${title}</h1><p>Welcome.</p>${body}<a href="/about">About us</a></main></body></html>`;
}

export type ConsentSites = {
  /** Where the scanner's browser may go: the sites and the vendor, the consent service's port on loopback, public addresses otherwise. */
  policy: EgressPolicy;
  /** The banner tag each site's pages carry (set once the domains exist). */
  snippets: Partial<Record<SiteName, string>>;
  /** Requests the vendor got, by path. */
  vendorHits: Map<string, number>;
  /** Lets the browser reach the consent service listening on this loopback port. */
  allowService(port: number): void;
  close(): Promise<void>;
};

export async function startConsentSites(): Promise<ConsentSites> {
  const snippets: ConsentSites['snippets'] = {};
  const vendorHits = new Map<string, number>();
  const hostOf = new Map<string, SiteName>(Object.entries(SITES).map(([name, host]) => [host, name as SiteName]));
  const server: Server = createServer((req, res) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '');
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (host === VENDOR_HOST) {
      vendorHits.set(path, (vendorHits.get(path) ?? 0) + 1);
      if (path === '/t.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(TRACKER);
      if (path === '/frame.html') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Stats</title><p>stats</p>');
      return void res.writeHead(404).end();
    }
    const site = hostOf.get(host);
    if (!site || (path !== '/' && path !== '/about')) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'set-cookie': 'site_session=1; Path=/; SameSite=Lax' });
    res.end(pageOf(site, snippets[site] ?? '', path === '/' ? `${site} home` : `About ${site}`));
  });
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const ours = new Set<string>([...Object.values(SITES), VENDOR_HOST]);
  const publicOnly = dnsEgressPolicy({ allowPrivate: false });
  let servicePort: number | undefined;
  return {
    policy: async (host, requestedPort) => {
      if (ours.has(host)) return { address: '127.0.0.1', port };
      if (host === '127.0.0.1' && requestedPort === servicePort) return { address: host, port: requestedPort };
      return publicOnly(host, requestedPort);
    },
    snippets,
    vendorHits,
    allowService(next) {
      servicePort = next;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
