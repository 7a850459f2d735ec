import type { z } from 'zod';
import type { RequestContext } from '../kernel/context.ts';

/**
 * What a feature brings to the service: its stored entities, its REST rows (the REST adapter's
 * table is every feature's rows, in registry order) and the OpenAPI texts of its tags and path
 * parameters. Its GraphQL types and fields register themselves with the schema builder when
 * the feature's index module is loaded. Every feature is listed once, in features/index.ts.
 */
export type Feature = {
  name: string;
  /** `defineEntity(...)` results; the ORM knows every feature's. */
  entities?: readonly unknown[];
  routes?: readonly RestRoute[];
  /** OpenAPI tags of the rows (`RestRoute.tag`), with what they group. */
  tags?: readonly { name: string; description: string }[];
  /** OpenAPI descriptions of the path parameters this feature introduces (`themeId`, …). */
  parameters?: Readonly<Record<string, string>>;
};

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Media types an answer may have besides JSON (the row's `produces`). */
export type RawMediaType = 'text/csv' | 'text/html';

/**
 * What an operation of a row with `produces` returns: a page (HTML) or a stream (CSV, sent as
 * it is produced, so a million rows never sit in memory). `filename`: sent as an attachment.
 */
export type RawAnswer = { body: string | AsyncIterable<string>; filename?: string };

/** `/a/:x/b/:y` → 'x' | 'y' */
type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;
type Params<P extends string> = { [K in ParamNames<P>]: string };

/**
 * One REST route: method, path, the operation it reaches (the same one GraphQL resolvers call),
 * the contract schema of its body and answer, the success status and the error statuses it
 * documents (SERVICE.md §3).
 */
export type RestRoute = {
  method: Method;
  path: string;
  /** The OpenAPI tag (one of the feature's `tags`). */
  tag: string;
  summary: string;
  /** The body's contract schema; routes without one take no body. */
  body?: z.ZodType;
  /**
   * The contract schema of the query parameters (an object of strings, coerced by the schema);
   * `apiKey` is the authentication's and never reaches it. Routes without one ignore the query.
   */
  query?: z.ZodType;
  /** The contract schema of what a 200/201 sends; 204 routes have none. */
  response?: z.ZodType;
  /** The answer is not JSON but this (the operation returns a `RawAnswer`). */
  produces?: RawMediaType;
  operation: (ctx: RequestContext, params: Record<string, string>, body: unknown, query: unknown) => Promise<unknown>;
  /** 200/201 send the result as JSON; 204 sends nothing. */
  status: 200 | 201 | 204;
  errors: number[];
  /** For a 201 that made one resource: its address, sent as `Location`. */
  location?: (params: Record<string, string>, created: unknown) => string;
  /** The answer carries a secret (a new API key): `Cache-Control: no-store`. */
  secret?: true;
  /** false: HEAD is refused (405) instead of running the whole GET (a scan) for its headers. */
  head?: false;
  /** The OpenAPI operation id, where the one derived from method and path would not say it well (src/openapi/document.ts). */
  operationId?: string;
};

/** A row, typed: the operation gets the path's parameters and the parsed body, and returns the response schema's type. */
export function route<
  P extends string,
  S extends z.ZodType | undefined = undefined,
  R extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
>(row: {
  method: Method;
  path: P;
  tag: string;
  summary: string;
  body?: S;
  query?: Q;
  response?: R;
  produces?: RawMediaType;
  operation: (
    ctx: RequestContext,
    params: Params<P>,
    body: S extends z.ZodType ? z.output<S> : undefined,
    query: Q extends z.ZodType ? z.output<Q> : undefined,
  ) => Promise<R extends z.ZodType ? z.output<R> : unknown>;
  status: 200 | 201 | 204;
  errors: number[];
  location?: (params: Params<P>, created: R extends z.ZodType ? z.output<R> : never) => string;
  secret?: true;
  head?: false;
  operationId?: string;
}): RestRoute {
  return row as unknown as RestRoute;
}

/** The paths of the hosting API that the features' rows extend. */
export const CLIENTS_PATH = '/hosting/api/client';
export const CLIENT_PATH = `${CLIENTS_PATH}/:clientId` as const;
export const DOMAIN_PATH = `${CLIENT_PATH}/domain/:domainId` as const;

/** The address of a domain, for `Location`. */
export const domainAddress = (p: { clientId: string; domainId: string }) => `${CLIENTS_PATH}/${p.clientId}/domain/${p.domainId}`;
