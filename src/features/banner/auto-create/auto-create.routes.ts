import express from 'express';
import { invalid } from '../../../kernel/errors.ts';
import { isId } from '../../../kernel/ids.ts';
import type { DomainAutoCreator } from './auto-create-domains.ts';
import { pageOf } from './site-host.ts';

/**
 * `GET /app.js?client=<clientId>[&lang=…]`: the snippet of a client with `autoCreateDomains`,
 * which names no domain. The page it runs on (the browser's Referer) picks the client's domain of
 * that host, created by itself when there is none (auto-create-domains.ts). A load naming a
 * domain goes on to the banner's own routes. The answer is a redirect to the domain's banner.
 */
/** What a browser names a request that opens or embeds a page (Sec-Fetch-Dest). */
const NAVIGATIONS = new Set(['document', 'iframe', 'frame', 'object', 'embed', 'fencedframe']);

export function autoCreateRouter(creator: DomainAutoCreator, rateLimit: express.RequestHandler): express.Router {
  const router = express.Router();
  router.get('/app.js', (req, _res, next) => (req.query.domain === undefined && req.query.client !== undefined ? next() : next('router')), rateLimit, async (req, res) => {
    const clientId = typeof req.query.client === 'string' ? req.query.client.toLowerCase() : '';
    if (!isId(clientId)) throw invalid('client must be the id of a client (a UUID)', [{ path: 'client', message: 'must be a UUID' }]);
    if (req.query.lang !== undefined && typeof req.query.lang !== 'string') throw invalid('lang must be given once', [{ path: 'lang', message: 'must be given once' }]);
    // Only a page's script (or the snippet's fetch) picks a site: an address opened or framed as a page names none.
    const dest = req.headers['sec-fetch-dest'];
    if (typeof dest === 'string' && NAVIGATIONS.has(dest)) {
      throw invalid("the client snippet is loaded by a page's script, not opened as a page", [{ path: 'Sec-Fetch-Dest', message: 'must be script or empty' }]);
    }
    const page = pageOf(req.headers);
    if (!page) {
      throw invalid("the client snippet needs the page's address (the Referer or Origin header) to know its domain", [
        { path: 'Referer', message: 'must be the http(s) address of the page' },
      ]);
    }
    const outcome = await creator.domainFor(clientId, page);
    if ('error' in outcome) throw outcome.error;
    // To the domain's own address, which the banner's fast path answers from memory and caches may keep.
    const lang = typeof req.query.lang === 'string' ? `&lang=${encodeURIComponent(req.query.lang)}` : '';
    // Chosen by the page: no cache may hand one site's answer to another.
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Vary', 'Referer');
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    res.redirect(302, `/app.js?domain=${outcome.domainId}${lang}`);
  });
  return router;
}
