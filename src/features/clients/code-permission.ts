import { isAdmin, type RequestContext } from '../../kernel/context.ts';
import { forbidden } from '../../kernel/errors.ts';
import { type CodeFeature, FEATURE_DEFAULTS } from './client.contract.ts';
import { requireClient } from './client.access.ts';

/** A field holding code that runs in visitors' browsers, as a write sends it, and the switch that lets a client key set it. */
export type CodeField = { field: string; feature: CodeFeature; sent: string | undefined };

/**
 * Refuses (403) a client key's write that sets or changes code its client's switch does not allow
 * (CODE_FEATURES). Sending the value the object already has is no change, so reading an object and
 * writing it back works for every client. `current` reads the object's values of the fields
 * (undefined: no such object, the operation answers that itself); it runs only when a switch is off.
 * The administrator may always.
 */
export async function assertMayChangeCode(
  ctx: RequestContext,
  clientId: string,
  fields: readonly CodeField[],
  current: () => Promise<Record<string, unknown> | undefined>,
): Promise<void> {
  if (isAdmin(ctx.caller)) return;
  const sent = fields.filter((field) => field.sent !== undefined);
  if (sent.length === 0) return;
  const client = await requireClient(ctx, clientId);
  const locked = sent.filter(({ feature }) => !(client.features[feature] ?? FEATURE_DEFAULTS[feature]));
  if (locked.length === 0) return;
  const values = await current();
  if (values === undefined) return;
  const changed = locked.filter(({ field, sent: value }) => values[field] !== value);
  if (changed.length === 0) return;
  throw forbidden(
    changed
      .map(({ field, feature }) => `changing ${field} (code that runs on every visitor's page) needs the client's feature ${feature}, which only the administrator turns on`)
      .join('; '),
  );
}
