import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type Request, type Response, Router } from 'express';
import { parsePayload } from '../src/kernel/contract/validate.ts';
import { problem } from '../src/kernel/problem.ts';
import { jsonBody, readBody } from '../src/http/body.ts';
import { sendProblem } from '../src/http/problems.ts';
import { contextOf } from '../src/http/request-context.ts';
import type { RawAnswer, RestRoute } from '../src/features/feature.ts';
import { restRoutes } from './routes.ts';

/** The query parameters a row's schema reads: every one but the API key, a repeated one as its last value. */
function queryOf(req: Request): Record<string, string> {
  const query = new URL(req.originalUrl, 'http://service').searchParams;
  query.delete('apiKey');
  return Object.fromEntries(query);
}

/** parse → call → present: the adapter does nothing else. */
const handlerFor = (row: RestRoute) => async (req: Request, res: Response) => {
  const body = row.body ? parsePayload(row.body, jsonBody(req.body)) : undefined;
  const query = row.query ? parsePayload(row.query, queryOf(req)) : undefined;
  const params = req.params as Record<string, string>;
  const result = await row.operation(contextOf(req), params, body, query);
  if (row.secret) res.setHeader('Cache-Control', 'no-store');
  if (row.location) res.setHeader('Location', row.location(params, result));
  if (row.produces) await sendRaw(res, row, result as RawAnswer);
  else if (row.status === 204) res.status(204).end();
  else res.status(row.status).json(result);
};

/** A page or a stream: a stream is written as it is produced, at the pace the client reads it. */
async function sendRaw(res: Response, row: RestRoute, answer: RawAnswer): Promise<void> {
  res.status(row.status).type(`${row.produces}; charset=utf-8`);
  if (answer.filename) res.attachment(answer.filename);
  if (typeof answer.body === 'string') {
    res.send(answer.body);
    return;
  }
  // Once the first bytes are out, a failure can only cut the answer short (the CSV then lacks its last line).
  try {
    await pipeline(Readable.from(answer.body), res);
  } catch (error) {
    // The client went away mid-download: the stream stopped reading, and there is no one to tell.
    if (res.destroyed && (error as { code?: string }).code === 'ERR_STREAM_PREMATURE_CLOSE') return;
    throw error;
  }
}

/** 405 with `Allow`, for a method a path does not take (OPTIONS: 204 with `Allow`). */
const methodNotAllowed = (allow: string) => (req: Request, res: Response) => {
  res.setHeader('Allow', allow);
  if (req.method === 'OPTIONS') res.status(204).end();
  else sendProblem(res, problem(405, `${req.method} is not allowed here; allowed: ${allow}`));
};

/** Walks the route table: one Express route per row, and 405 with `Allow` for other methods. */
export function createRestRouter(routes: readonly RestRoute[] = restRoutes): Router {
  const router = Router({ caseSensitive: true, strict: false });
  const methodsByPath = new Map<string, Set<string>>();
  const headless = new Set(routes.filter((row) => row.method === 'GET' && row.head === false).map((row) => row.path));
  for (const row of routes) {
    const methods = methodsByPath.get(row.path) ?? new Set<string>();
    methods.add(row.method);
    // Express answers HEAD with the GET's handler, unless the path refuses it first.
    if (row.method === 'GET' && !headless.has(row.path)) methods.add('HEAD');
    methodsByPath.set(row.path, methods);
  }
  for (const path of headless) router.head(path, methodNotAllowed([...methodsByPath.get(path)!].join(', ')));
  for (const row of routes) {
    const handlers = row.body ? [readBody, handlerFor(row)] : [handlerFor(row)];
    router[row.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete'](row.path, ...handlers);
  }
  for (const [path, methods] of methodsByPath) router.all(path, methodNotAllowed([...methods].join(', ')));
  return router;
}
