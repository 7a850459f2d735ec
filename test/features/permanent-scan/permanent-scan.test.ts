import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dnsEgressPolicy } from '../../../src/scanner/address-policy.ts';
import { createSharedBrowser } from '../../../src/scanner/browser.ts';
import { createScanner, DEFAULT_SCAN_LIMITS } from '../../../src/scanner/scan.ts';
import { API, createClient, embeddingPayload, unknownId } from '../../support/fixtures.ts';
import { startTestService, type TestService } from '../../support/service.ts';
import { until } from '../../support/until.ts';

/**
 * The permanent scan: a domain with permanentScanEnabled is scanned again on a schedule; a cookie,
 * storage key or service that appears and no embedding declares becomes a finding, which the
 * client's webhook hears about (signed as Standard Webhooks, tried again until it answers 2xx).
 */

const INTERVAL_MS = 1_500;

let service: TestService;
let site: Server;
let siteUrl: string;
/** Cookies the site sets besides the one its embedding declares. */
let extraCookies: string[] = [];

let receiver: Server;
let receiverUrl: string;
type Delivery = { headers: IncomingHttpHeaders; body: string; answered: number };
const deliveries: Delivery[] = [];
/** How the receiver answers, try by try (then 204). */
let answers: number[] = [];

const listen = (server: Server) =>
  new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));

beforeAll(async () => {
  site = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'set-cookie': ['site_session=1; Path=/', ...extraCookies.map((name) => `${name}=1; Path=/`)] });
    res.end('<!doctype html><html lang="en"><head><title>Watched</title></head><body><h1>Watched site</h1></body></html>');
  });
  siteUrl = `${await listen(site)}/`;
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const answered = answers.shift() ?? 204;
      deliveries.push({ headers: req.headers, body, answered });
      res.writeHead(answered).end();
    });
  });
  receiverUrl = `${await listen(receiver)}/hooks/consent`;
  // Loopback sites and receivers are allowed here, as SCAN_ALLOW_PRIVATE_ADDRESSES allows them in development.
  const loopback = dnsEgressPolicy({ allowPrivate: true });
  service = await startTestService({
    scanner: createScanner({ browser: createSharedBrowser(), policy: loopback, limits: { ...DEFAULT_SCAN_LIMITS, pageLimit: 1 } }),
    permanentScan: { intervalMs: INTERVAL_MS, sweepEveryMs: 200 },
    webhookPolicy: loopback,
  });
}, 120_000);

afterAll(async () => {
  await service?.close();
  await new Promise((resolve) => site?.close(resolve));
  await new Promise((resolve) => receiver?.close(resolve));
});

type Scan = { id: string; trigger: string; status: string; requestedAt: string };

async function scheduledScans(base: string): Promise<Scan[]> {
  const answer = await service.rest('GET', `${base}/scan?limit=100`);
  expect(answer.status, answer.text).toBe(200);
  return (answer.body.scans as Scan[]).filter((scan) => scan.trigger === 'schedule');
}

