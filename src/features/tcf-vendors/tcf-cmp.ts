import type { RequestContext } from '../../kernel/context.ts';
import { invalidPayload } from '../../kernel/contract/validate.ts';

/**
 * The Consent Management Platform the banner's TC strings name. IAB Europe registers a CMP and
 * gives it its id (2..4095; `@iabtechlabtcf/core` refuses 0 and 1). Outside production a service
 * without TCF_CMP_ID uses DEVELOPMENT_CMP_ID, a placeholder no vendor accepts as a registered CMP;
 * in production it has none, and a write that turns `tcfEnabled` on is refused.
 */
export type TcfCmp = {
  /** null: none (production without TCF_CMP_ID): no banner carries TCF. */
  id: number | null;
  version: number;
};

/** The largest id a TC string holds (12 bits): a placeholder, never a registered CMP's. */
export const DEVELOPMENT_CMP_ID = 4095;

export function tcfCmpOf(settings: { id?: number; version?: number; production?: boolean } = {}): TcfCmp {
  return { id: settings.id ?? (settings.production ? null : DEVELOPMENT_CMP_ID), version: settings.version ?? 1 };
}

/** Refuses (400, naming `tcfEnabled`) a write that turns TCF on while the service has no CMP id. */
export function assertTcfPossible(ctx: RequestContext, turnsOn: boolean): void {
  if (!turnsOn || ctx.services.tcfCmp.id !== null) return;
  throw invalidPayload([
    {
      path: '/tcfEnabled',
      message:
        'cannot be turned on: the service has no TCF CMP id (the operator must set TCF_CMP_ID to the id IAB Europe registered for this CMP)',
    },
  ]);
}
