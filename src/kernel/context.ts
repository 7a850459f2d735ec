import type { EntityManager } from '@mikro-orm/postgresql';
import type { Loaders } from '../db/loaders.ts';
import type { KeyRing } from '../features/api-keys/key-ring.ts';
import type { ScanGate } from '../features/onboarding/scan-gate.ts';
import type { Scanner } from '../scanner/scan.ts';

/**
 * Who is asking: the administrator (every client) or a client (its own paths only), by the key
 * it presented (`keyId`: a client key may revoke the keys it created).
 */
export type Caller = { kind: 'admin' } | { kind: 'client'; clientId: string; keyId: string };

/** What the service holds for its whole life and operations may use. */
export type AppServices = {
  scanner: Scanner;
  scanGate: ScanGate;
  keys: KeyRing;
  /** Where the service is reachable from the outside (code snippets point here). */
  publicBaseUrl: string;
};

/**
 * What every operation receives: the request's own unit of work, its caller and the
 * service's long-lived parts. Built once per HTTP request, shared by the REST adapter and GraphQL.
 */
export type RequestContext = {
  em: EntityManager;
  /** Batching of list loads within the request (see db/loaders.ts). */
  loaders: Loaders;
  caller: Caller;
  requestId: string;
  services: AppServices;
};

/** A client key reaches only its own client; everything else is "not found" to it. */
export const canReachClient = (caller: Caller, clientId: string): boolean =>
  caller.kind === 'admin' || caller.clientId === clientId;

export const isAdmin = (caller: Caller): boolean => caller.kind === 'admin';
