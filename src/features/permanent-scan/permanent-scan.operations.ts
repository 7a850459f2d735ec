import type { RequestContext } from '../../kernel/context.ts';
import type { ClientScope, DomainScope } from '../../kernel/access.ts';
import { notFound } from '../../kernel/errors.ts';
import { isId } from '../../kernel/ids.ts';
import { requireClient } from '../clients/client.access.ts';
import { readDomain } from '../domains/domain.access.ts';
import type { ScanFinding } from './scan-finding.contract.ts';
import { dismissFinding, findingsOf } from './scan-findings.ts';
import type { Webhook, WebhookInput } from './webhook.contract.ts';
import { newWebhookSecret } from './webhook-signature.ts';

export async function listFindings(ctx: RequestContext, scope: DomainScope): Promise<ScanFinding[]> {
  const domain = await readDomain(ctx, scope);
  return findingsOf(ctx.em, domain.id);
}

/** Dismisses a finding: the operator has dealt with it (a later scan that finds it again records it anew). */
export async function dismissScanFinding(ctx: RequestContext, scope: DomainScope, findingId: string): Promise<void> {
  const domain = await readDomain(ctx, scope);
  if (!isId(findingId) || !(await dismissFinding(ctx.em, domain.id, findingId))) throw notFound(`finding ${findingId}`);
}

type WebhookRecord = { url: string; secret: string; created_at: Date | string; updated_at: Date | string };

const toWebhook = (row: WebhookRecord, showSecret: boolean): Webhook => ({
  url: row.url,
  ...(showSecret && { secret: row.secret }),
  secretHint: `${row.secret.slice(0, 'whsec_'.length + 4)}…`,
  createdAt: new Date(row.created_at).toISOString(),
  updatedAt: new Date(row.updated_at).toISOString(),
});

export async function getWebhook(ctx: RequestContext, scope: ClientScope): Promise<Webhook> {
  await requireClient(ctx, scope.clientId);
  const [row] = await ctx.em.execute<WebhookRecord[]>(`select "url", "secret", "created_at", "updated_at" from "webhook" where "client_id" = ?`, [scope.clientId]);
  if (!row) throw notFound(`webhook of client ${scope.clientId}`);
  return toWebhook(row, false);
}

/** Sets where the client's webhook deliveries go; a new webhook (or `rotateSecret`) gets a new secret, answered this once. */
export async function setWebhook(ctx: RequestContext, scope: ClientScope, input: WebhookInput): Promise<Webhook> {
  await requireClient(ctx, scope.clientId);
  const secret = newWebhookSecret();
  const [row] = await ctx.em.execute<(WebhookRecord & { made_secret: boolean })[]>(
    `insert into "webhook" ("client_id", "url", "secret", "created_at", "updated_at") values (?, ?, ?, clock_timestamp(), clock_timestamp()) ` +
      `on conflict ("client_id") do update set "url" = excluded."url", "updated_at" = clock_timestamp()` +
      (input.rotateSecret ? `, "secret" = excluded."secret"` : '') +
      ` returning "url", "secret", "created_at", "updated_at", "secret" = ? as "made_secret"`,
    [scope.clientId, input.url, secret, secret],
  );
  return toWebhook(row!, row!.made_secret);
}

export async function deleteWebhook(ctx: RequestContext, scope: ClientScope): Promise<void> {
  await requireClient(ctx, scope.clientId);
  const rows = await ctx.em.execute<{ client_id: string }[]>(`delete from "webhook" where "client_id" = ? returning "client_id"`, [scope.clientId]);
  if (rows.length === 0) throw notFound(`webhook of client ${scope.clientId}`);
}
