import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { AppServices, Caller } from '../kernel/context.ts';
import { refuse } from './refusal.ts';

/**
 * API keys, as the real API takes them (`?apiKey=…`) and as `Authorization: Bearer …`.
 * Without a valid key only the health endpoints, the documentation and the GraphiQL page
 * answer; everything else is 401 (GraphQL: an UNAUTHENTICATED error), or 429 once an address
 * has failed too often. A valid key is never refused for its address's failures. The key never
 * reaches a log line: see logging.
 */

/** The caller is kept on the request object itself (see request-context.ts for why not in a WeakMap). */
const CALLER = Symbol('caller');
type WithCaller = Request & { [CALLER]?: Caller };

export const callerOf = (req: Request): Caller | undefined => (req as WithCaller)[CALLER];

/** The key a request presents, if any. */
function presentedKey(req: Request): string | undefined {
  const header = req.headers.authorization;
  const bearer = header && /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
  if (bearer) return bearer;
  const query = req.query.apiKey;
  return typeof query === 'string' && query !== '' ? query : undefined;
}

/** Answer without a key (GraphiQL's page and assets, /healthz, /readyz, /openapi.json and /docs are served before this). */
const PUBLIC_PATHS = new Set(['/healthz', '/readyz', '/openapi.json', '/docs']);

const isPublicRequest = (req: Request) => PUBLIC_PATHS.has(req.path);

/**
 * `failedAttempts` sees only requests whose key is missing or wrong: it calls `next` to let the
 * 401 go out, or answers 429 itself when the address has failed too often.
 */
export const authentication =
  (keys: AppServices['keys'], failedAttempts: RequestHandler) => async (req: Request, res: Response, next: NextFunction) => {
    const key = presentedKey(req);
    const owner = key ? await keys.authenticate(key) : undefined;
    if (owner?.kind === 'inactive') {
      refuse(req, res, 'forbidden', `the client ${owner.clientId} of this API key is not active; the administrator can activate it`);
      return;
    }
    if (owner) {
      (req as WithCaller)[CALLER] = owner;
      return next();
    }
    if (isPublicRequest(req)) return next();
    failedAttempts(req, res, () => {
      const detail = key ? 'the API key is not valid' : 'an API key is required: ?apiKey=… or Authorization: Bearer …';
      res.setHeader('WWW-Authenticate', 'Bearer');
      refuse(req, res, 'unauthenticated', detail);
    });
  };
