import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTracing, type Tracing } from '../../src/app/tracing.ts';
import { type JobQueue, startJobQueue } from '../../src/db/job-queue.ts';
import { createWebhookDeliveries, type WebhookDeliveries } from '../../src/features/permanent-scan/webhook-delivery.ts';
import { activeTraceIds, inSpan, tracingEnabled } from '../../src/kernel/tracing.ts';
import { dnsEgressPolicy } from '../../src/scanner/address-policy.ts';
import { API, createClient } from '../support/fixtures.ts';
import { type OtlpReceiver, SPAN_KIND, startOtlpReceiver } from '../support/otlp-receiver.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { until } from '../support/until.ts';

/**
 * A webhook delivery, traced: the delivery carries `traceparent` to the receiver, and the trace
 * goes from the code that queued the event through the job queue (pg-boss's send and process
 * spans) to the delivery's own span, whose id the receiver is given.
 */

let otlp: OtlpReceiver;
let tracing: Tracing | undefined;
let service: TestService;
let queue: JobQueue;
let webhooks: WebhookDeliveries;
let hookServer: Server;
let hookUrl: string;
const delivered: { headers: IncomingHttpHeaders; body: string }[] = [];

beforeAll(async () => {
  otlp = await startOtlpReceiver();
  // In this process, as the service does at its start: before the job queue, which asks whether tracing is on.
  tracing = await startTracing({ tracesUrl: `${otlp.endpoint}/v1/traces`, serviceName: 'webhook-tracing-test', sampler: 'parentbased_always_on', samplerRatio: 1, exportDelayMs: 100 });
  hookServer = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      delivered.push({ headers: req.headers, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => hookServer.listen(0, '127.0.0.1', resolve));
  hookUrl = `http://127.0.0.1:${(hookServer.address() as AddressInfo).port}/hooks/traced`;
  // Its own background work stays off: this file's queue delivers.
  service = await startTestService({ scanWorker: false });
  queue = await startJobQueue({ url: service.database.url, onError: () => {} });
  webhooks = createWebhookDeliveries(async () => queue, { orm: service.database.orm, policy: dnsEgressPolicy({ allowPrivate: true }), retryDelaySeconds: 1 });
}, 120_000);

afterAll(async () => {
  await queue?.stop(5_000);
  await service?.close();
  await tracing?.stop();
  await otlp?.close();
  await new Promise((resolve) => hookServer?.close(resolve));
});

describe('a webhook delivery', () => {
  it('carries the traceparent of its span, in the trace of the code that queued it', { timeout: 60_000 }, async () => {
    expect(tracingEnabled()).toBe(true);
    const client = await createClient(service);
    expect((await service.rest('PUT', `${API}/${client.id}/webhook`, { url: hookUrl })).status).toBe(200);

    const sender = await inSpan('queue a test event', {}, async () => {
      await webhooks.send(client.id, { id: 'evt-traced', type: 'test.traced', occurredAt: new Date().toISOString(), data: {} });
      return activeTraceIds()!;
    });
    await webhooks.work();
    const delivery = await until('the delivery', async () => delivered.find((entry) => entry.body.includes('evt-traced')));

    const header = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec(String(delivery.headers.traceparent));
    expect(header, String(delivery.headers.traceparent)).not.toBeNull();
    const [, traceId, parentId] = header!;
    expect(traceId).toBe(sender.trace_id);

    const spans = await until('the delivery span', async () => {
      const found = otlp.spans.filter((span) => span.traceId === traceId);
      return found.some((span) => span.spanId === parentId) && found.some((span) => span.kind === SPAN_KIND.producer) ? found : undefined;
    });
    const deliverySpan = spans.find((span) => span.spanId === parentId)!;
    expect(deliverySpan).toMatchObject({
      name: 'webhook delivery',
      kind: SPAN_KIND.client,
      attributes: { 'http.request.method': 'POST', 'server.address': '127.0.0.1', 'http.response.status_code': 204, 'webhook.event_type': 'test.traced', 'webhook.event_id': 'evt-traced' },
    });
    // The job queue's own spans: the delivery runs in pg-boss's `process` span, which continues its `send`, which the sender's span holds.
    const processing = spans.find((span) => span.spanId === deliverySpan.parentSpanId)!;
    expect(processing).toMatchObject({ name: 'process webhook-delivery', kind: SPAN_KIND.consumer, scope: 'pg-boss' });
    const sending = spans.find((span) => span.spanId === processing.parentSpanId)!;
    expect(sending).toMatchObject({ name: 'send webhook-delivery', kind: SPAN_KIND.producer, parentSpanId: sender.span_id });
    // The statement that read the webhook is the job's.
    expect(spans.some((span) => span.attributes['db.collection.name'] === 'webhook' && span.parentSpanId === processing.spanId)).toBe(true);
    expect(webhooks.outcomes).toMatchObject({ delivered: 1, failed: 0 });
  });
});
