import cors from 'cors';
import type { Request, RequestHandler, Response } from 'express';
import { ipKeyGenerator, rateLimit } from 'express-rate-limit';
import helmet from 'helmet';
import { callerOf } from './authentication.ts';
import { refuse } from './refusal.ts';

/** Security headers, CORS for dashboards, and per-key rate limits. */

/**
 * Security headers on every answer. Every page (GraphiQL, /docs) loads its scripts, styles and
 * fonts from this service only; inline styles stay allowed because both editors set them.
 */
export const securityHeaders = (): RequestHandler =>
  helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        workerSrc: ["'self'", 'blob:'],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        frameAncestors: ["'none'"],
        // helmet's default would make browsers fetch this page's scripts over https, which
        // leaves GraphiQL and /docs blank wherever the service is reached over plain HTTP
        // (a container on its host's address, a private network).
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });

/** CORS for the listed origins (`*`: any); with none listed, no cross-origin access. */
export function corsFor(origins: string[]): RequestHandler | undefined {
  if (origins.length === 0) return undefined;
  return cors({
    origin: origins.includes('*') ? '*' : origins,
    methods: ['GET', 'POST', 'PUT', 'DELETE'],
    allowedHeaders: ['Authorization', 'Content-Type', 'X-Request-Id', 'X-GraphQL-Yoga-CSRF'],
    exposedHeaders: ['X-Request-Id', 'Retry-After', 'RateLimit', 'RateLimit-Policy'],
    maxAge: 600,
  });
}

const tooMany = (limit: number, what: string) => (req: Request, res: Response) => {
  const resetTime = (req as Request & { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime;
  const seconds = resetTime ? Math.max(1, Math.ceil((resetTime.getTime() - Date.now()) / 1000)) : 60;
  res.setHeader('Retry-After', String(seconds));
  refuse(req, res, 'rate_limited', `more than ${limit} ${what} a minute; try again in ${seconds} s`);
};

/**
 * Each valid API key gets `perMinute` requests a minute (requests without a key, which only
 * reach the public pages, count per address); then 429 with Retry-After. Runs after
 * authentication, so wrong keys never spend a key's budget.
 */
export const rateLimitPerKey = (perMinute: number): RequestHandler =>
  rateLimit({
    windowMs: 60_000,
    limit: perMinute,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    keyGenerator: (req: Request) => {
      const caller = callerOf(req);
      if (!caller) return `ip:${ipKeyGenerator(req.ip ?? '')}`;
      return caller.kind === 'admin' ? 'admin' : `key:${caller.keyId}`;
    },
    handler: tooMany(perMinute, 'requests with this key'),
  });

/**
 * Each address may fail authentication `perMinute` times a minute; past that, its requests with
 * a missing or wrong key are answered 429 instead of 401, so guessing keys is slow. Only failed
 * requests reach it (see authentication.ts): a valid key always passes, whatever its address did.
 * The address is the client's as `TRUST_PROXY` lets Express read it behind a reverse proxy.
 */
export const rateLimitFailedAuthentication = (perMinute: number): RequestHandler =>
  rateLimit({
    windowMs: 60_000,
    limit: perMinute,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    keyGenerator: (req: Request) => `ip:${ipKeyGenerator(req.ip ?? '')}`,
    handler: tooMany(perMinute, 'requests with a missing or wrong API key'),
  });

/**
 * Consent records from one visitor address: `perMinute` a minute (a busy site has many
 * addresses; one address choosing more often is a script, not a visitor), then 429.
 */
export const rateLimitConsentIntake = (perMinute: number): RequestHandler =>
  rateLimit({
    windowMs: 60_000,
    limit: perMinute,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    keyGenerator: (req: Request) => `consent:${ipKeyGenerator(req.ip ?? '')}`,
    handler: tooMany(perMinute, 'consent records from this address'),
  });

/** The banner's reports of scripts no embedding knows (POST /script-report): `perMinute` per address, then 429. */
export const rateLimitScriptReports = (perMinute: number): RequestHandler =>
  rateLimit({
    windowMs: 60_000,
    limit: perMinute,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    keyGenerator: (req: Request) => `script-report:${ipKeyGenerator(req.ip ?? '')}`,
    handler: tooMany(perMinute, 'script reports from this address'),
  });

/**
 * Banner loads from one address that the memory cannot answer (an unknown or malformed domain,
 * the first load after a change): `perMinute` a minute, then 429. Warm loads never reach it.
 */
export const rateLimitBannerMisses = (perMinute: number): RequestHandler =>
  rateLimit({
    windowMs: 60_000,
    limit: perMinute,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    keyGenerator: (req: Request) => `banner:${ipKeyGenerator(req.ip ?? '')}`,
    handler: tooMany(perMinute, 'banner loads that miss the cache from this address'),
  });
