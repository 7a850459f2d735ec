import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type Request, type RequestHandler, type Response, Router } from 'express';
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

/**
 * Walks the route table: one Express route per row, and 405 with `Allow` for other methods.
 *
 * Express tries a router's routes one after the other, each with its regular expression: a read
 * deep in the table would pay for every route before it. So the table's paths are grouped by
 * their shape (how many segments, and the literal ones), and a request is handed to a router that
 * holds only the routes whose literal segments it has, in the table's order (one router per set
 * of shapes that can match together, made when first needed). Express still matches within it,
 * so what answers, and how, is what the whole table's router would do.
 */
export function createRestRouter(routes: readonly RestRoute[] = restRoutes): RequestHandler {
  type Mount = (router: Router) => void;
  /** Paths of one length: their shapes (the literal segments; undefined for a parameter), and a router per set of shapes. */
  type Group = { shapes: { key: string; literals: (string | undefined)[] }[]; mounts: { shape: number; mount: Mount }[]; routers: Map<number, Router> };
  const groups = new Map<number, Group>();
  const add = (path: string, mount: Mount) => {
    // Only simple `:name` segments are understood here; anything else would need Express's own matching.
    if (/[*?{}()]/.test(path) || /[^/]:|:[^/]*:/.test(path)) throw new Error(`REST path ${path} is not one the shape index understands`);
    const literals = path.split('/').slice(1).map((segment) => (segment.startsWith(':') ? undefined : segment));
    const key = literals.map((literal) => (literal === undefined ? ':' : `=${literal}`)).join('/');
    let group = groups.get(literals.length);
    if (!group) groups.set(literals.length, (group = { shapes: [], mounts: [], routers: new Map() }));
    let shape = group.shapes.findIndex((known) => known.key === key);
    if (shape < 0) shape = group.shapes.push({ key, literals }) - 1;
    if (shape >= 31) throw new Error(`the REST table has more path shapes of ${literals.length} segments than the shape index counts`);
    group.mounts.push({ shape, mount });
  };

  const methodsByPath = new Map<string, Set<string>>();
  const headless = new Set(routes.filter((row) => row.method === 'GET' && row.head === false).map((row) => row.path));
  for (const row of routes) {
    const methods = methodsByPath.get(row.path) ?? new Set<string>();
    methods.add(row.method);
    // Express answers HEAD with the GET's handler, unless the path refuses it first.
    if (row.method === 'GET' && !headless.has(row.path)) methods.add('HEAD');
    methodsByPath.set(row.path, methods);
  }
  for (const path of headless) {
    const refuse = methodNotAllowed([...methodsByPath.get(path)!].join(', '));
    add(path, (router) => router.head(path, refuse));
  }
  for (const row of routes) {
    const handlers = row.body ? [readBody, handlerFor(row)] : [handlerFor(row)];
    add(row.path, (router) => router[row.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete'](row.path, ...handlers));
  }
  for (const [path, methods] of methodsByPath) {
    const refuse = methodNotAllowed([...methods].join(', '));
    add(path, (router) => router.all(path, refuse));
  }

  // The router for a set of shapes (a bit each) of one group, made when first needed.
  const routerFor = (group: Group, matching: number): Router => {
    let router = group.routers.get(matching);
    if (!router) {
      router = Router({ caseSensitive: true, strict: false });
      for (const { shape, mount } of group.mounts) if (matching & (1 << shape)) mount(router);
      group.routers.set(matching, router);
    }
    return router;
  };

  return (req, res, next) => {
    // Express matches the path with at most one trailing slash (strict: false), case-sensitively.
    const path = req.path;
    const segments = (path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path).split('/');
    const group = groups.get(segments.length - 1);
    if (!group) return next();
    let matching = 0;
    for (let i = 0; i < group.shapes.length; i++) {
      const literals = group.shapes[i]!.literals;
      let fits = true;
      for (let j = 0; j < literals.length; j++) {
        const literal = literals[j];
        const segment = segments[j + 1]!;
        // A parameter takes any segment but an empty one.
        if (literal === undefined ? segment === '' : literal !== segment) {
          fits = false;
          break;
        }
      }
      if (fits) matching |= 1 << i;
    }
    if (matching === 0) return next();
    routerFor(group, matching)(req, res, next);
  };
}
