import { STATUS_CODES } from 'node:http';
import type { Response } from 'express';
import type { ErrorKind, FieldProblem } from './errors.ts';

/** Error kinds → HTTP status (SERVICE.md §3). */
export const HTTP_STATUS: Record<ErrorKind, number> = {
  validation: 400,
  not_found: 404,
  forbidden: 403,
  conflict: 409,
  unauthenticated: 401,
  upstream: 500,
  unavailable: 503,
  rate_limited: 429,
};

/** Problem type URIs (RFC 9457), relative to the service. */
const TYPE_BY_STATUS: Record<number, string> = {
  400: '/problems/validation',
  401: '/problems/unauthenticated',
  403: '/problems/forbidden',
  404: '/problems/not-found',
  405: '/problems/method-not-allowed',
  409: '/problems/conflict',
  413: '/problems/payload-too-large',
  412: '/problems/precondition-failed',
  429: '/problems/too-many-requests',
  500: '/problems/internal',
  503: '/problems/unavailable',
};

export type Problem = {
  type: string;
  title: string;
  status: number;
  detail: string;
  errors?: FieldProblem[];
};

export function problem(status: number, detail: string, errors?: FieldProblem[]): Problem {
  return {
    type: TYPE_BY_STATUS[status] ?? 'about:blank',
    title: STATUS_CODES[status] ?? 'Error',
    status,
    detail,
    ...(status === 400 ? { errors: errors ?? [] } : {}),
  };
}

export function sendProblem(res: Response, body: Problem): void {
  res.status(body.status).type('application/problem+json').send(JSON.stringify(body));
}
