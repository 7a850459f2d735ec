import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import express from 'express';
import { isId } from '../../kernel/ids.ts';
import { invalid, notFound } from '../../kernel/errors.ts';
import { problem, PROBLEM_TYPE } from '../../kernel/problem.ts';
import { traceIncoming } from '../../kernel/tracing.ts';
import {
  type Asset,
  type BannerDelivery,
  type BannerScript,
  CHUNK_PATH,
  RUNTIME_PREFIX,
  type StaleBannerScript,
  VENDOR_LIST_PATH,
  VENDOR_LIST_PREFIX,
} from './banner-delivery.ts';
import { CHUNK_NAMES } from './runtime-bundle.ts';
import { REGION_PATH } from './region/visitor-region.ts';
import { forSecGpc, VARY_WITH_GPC } from './sec-gpc.ts';

/** CDN-friendly: browsers and caches keep a banner a minute, then may serve it while they check it again for a day. */
const BANNER_CACHE = 'public, max-age=60, stale-while-revalidate=86400, stale-if-error=86400';
/** The domain turned caching off (`frontendWidgetCache`): every use asks again (a 304 when unchanged). */
const BANNER_NO_CACHE = 'no-cache';
/** A content-hashed address never changes its content. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Whether an If-None-Match header names `etag` (weakly compared, as a GET's must be) or is `*`. */
function matches(known: string | undefined, etag: string): boolean {
  if (!known) return false;
  if (known === etag || known.trim() === '*') return true;
  return known.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/**
 * Sends `asset` as a script anyone may load from any site: no cookies, any origin, not sniffed;
 * gzipped when the browser takes it; 304 when the browser's copy is current. The headers go as
 * one literal list to writeHead, which spares the per-header work of setHeader on the hot path.
 */
function sendScript(req: IncomingMessage, res: ServerResponse, asset: Asset, cacheControl: string, stale = false, vary = 'Accept-Encoding'): void {
  const extra = stale ? STALE_MARK : NONE;
  if (matches(req.headers['if-none-match'], asset.etag)) {
    res.writeHead(304, [
      'Content-Type', asset.type ?? 'text/javascript; charset=utf-8', 'Vary', vary, 'Access-Control-Allow-Origin', '*',
      'Cross-Origin-Resource-Policy', 'cross-origin', 'X-Content-Type-Options', 'nosniff',
      'Cache-Control', cacheControl, 'ETag', asset.etag, ...extra,
    ]);
    res.end();
    return;
  }
  const gzip = /\bgzip\b/.test(req.headers['accept-encoding'] ?? '');
  const body = gzip ? asset.gzip : asset.body;
  res.writeHead(200, [
    'Content-Type', asset.type ?? 'text/javascript; charset=utf-8', 'Vary', vary, 'Access-Control-Allow-Origin', '*',
    'Cross-Origin-Resource-Policy', 'cross-origin', 'X-Content-Type-Options', 'nosniff',
    'Cache-Control', cacheControl, 'ETag', asset.etag, 'Content-Length', body.length, ...(gzip ? GZIP : NONE), ...extra,
  ]);
  res.end(req.method === 'HEAD' ? undefined : body);
}

const NONE: readonly string[] = [];
const GZIP: readonly string[] = ['Content-Encoding', 'gzip'];

/** How a banner is sent: cacheable as the domain says, or not at all when it is a copy the database could not confirm. */
function sendBanner(req: IncomingMessage, res: ServerResponse, script: BannerScript | StaleBannerScript): void {
  if ('stale' in script) return sendScript(req, res, script, BANNER_NO_CACHE, true);
  const cacheControl = script.cacheable ? BANNER_CACHE : BANNER_NO_CACHE;
  if (script.privacySignals) return sendScript(req, res, forSecGpc(req, script), cacheControl, false, VARY_WITH_GPC);
  sendScript(req, res, script, cacheControl);
}

/** Says that the banner is the last one built, served while the database cannot be read. */
const STALE_MARK = ['X-Banner-Stale', 'database unreachable; the last built banner'];

/** Where every path bannerRouter answers starts (ignoring case, as its routes match). */
export const BANNER_PATH_PREFIXES: readonly string[] = ['/app.js', RUNTIME_PREFIX, REGION_PATH, ...CHUNK_NAMES.map((name) => `/banner/${name}-`), VENDOR_LIST_PREFIX];

/**
 * The public side of the service: the script the snippet loads (`/app.js?domain=…[&lang=…]`)
 * and the runtime it brings (`/banner/runtime-<hash>.js`). No key, no cookie, no session.
 */
export function bannerRouter(delivery: BannerDelivery, rateLimit: express.RequestHandler): express.Router {
  const router = express.Router();
  // What reaches the router missed the memory (or is malformed): it may cost statements, so it is limited per address.
  router.get('/app.js', rateLimit, async (req, res) => {
    const domainId = typeof req.query.domain === 'string' ? req.query.domain.toLowerCase() : '';
    if (req.query.lang !== undefined && typeof req.query.lang !== 'string') throw invalid('lang must be given once', [{ path: 'lang', message: 'must be given once' }]);
    const lang = req.query.lang ?? null;
    if (!isId(domainId)) throw invalid('domain must be the id of a domain (a UUID)', [{ path: 'domain', message: 'must be a UUID' }]);
    const script = await delivery.script(domainId, lang);
    if (!script) throw notFound(`domain ${domainId}`);
    delivery.counter.count(script.clientId, script.domainId, req);
    delivery.figures.loads++;
    sendBanner(req, res, script);
  });
  router.get(`${RUNTIME_PREFIX}:file`, async (req, res) => {
    const runtime = await delivery.runtime();
    // An older runtime is gone: the app.js that named it has been replaced too.
    if (req.path !== runtime.path) throw notFound(req.path);
    sendScript(req, res, runtime.asset, IMMUTABLE);
  });
  router.get(REGION_PATH, (req, res) => delivery.region.send(req, res));
  router.get(`${VENDOR_LIST_PREFIX}:file`, async (req, res) => {
    // An older list of the domain (its configuration changed since) is gone, like the app.js that named it.
    const list = await delivery.vendorListAt(req.path.toLowerCase());
    if (!list) throw notFound(req.path);
    sendScript(req, res, list, IMMUTABLE);
  });
  router.get('/banner/:file', async (req, res) => {
    // An older bundle (or none of that name) is gone: the app.js that named it has been replaced too.
    const chunk = await delivery.chunkAt(req.path);
    if (!chunk) throw notFound(req.path);
    sendScript(req, res, chunk, IMMUTABLE);
  });
  // Public addresses that only serve: anything but GET and HEAD is refused as such, not as unauthenticated.
  router.all(['/app.js', `${RUNTIME_PREFIX}:file`, REGION_PATH, '/banner/:file', `${VENDOR_LIST_PREFIX}:file`], (req, res) => {
    res.setHeader('Allow', 'GET, HEAD');
    res.status(405).type(PROBLEM_TYPE).send(JSON.stringify(problem(405, `${req.method} is not allowed here; use GET`)));
  });
  return router;
}

/**
 * `domain` and `lang` of a banner's query string, read without URLSearchParams when it is plain
 * (no escapes); undefined when a parameter is repeated. The domain id is in lower case, the one
 * spelling the cache knows.
 */
export function bannerQuery(query: string): { domain: string; lang: string | null } | undefined {
  // The form the snippet writes, `domain=<uuid>[&lang=<name>]`, read without splitting.
  if (query.startsWith('domain=') && (query.length === 43 || query.charCodeAt(43) === 38 /* & */)) {
    const domain = lowerCase(query.slice(7, 43));
    if (query.length === 43) return { domain, lang: null };
    if (query.startsWith('lang=', 44) && !/[&%+]/.test(query.slice(49))) return { domain, lang: query.slice(49) };
  }
  let domain: string | undefined;
  let lang: string | null = null;
  if (query.includes('%') || query.includes('+')) {
    const params = new URLSearchParams(query);
    const domains = params.getAll('domain');
    const langs = params.getAll('lang');
    if (domains.length !== 1 || langs.length > 1) return undefined;
    return { domain: domains[0]!.toLowerCase(), lang: langs[0] ?? null };
  }
  for (const pair of query.split('&')) {
    const equals = pair.indexOf('=');
    const name = equals < 0 ? pair : pair.slice(0, equals);
    const value = equals < 0 ? '' : pair.slice(equals + 1);
    if (name === 'domain') {
      if (domain !== undefined) return undefined;
      domain = value.toLowerCase();
    } else if (name === 'lang') {
      if (lang !== null) return undefined;
      lang = value;
    }
  }
  return domain === undefined ? undefined : { domain, lang };
}

/** `text` in lower case (the same string when it has no upper-case letter, as ids mostly do not). */
const lowerCase = (text: string) => (/[A-Z]/.test(text) ? text.toLowerCase() : text);

/** The route a span of a banner load names. */
const bannerRoute = () => '/app.js';

/**
 * The banner's hot path, in front of Express: a load of a known domain's banner, or of the
 * runtime, is answered straight from memory without the framework's routing, and when the banner
 * is built and current, without a promise. Everything else — a malformed or unknown domain, a
 * failure — goes to `fallback`, the whole app, whose banner routes answer it with the usual
 * problem+json.
 */
export function bannerFastPath(
  delivery: BannerDelivery,
  fallback: RequestListener,
  /** Told of each request answered here (the metrics). */
  served: (method: string, route: string, status: number, seconds: number) => void = () => {},
): RequestListener {
  const sendBannerOf = (req: IncomingMessage, res: ServerResponse, started: number, script: BannerScript | StaleBannerScript) => {
    delivery.counter.count(script.clientId, script.domainId, req);
    delivery.figures.loads++;
    sendBanner(req, res, script);
    served(req.method!, '/app.js', res.statusCode, (performance.now() - started) / 1000);
  };
  return (req, res) => {
    const started = performance.now();
    const url = req.url ?? '/';
    if (req.method !== 'GET' && req.method !== 'HEAD') return void fallback(req, res);
    if (url.startsWith('/app.js?')) {
      const query = bannerQuery(url.slice('/app.js?'.length));
      if (!query) return void fallback(req, res);
      const warm = delivery.cached(query.domain, query.lang);
      if (warm) return sendBannerOf(req, res, started, warm);
      if (!isId(query.domain)) return void fallback(req, res);
      // Not in memory: a load that reads the database gets a span while tracing is on (a warm one never does).
      traceIncoming(req, res, bannerRoute, () =>
        delivery.script(query.domain, query.lang).then(
          (script) => (script ? sendBannerOf(req, res, started, script) : fallback(req, res)),
          () => fallback(req, res),
        ),
      );
      return;
    }
    if (url === REGION_PATH || url.startsWith(`${REGION_PATH}?`)) {
      delivery.region.send(req, res);
      return served(req.method!, REGION_PATH, 200, (performance.now() - started) / 1000);
    }
    if (CHUNK_PATH.test(url)) {
      delivery.chunkAt(url).then(
        (chunk) => {
          if (!chunk) return void fallback(req, res);
          sendScript(req, res, chunk, IMMUTABLE);
          served(req.method!, '/banner/:chunk-:hash.js', res.statusCode, (performance.now() - started) / 1000);
        },
        () => fallback(req, res),
      );
      return;
    }
    if (VENDOR_LIST_PATH.test(url)) {
      delivery.vendorListAt(url).then(
        (list) => {
          if (!list) return void fallback(req, res);
          sendScript(req, res, list, IMMUTABLE);
          served(req.method!, `${VENDOR_LIST_PREFIX}:domain-:hash.json`, res.statusCode, (performance.now() - started) / 1000);
        },
        () => fallback(req, res),
      );
      return;
    }
    if (url.startsWith(RUNTIME_PREFIX)) {
      delivery.runtime().then(
        (runtime) => {
          if (url !== runtime.path) return void fallback(req, res);
          sendScript(req, res, runtime.asset, IMMUTABLE);
          served(req.method!, `${RUNTIME_PREFIX}:hash.js`, res.statusCode, (performance.now() - started) / 1000);
        },
        () => fallback(req, res),
      );
      return;
    }
    fallback(req, res);
  };
}
