import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import express from 'express';
import { isId } from '../../kernel/ids.ts';
import { invalid, notFound } from '../../kernel/errors.ts';
import { problem, PROBLEM_TYPE } from '../../kernel/problem.ts';
import { type Asset, type BannerDelivery, RUNTIME_PREFIX } from './banner-delivery.ts';

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
function sendScript(req: IncomingMessage, res: ServerResponse, asset: Asset, cacheControl: string): void {
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

/** Where every path bannerRouter answers starts (ignoring case, as its routes match). */
export const BANNER_PATH_PREFIXES: readonly string[] = ['/app.js', RUNTIME_PREFIX];

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
  router.get(`${RUNTIME_PREFIX}:file`, async (req, res) => {
    const runtime = await delivery.runtime();
    // An older runtime is gone: the app.js that named it has been replaced too.
    if (req.path !== runtime.path) throw notFound(req.path);
    sendScript(req, res, runtime.asset, IMMUTABLE);
  });
  // Public addresses that only serve: anything but GET and HEAD is refused as such, not as unauthenticated.
  router.all(['/app.js', `${RUNTIME_PREFIX}:file`], (req, res) => {
    res.setHeader('Allow', 'GET, HEAD');
    res.status(405).type(PROBLEM_TYPE).send(JSON.stringify(problem(405, `${req.method} is not allowed here; use GET`)));
  });
  return router;
}

/**
 * The banner's hot path, in front of Express: a load of a known domain's banner, or of the
 * runtime, is answered straight from memory without the framework's routing (a 304 costs half
 * as much this way). Everything else — a malformed or unknown domain, a failure — goes to
 * `fallback`, the whole app, whose banner routes answer it with the usual problem+json.
 */
export function bannerFastPath(
  delivery: BannerDelivery,
  fallback: RequestListener,
  /** Told of each request answered here (the metrics). */
  served: (method: string, route: string, status: number, seconds: number) => void = () => {},
): RequestListener {
  const send = (req: IncomingMessage, res: ServerResponse, route: string, started: number, asset: Asset, cacheControl: string) => {
    sendScript(req, res, asset, cacheControl);
    served(req.method!, route, res.statusCode, (performance.now() - started) / 1000);
  };
  return (req, res) => {
    const started = performance.now();
    const url = req.url ?? '/';
    if (req.method !== 'GET' && req.method !== 'HEAD') return void fallback(req, res);
    if (url.startsWith('/app.js?')) {
      const query = new URLSearchParams(url.slice('/app.js?'.length));
      const domains = query.getAll('domain');
      const langs = query.getAll('lang');
      if (domains.length !== 1 || !isId(domains[0]!) || langs.length > 1) return void fallback(req, res);
      delivery.script(domains[0]!, langs[0] ?? null).then(
        (script) => {
          if (!script) return void fallback(req, res);
          delivery.counter.count(script.clientId, script.domainId);
          send(req, res, '/app.js', started, script, script.cacheable ? BANNER_CACHE : BANNER_NO_CACHE);
        },
        () => fallback(req, res),
      );
      return;
    }
    if (url.startsWith(RUNTIME_PREFIX)) {
      delivery.runtime().then(
        (runtime) => (url === runtime.path ? send(req, res, `${RUNTIME_PREFIX}:hash.js`, started, runtime.asset, IMMUTABLE) : fallback(req, res)),
        () => fallback(req, res),
      );
      return;
    }
    fallback(req, res);
  };
}
