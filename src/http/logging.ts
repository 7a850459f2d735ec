import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request } from 'express';
import { pinoHttp } from 'pino-http';
import type { Logger } from '../logger.ts';
import { callerOf } from './authentication.ts';
import { routeName } from './route-name.ts';

/** A query parameter's name as the query parser reads it (`api%4Bey` is `apiKey` too). */
function decodedName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}

/** Query parameters the service reads; any other name is logged as `[redacted]`, for it may be data itself. */
const KNOWN_PARAMETERS = new Set(['apiKey', 'query', 'variables', 'operationName', 'extensions']);
/** Of those, the ones whose values may be logged: they name things, they carry no data. */
const LOGGED_VALUES = new Set(['operationName']);

/**
 * `?apiKey=…&variables=…&x=…` → `?apiKey=[redacted]&variables=[redacted]&[redacted]`: a logged
 * address keeps the names of the parameters the service reads (also bracketed, `apiKey[]`) but
 * no values — API keys however their name is encoded, GraphQL documents and variables sent by
 * GET — and nothing of parameters it does not read.
 */
function redactUrl(url: string): string {
  const start = url.indexOf('?');
  if (start < 0) return url;
  const end = url.includes('#') ? url.indexOf('#') : url.length;
  const query = url
    .slice(start + 1, end)
    .split('&')
    .map((pair) => {
      const separator = pair.indexOf('=');
      const name = separator < 0 ? pair : pair.slice(0, separator);
      const known = decodedName(name).replace(/\[.*$/, '');
      if (!KNOWN_PARAMETERS.has(known)) return '[redacted]';
      return separator < 0 || LOGGED_VALUES.has(known) ? pair : `${name}=[redacted]`;
    })
    .join('&');
  return `${url.slice(0, start + 1)}${query}`;
}

const requestedUrl = (req: IncomingMessage): string => (req as Request).originalUrl ?? req.url ?? '';

/** One log line per request: id, method, route, status, duration, client; never keys or bodies. */
export const requestLogging = (logger: Logger) =>
  pinoHttp({
    logger,
    genReqId: (_req: IncomingMessage, res: ServerResponse) => String(res.getHeader('X-Request-Id') ?? ''),
    // Evaluated when the line is written, once the route is known.
    customProps: (req: IncomingMessage) => {
      const request = req as Request;
      const caller = callerOf(request);
      const route = routeName(request);
      return {
        ...(route ? { route } : {}),
        ...(caller?.kind === 'client' ? { clientId: caller.clientId } : caller ? { caller: 'admin' } : {}),
      };
    },
    serializers: {
      // The URL as the client sent it: Express shortens `url` inside mounted routers.
      req: (req: { id: string; method: string; url: string; raw: IncomingMessage }) => ({
        id: req.id,
        method: req.method,
        url: redactUrl(requestedUrl(req.raw)),
      }),
      res: (res: { statusCode: number }) => ({ status: res.statusCode }),
    },
    customLogLevel: (_req: IncomingMessage, res: ServerResponse, error?: Error) =>
      error || res.statusCode >= 500 ? 'error' : 'info',
    customSuccessMessage: (req: IncomingMessage, res: ServerResponse) => `${req.method} ${redactUrl(requestedUrl(req))} ${res.statusCode}`,
    customErrorMessage: (req: IncomingMessage, res: ServerResponse) => `${req.method} ${redactUrl(requestedUrl(req))} ${res.statusCode}`,
  });
