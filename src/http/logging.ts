import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request } from 'express';
import { pinoHttp } from 'pino-http';
import type { Logger } from '../logger.ts';
import { callerOf } from './authentication.ts';

/** `?apiKey=…` → `?apiKey=[redacted]`: API keys never reach a log line. */
export const redactUrl = (url: string): string => url.replace(/([?&]apikey=)[^&#]*/gi, '$1[redacted]');

/** One log line per request: id, method, route, status, duration, client; never keys or bodies. */
export const requestLogging = (logger: Logger) =>
  pinoHttp({
    logger,
    genReqId: (_req: IncomingMessage, res: ServerResponse) => String(res.getHeader('X-Request-Id') ?? ''),
    // Evaluated when the line is written, once the route is known.
    customProps: (req: IncomingMessage) => {
      const request = req as Request;
      const caller = callerOf(request);
      const route = request.route?.path ?? (request.baseUrl || undefined);
      return {
        ...(route ? { route: String(route) } : {}),
        ...(caller?.kind === 'client' ? { clientId: caller.clientId } : caller ? { caller: 'admin' } : {}),
      };
    },
    serializers: {
      req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: redactUrl(req.url) }),
      res: (res: { statusCode: number }) => ({ status: res.statusCode }),
    },
    customLogLevel: (_req: IncomingMessage, res: ServerResponse, error?: Error) =>
      error || res.statusCode >= 500 ? 'error' : 'info',
    customSuccessMessage: (req: IncomingMessage, res: ServerResponse) => `${req.method} ${redactUrl(req.url ?? '')} ${res.statusCode}`,
    customErrorMessage: (req: IncomingMessage, res: ServerResponse) => `${req.method} ${redactUrl(req.url ?? '')} ${res.statusCode}`,
  });
