import express from 'express';
import { isId } from '../../kernel/ids.ts';
import { invalid, notFound } from '../../kernel/errors.ts';
import type { Asset, BannerDelivery } from './banner-delivery.ts';

/** CDN-friendly: browsers and caches keep a banner a minute, then may serve it while they check it again for a day. */
const BANNER_CACHE = 'public, max-age=60, stale-while-revalidate=86400, stale-if-error=86400';
/** The domain turned caching off (`frontendWidgetCache`): every use asks again (a 304 when unchanged). */
const BANNER_NO_CACHE = 'no-cache';
/** A content-hashed address never changes its content. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Sends `asset` as a script anyone may load from any site: no cookies, any origin, not sniffed;
 * gzipped when the browser takes it; 304 when the browser's copy is current.
 */
function sendScript(req: express.Request, res: express.Response, asset: Asset, cacheControl: string): void {
  res.setHeader('Content-Type', 'text/javascript; charset=utf-8');
  res.setHeader('Cache-Control', cacheControl);
  res.setHeader('ETag', asset.etag);
  res.setHeader('Vary', 'Accept-Encoding');
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  const known = req.headers['if-none-match'];
  if (known && known.split(',').some((tag) => tag.trim().replace(/^W\//, '') === asset.etag)) {
    res.statusCode = 304;
    res.end();
    return;
  }
  const gzip = /\bgzip\b/.test(req.headers['accept-encoding'] ?? '');
  const body = gzip ? asset.gzip : asset.body;
  if (gzip) res.setHeader('Content-Encoding', 'gzip');
  res.setHeader('Content-Length', body.length);
  res.statusCode = 200;
  res.end(req.method === 'HEAD' ? undefined : body);
}

/**
 * The public side of the service: the script the snippet loads (`/app.js?domain=…[&lang=…]`)
 * and the runtime it brings (`/banner/runtime-<hash>.js`). No key, no cookie, no session.
 */
export function bannerRouter(delivery: BannerDelivery): express.Router {
  const router = express.Router();
  router.get('/app.js', async (req, res) => {
    const domainId = typeof req.query.domain === 'string' ? req.query.domain : '';
    const lang = typeof req.query.lang === 'string' ? req.query.lang : null;
    if (!isId(domainId)) throw invalid('domain must be the id of a domain (a UUID)', [{ path: 'domain', message: 'must be a UUID' }]);
    const script = await delivery.script(domainId, lang);
    if (!script) throw notFound(`domain ${domainId}`);
    delivery.counter.count(script.clientId, script.domainId);
    sendScript(req, res, script, script.cacheable ? BANNER_CACHE : BANNER_NO_CACHE);
  });
  router.get('/banner/:file', async (req, res) => {
    const runtime = await delivery.runtime();
    // An older runtime is gone: the app.js that named it has been replaced too.
    if (req.path !== runtime.path) throw notFound(req.path);
    sendScript(req, res, runtime.asset, IMMUTABLE);
  });
  return router;
}
