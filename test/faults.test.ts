import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedPostgres, startEmbeddedPostgres } from '../src/db/embedded.ts';
import { createDomain, type DomainPath } from './support/fixtures.ts';
import { freshTestDatabase } from './support/database.ts';
import { startTestService, type TestService } from './support/service.ts';
import { startTcpProxy, type TcpProxy } from './support/tcp-proxy.ts';

/** The database going away mid-service and coming back. */

let proxy: TcpProxy;
let service: TestService;
let embedded: EmbeddedPostgres | undefined;
let dropDatabase: () => Promise<void>;
let domain: DomainPath;

beforeAll(async () => {
  // The service reaches its database through a relay the test can cut: the PostgreSQL server
  // when DATABASE_URL is set, else an embedded PGlite served on loopback.
  const fresh = await freshTestDatabase();
  dropDatabase = fresh.drop;
  if (!fresh.databaseUrl) embedded = await startEmbeddedPostgres('memory://');
  const target = new URL(fresh.databaseUrl ?? embedded!.url);
  proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
  const viaProxy = new URL(target);
  viaProxy.host = `127.0.0.1:${proxy.port}`;
  service = await startTestService({ databaseUrl: viaProxy.toString(), poolSize: embedded ? 1 : 5 });
  domain = await createDomain(service);
  await service.rest('POST', `${domain.base}/placeholder`, { name: 'before', value: 'outage' });
});
afterAll(async () => {
  await service?.close();
  await proxy?.close();
  await embedded?.stop();
  await dropDatabase?.();
});

describe('the database going away', () => {
  it('answers 503 problem+json while it is gone (REST and GraphQL), quickly, and recovers without a restart', async () => {
    await proxy.cut();
    const started = Date.now();
    const read = await service.rest('GET', `${domain.base}/placeholder`);
    expect(read.status, read.text).toBe(503);
    expect(read.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(read.body).toMatchObject({ type: '/problems/unavailable', status: 503 });
    const write = await service.rest('POST', `${domain.base}/placeholder`, { name: 'during', value: 'outage' });
    expect(write.status).toBe(503);
    const viaGraphql = await service.graphql(
      'query($c: ID!, $d: ID!) { domain(clientId: $c, id: $d) { placeholders { name } } }',
      { c: domain.clientId, d: domain.domainId },
    );
    expect(viaGraphql.errors?.[0]?.extensions?.code).toBe('SERVICE_UNAVAILABLE');
    expect(Date.now() - started).toBeLessThan(20_000);
    const readiness = await service.as(null).rest('GET', '/readyz');
    expect(readiness.status).toBe(503);
    expect(readiness.body).toMatchObject({ status: 'not ready', checks: { database: expect.not.stringMatching(/^ok$/) } });

    await proxy.restore();
    let answer = await service.rest('GET', `${domain.base}/placeholder`);
    for (let attempt = 0; attempt < 20 && answer.status !== 200; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      answer = await service.rest('GET', `${domain.base}/placeholder`);
    }
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual([{ name: 'before', value: 'outage' }]);
    expect((await service.rest('POST', `${domain.base}/placeholder`, { name: 'after', value: 'outage' })).status).toBe(201);
  });
});
