import type { Request, Response } from 'express';
import { ERROR_KINDS, type ErrorKind } from '../kernel/errors.ts';
import { problem } from '../kernel/problem.ts';
import { sendProblem } from './problems.ts';

/** Where GraphQL answers (src/graphql/yoga.ts mounts Yoga there). */
export const GRAPHQL_PATH = '/graphql';

/**
 * A request refused before it reaches REST or GraphQL (no key, too many requests): a GraphQL
 * client gets a GraphQL error with its code, every other one problem+json. Same status either way.
 */
export function refuse(req: Request, res: Response, kind: ErrorKind, detail: string): void {
  const { status, code } = ERROR_KINDS[kind];
  if (req.path.replace(/\/$/, '') === GRAPHQL_PATH) {
    res.status(status).json({ errors: [{ message: detail, extensions: { code } }] });
    return;
  }
  sendProblem(res, problem(status, detail));
}
