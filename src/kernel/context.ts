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

/** A request's context: a fork of the EntityManager (its own identity map and unit of work). */
export function createRequestContext(orm: MikroORM, services: AppServices, caller: Caller, requestId: string): RequestContext {
  return { em: orm.em.fork(), caller, requestId, services, scoped: new Map() };
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