/** Waits until `count` scheduled scans of the domain have succeeded; the newest of them. */
async function untilScheduledScans(base: string, count: number): Promise<Scan> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const succeeded = (await scheduledScans(base)).filter((scan) => scan.status === 'succeeded');
    if (succeeded.length >= count) return succeeded[0]!;
    if (Date.now() > deadline) throw new Error(`fewer than ${count} scheduled scans succeeded: ${JSON.stringify(await scheduledScans(base))}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('the permanent scan', () => {
  it('scans on a schedule, records a newly added cookie no embedding declares, and tells the webhook (signed, retried)', async () => {
    const client = await createClient(service);
    const domainAnswer = await service.rest('POST', `${API}/${client.id}/domain`, { name: siteUrl });
    expect(domainAnswer.status, domainAnswer.text).toBe(201);
    const base = `${API}/${client.id}/domain/${domainAnswer.body.id}`;
    const declared = await service.rest('POST', `${base}/embedding`, embeddingPayload({ name: 'Site', assets: [{ name: 'site_session', lifetime: 'session' }] }));
    expect(declared.status, declared.text).toBe(201);
    const hook = await service.rest('PUT', `${API}/${client.id}/webhook`, { url: receiverUrl });
    expect(hook.status, hook.text).toBe(200);
    expect(hook.headers.get('cache-control')).toContain('no-store');
    const secret: string = hook.body.secret;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);

    // Not watched yet: nothing is scheduled.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await scheduledScans(base)).toEqual([]);

    expect((await service.rest('PUT', base, { permanentScanEnabled: true })).status).toBe(200);
    await untilScheduledScans(base, 1);
    // Everything the site sets is declared: no findings, no deliveries.
    expect((await service.rest('GET', `${base}/finding`)).body).toEqual([]);
    expect(deliveries).toEqual([]);

    // The site starts setting a tracker; the receiver fails the first try.
    answers = [500];
    extraCookies = ['new_tracker'];
    const findings = await until('a finding', async () => {
      const answer = await service.rest('GET', `${base}/finding`);
      return answer.body.length > 0 ? answer.body : undefined;
    });
    expect(findings).toEqual([
      expect.objectContaining({ domainId: domainAnswer.body.id, kind: 'cookie', name: 'new_tracker', timesSeen: 1, detail: { cookie: expect.objectContaining({ name: 'new_tracker', party: 'first' }) } }),
    ]);
    expect(findings[0].firstScanId).toBe(findings[0].lastScanId);

    const delivered = await until('a delivery answered 2xx', async () => (deliveries.some((d) => d.answered < 300) ? deliveries : undefined));
    expect(delivered.map((delivery) => delivery.answered)).toEqual([500, 204]);
    // One event, tried twice: the same id, each try signed afresh and verifiable by a Standard Webhooks library.
    expect(new Set(delivered.map((delivery) => delivery.headers['webhook-id'])).size).toBe(1);
    const verifier = new StandardWebhook(secret);
    const event = verifier.verify(delivered[1]!.body, delivered[1]!.headers as Record<string, string>) as {
      type: string;
      data: { clientId: string; domainId: string; scanId: string; url: string; findings: { name: string; kind: string }[] };
    };
    expect(event.type).toBe('scan.findings');
    expect(event.data).toMatchObject({ clientId: client.id, domainId: domainAnswer.body.id, scanId: findings[0].firstScanId, url: siteUrl });
    expect(event.data.findings.map((finding) => [finding.kind, finding.name])).toEqual([['cookie', 'new_tracker']]);
    expect(() => new StandardWebhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(delivered[1]!.body, delivered[1]!.headers as Record<string, string>)).toThrow();

    // Found again by a later scheduled scan: seen once more, and the webhook hears nothing new. A scan's
    // findings are recorded after it has succeeded, so the scan list alone does not say when to look.
    const again = await until('the finding seen by a later scan', async () => {
      const answer = await service.rest('GET', `${base}/finding`);
      return answer.body.some((finding: { timesSeen: number }) => finding.timesSeen >= 2) ? answer.body : undefined;
    });
    expect(again).toHaveLength(1);
    expect(again[0].timesSeen).toBeGreaterThanOrEqual(2);
    expect(again[0].lastScanId).not.toBe(again[0].firstScanId);
    expect(new Set(deliveries.map((delivery) => delivery.headers['webhook-id'])).size).toBe(1);

    // Dismissed, it is gone; turned off, the domain is no longer scanned.
    expect((await service.rest('DELETE', `${base}/finding/${again[0].id}`)).status).toBe(204);
    expect((await service.rest('DELETE', `${base}/finding/${again[0].id}`)).status).toBe(404);
    expect((await service.rest('PUT', base, { permanentScanEnabled: false })).status).toBe(200);
    // A sweep that read the domain just before the change may still queue one scan; let it pass.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await until('no scan queued or running', async () => ((await scheduledScans(base)).every((scan) => scan.status !== 'queued' && scan.status !== 'running') ? true : undefined));
    const settled = (await scheduledScans(base)).length;
    await new Promise((resolve) => setTimeout(resolve, INTERVAL_MS * 2));
    expect((await scheduledScans(base)).length).toBe(settled);
  }, 180_000);
});

describe('the webhook', () => {
  it('is read without its secret, keeps its secret when its address changes, rotates it when asked, and is removed', async () => {
    const client = await createClient(service);
    const path = `${API}/${client.id}/webhook`;
    expect((await service.rest('GET', path)).status).toBe(404);
    const made = await service.rest('PUT', path, { url: 'https://hooks.example.org/a' });
    expect(made.body).toMatchObject({ url: 'https://hooks.example.org/a', secret: expect.stringMatching(/^whsec_/) });
    expect(made.body.secretHint).toBe(`${made.body.secret.slice(0, 10)}…`);
    const read = await service.rest('GET', path);
    expect(read.body).not.toHaveProperty('secret');
    expect(read.body.secretHint).toBe(made.body.secretHint);
    const moved = await service.rest('PUT', path, { url: 'https://hooks.example.org/b' });
    expect(moved.body).not.toHaveProperty('secret');
    expect(moved.body).toMatchObject({ url: 'https://hooks.example.org/b', secretHint: made.body.secretHint });
    const rotated = await service.rest('PUT', path, { url: 'https://hooks.example.org/b', rotateSecret: true });
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(made.body.secret);
    expect((await service.rest('PUT', path, { url: 'ftp://hooks.example.org/' })).status).toBe(400);
    expect((await service.rest('PUT', path, {})).status).toBe(400);
    expect((await service.rest('DELETE', path)).status).toBe(204);
    expect((await service.rest('DELETE', path)).status).toBe(404);
    expect((await service.rest('PUT', `${API}/${unknownId()}/webhook`, { url: 'https://hooks.example.org/a' })).status).toBe(404);
  });

  it('is set and read over GraphQL, and the findings are there too', async () => {
    const client = await createClient(service);
    const set = await service.graphql(
      `mutation($clientId: ID!) { setWebhook(clientId: $clientId, input: { url: "https://hooks.example.org/g" }) { url secret secretHint } }`,
      { clientId: client.id },
    );
    expect(set.errors).toBeUndefined();
    expect(set.data.setWebhook).toMatchObject({ url: 'https://hooks.example.org/g', secret: expect.stringMatching(/^whsec_/) });
    const read = await service.graphql(`query($id: ID!) { client(id: $id) { webhook { url secret secretHint } } }`, { id: client.id });
    expect(read.data.client.webhook).toEqual({ url: 'https://hooks.example.org/g', secret: null, secretHint: set.data.setWebhook.secretHint });
    const bad = await service.graphql(`mutation($clientId: ID!) { setWebhook(clientId: $clientId, input: { url: "not a url" }) { url } }`, { clientId: client.id });
    expect(bad.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    const removed = await service.graphql(`mutation($clientId: ID!) { deleteWebhook(clientId: $clientId) }`, { clientId: client.id });
    expect(removed.data.deleteWebhook).toBe(client.id);
    const gone = await service.graphql(`query($id: ID!) { client(id: $id) { webhook { url } } }`, { id: client.id });
    expect(gone.data.client.webhook).toBeNull();
  });
});
