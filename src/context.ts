import type { EntityManager } from '@mikro-orm/postgresql';

/** Who is asking. Every caller is the administrator until API keys arrive (issue 4). */
export type Caller = { kind: 'admin' } | { kind: 'client'; clientId: string };

/**
 * What every operation receives: the request's own unit of work and its caller.
 * Built once per HTTP request, shared by the REST adapter and GraphQL.
 */
export type RequestContext = {
  em: EntityManager;
  caller: Caller;
  requestId: string;
};

/** A client key reaches only its own client; everything else is "not found" to it. */
export const canReachClient = (caller: Caller, clientId: string): boolean =>
  caller.kind === 'admin' || caller.clientId === clientId;
