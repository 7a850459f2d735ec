import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';

/**
 * Who is asking: the administrator (every client) or a client (its own paths only), by the key
 * it presented (`keyId`: a client key may revoke the keys it created). `keyName` names the key
 * (or the command line) in what the caller's writes leave behind, such as configuration revisions;
 * the administrator key from the settings has no id.
 */
export type Caller = ({ kind: 'admin'; keyId?: string } | { kind: 'client'; clientId: string; keyId: string }) & { keyName?: string };

/**
 * What the service holds for its whole life and operations may use. Each feature that needs a
 * long-lived part declares it here, from its own folder, by declaration merging:
 *
 *     declare module '../../kernel/context.ts' { interface AppServices { scanner: Scanner } }
 *
 * and src/app/services.ts, which builds them, must then provide it (the type checker says so).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by the features
export interface AppServices {}

/**
 * What every operation receives: the request's own unit of work, its caller and the service's
 * long-lived parts. Built once per request (createRequestContext), the same for REST, GraphQL
 * and the command line.
 */
export type RequestContext = {
  em: EntityManager;
  caller: Caller;
  requestId: string;
  services: AppServices;
  /** Values that live as long as the request (batching loaders: see `perRequest`). */
  scoped: Map<unknown, unknown>;
};

/** The EntityManager a context forks its own from, kept until then (see `readingEm`). */
const ROOT_EM = Symbol('root EntityManager');
/** The context's own fork, once made. */
const FORKED_EM = Symbol('forked EntityManager');
type LazyContext = RequestContext & { [ROOT_EM]: EntityManager; [FORKED_EM]?: EntityManager };

/**
 * A request's context: a fork of the EntityManager (its own identity map and unit of work), made
 * when `em` is first used. Forking costs MikroORM 7 a new unit of work and two writes to
 * process.env (its colours setting, set and restored): 3-4 % of a single read's CPU, for a read
 * that only sends one statement (`readingEm`).
 */
export function createRequestContext(orm: MikroORM, services: AppServices, caller: Caller, requestId: string): RequestContext {
  const ctx: LazyContext = {
    get em() {
      return (this[FORKED_EM] ??= this[ROOT_EM].fork());
    },
    caller,
    requestId,
    services,
    scoped: new Map(),
    [ROOT_EM]: orm.em,
  };
  return ctx;
}

/**
 * The EntityManager for a read that only sends statements (the hot reads of read-model.ts): the
 * context's own if it has one (a fork made, or a transaction's, `{ ...ctx, em }`), else the one
 * it would fork from, which serves statements alike without a unit of work of its own.
 */
export function readingEm(ctx: RequestContext): EntityManager {
  const own = Object.getOwnPropertyDescriptor(ctx, 'em');
  if (own && 'value' in own) return own.value as EntityManager;
  const lazy = ctx as LazyContext;
  return lazy[FORKED_EM] ?? lazy[ROOT_EM] ?? ctx.em;
}

/**
 * One value per request, built on first use: `const loader = perRequest((ctx) => new DataLoader(…))`
 * then `loader(ctx).load(id)`. A context copied with `{ ...ctx, em }` shares its values.
 */
export function perRequest<T>(build: (ctx: RequestContext) => T): (ctx: RequestContext) => T {
  return (ctx) => {
    if (!ctx.scoped.has(build)) ctx.scoped.set(build, build(ctx));
    return ctx.scoped.get(build) as T;
  };
}

/**
 * The domains the request has reached for a write (`reachDomain`): a write transaction locks them
 * before its work, so the writes of one domain queue in one order (db/transaction.ts).
 */
export const domainsReached = perRequest(() => new Set<string>());

/** Forgets what the request has read and kept (after a write that removes much, such as a whole client). */
export function forgetRequestReads(ctx: RequestContext): void {
  ctx.scoped.clear();
}

/** A client key reaches only its own client; everything else is "not found" to it. */
export const canReachClient = (caller: Caller, clientId: string): boolean =>
  caller.kind === 'admin' || caller.clientId === clientId;

export const isAdmin = (caller: Caller): boolean => caller.kind === 'admin';
