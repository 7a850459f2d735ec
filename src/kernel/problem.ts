import { STATUS_CODES } from 'node:http';
import type { FieldProblem } from './errors.ts';

/** The problem+json body (RFC 9457) every error answer of the HTTP front doors carries. */

/** Problem type URIs, relative to the service. */
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

export const PROBLEM_TYPE = 'application/problem+json';
