import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { PgBoss } from 'pg-boss';
import type { JobQueue } from '../../db/job-queue.ts';
import { newId } from '../../kernel/ids.ts';
import { inSpan, outgoingTraceHeaders } from '../../kernel/tracing.ts';
import type { EgressPolicy } from '../../scanner/address-policy.ts';
import { signatureHeaders } from './webhook-signature.ts';

/**
 * Deliveries of webhook events, on the service's job queue: a failed delivery (no answer, an
 * answer other than 2xx) is tried again with a growing delay (pg-boss's backoff), up to
 * `RETRIES` times, with the same `webhook-id`. Deliveries go only to public addresses (the same
 * check scans use), connecting to exactly the address that was checked.
 */
export type WebhookDeliveries = {
  /** Queues the event for the client's webhook (nothing happens if it has none when it is sent). */
  send(clientId: string, event: WebhookEvent): Promise<void>;
  /** Delivers queued events from this process. */
  work(): Promise<void>;
  /** How this process's deliveries ended, for the metrics (read when they are scraped). */
  outcomes: Record<WebhookOutcome, number>;
};

/**
 * `delivered`: answered 2xx; `failed`: another answer or none (tried again); `refused`: an address
 * deliveries may not reach (not tried again); `no_webhook`: the client's webhook was removed since.
 */
export type WebhookOutcome = 'delivered' | 'failed' | 'refused' | 'no_webhook';

export type WebhookEvent = { id: string; type: string; occurredAt: string; data: unknown };

/**
 * Queues a new event of `type` for the webhook of the client that owns the domain; nothing if it
 * has none (the owner and its webhook read in one statement). `data` is made for the client's id.
 */
export async function sendToDomainOwner(
  em: EntityManager,
  webhooks: WebhookDeliveries,
  domainId: string,
  type: string,
  data: (clientId: string) => Record<string, unknown>,
): Promise<void> {
  const [owner] = await em.execute<{ client_id: string; has_webhook: boolean }[]>(
    `select d."client_id", exists (select 1 from "webhook" w where w."client_id" = d."client_id") as "has_webhook" from "domain" d where d."id" = ?`,
    [domainId],
  );
  if (!owner?.has_webhook) return;
  await webhooks.send(owner.client_id, { id: newId(), type, occurredAt: new Date().toISOString(), data: data(owner.client_id) });
}

const QUEUE = 'webhook-delivery';
const RETRIES = 10;
const TIMEOUT_MS = 10_000;

type DeliveryMessage = { clientId: string; event: WebhookEvent };

export function createWebhookDeliveries(
  jobs: () => Promise<JobQueue>,
  { orm, policy, retryDelaySeconds = 10, onRefused = () => {} }: {
    orm: MikroORM;
    policy: EgressPolicy;
    /** The first retry's delay; each next one about doubles (at most an hour). */
    retryDelaySeconds?: number;
    /** A delivery to an address deliveries may not reach (not tried again). */
    onRefused?: (clientId: string, reason: string) => void;
  },
): WebhookDeliveries {
  let ready: Promise<PgBoss> | undefined;
  const boss = () =>
    (ready ??= (async () => {
      const { boss } = await jobs();
      await boss.createQueue(QUEUE, { retryLimit: RETRIES, retryDelay: retryDelaySeconds, retryBackoff: true, retryDelayMax: 3600, expireInSeconds: 60 });
      return boss;
    })());

  const outcomes: Record<WebhookOutcome, number> = { delivered: 0, failed: 0, refused: 0, no_webhook: 0 };

  async function deliver({ clientId, event }: DeliveryMessage): Promise<void> {
    const [webhook] = await orm.em.fork().execute<{ url: string; secret: string }[]>(`select "url", "secret" from "webhook" where "client_id" = ?`, [clientId]);
    if (!webhook) {
      outcomes.no_webhook++;
      return; // removed since: nobody to tell
    }
    const body = JSON.stringify(event);
    const target = new URL(webhook.url);
    // The span of the POST; its context goes along as `traceparent`. The address's path and query are left out: they may hold a token.
    await inSpan(
      'webhook delivery',
      {
        kind: 'client',
        attributes: { 'http.request.method': 'POST', 'server.address': target.hostname, 'server.port': Number(target.port) || undefined, 'webhook.event_type': event.type, 'webhook.event_id': event.id, 'webhook.client_id': clientId },
      },
      async (span) => {
        const headers = {
          'content-type': 'application/json',
          'user-agent': 'consent-domain-config-webhooks',
          ...signatureHeaders(webhook.secret, event.id, Math.floor(Date.now() / 1000), body),
          ...outgoingTraceHeaders(),
        };
        const status = await post(webhook.url, headers, body, policy).catch((error: unknown) => {
          if (error instanceof RefusedAddress) {
            outcomes.refused++;
            onRefused(clientId, error.message);
            span.setAttributes({ 'webhook.outcome': 'refused' });
            return 'refused' as const;
          }
          outcomes.failed++;
          throw error;
        });
        if (status === 'refused') return;
        span.setAttributes({ 'http.response.status_code': status });
        if (status < 200 || status >= 300) {
          outcomes.failed++;
          throw new Error(`the webhook ${webhook.url} answered ${status}`);
        }
        outcomes.delivered++;
      },
    );
  }

  return {
    async send(clientId, event) {
      await (await boss()).send(QUEUE, { clientId, event } satisfies DeliveryMessage);
    },
    async work() {
      await (await boss()).work<DeliveryMessage>(QUEUE, { pollingIntervalSeconds: 0.5, localConcurrency: 2 }, async ([job]) => deliver(job!.data));
    },
    outcomes,
  };
}

class RefusedAddress extends Error {}

/** POSTs `body` to the address the policy decided on (IP literals included); resolves with the answer's status. */
async function post(url: string, headers: Record<string, string>, body: string, policy: EgressPolicy): Promise<number> {
  const target = new URL(url);
  const port = Number(target.port || (target.protocol === 'https:' ? 443 : 80));
  const decision = await policy(target.hostname, port);
  if ('refused' in decision) throw new RefusedAddress(decision.refused);
  // The connection goes to the address just checked, never to a second DNS answer.
  const family = isIP(decision.address);
  const lookup: LookupFunction = (_hostname, options, callback) => {
    if (options.all) (callback as unknown as (error: null, addresses: { address: string; family: number }[]) => void)(null, [{ address: decision.address, family }]);
    else callback(null, decision.address, family);
  };
  const request = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const outgoing = request(target, { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, lookup, timeout: TIMEOUT_MS }, (answer) => {
      answer.resume();
      answer.once('end', () => resolve(answer.statusCode ?? 0));
      answer.once('error', reject);
    });
    outgoing.once('timeout', () => outgoing.destroy(new Error(`no answer from ${target.host} within ${TIMEOUT_MS / 1000} s`)));
    outgoing.once('error', reject);
    outgoing.end(body);
  });
}
