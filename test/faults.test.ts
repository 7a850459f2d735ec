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
let poolSize: number;

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
  poolSize = embedded ? 1 : 5;
  service = await startTestService({ databaseUrl: viaProxy.toString(), poolSize });
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
    expect(viaGraphql.status).toBe(503);
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

  // More times than the pool has connections: each must come back to it, none may be lost.
  it('answers 503 each time it goes away in the middle of a bulk replace, which is then wholly undone', async () => {
    const before = (await service.rest('GET', `${domain.base}/placeholder`)).body;
    expect(before.length).toBeGreaterThan(0);
    const items = Array.from({ length: 1000 }, (_, i) => ({ name: `new-${i}`, value: 'x' }));
    for (let round = 1; round <= poolSize + 1; round++) {
      // By the time the insert goes out, the transaction has locked the domain and deleted the old list.
      const cut = proxy.cutWhenSent('insert into "placeholder"');
      const answer = await service.rest('PUT', `${domain.base}/placeholder`, items);
      await cut;
      expect(answer.status, `round ${round}: ${answer.text}`).toBe(503);
      expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);

      await proxy.restore();
      let after = await service.rest('GET', `${domain.base}/placeholder`);
      for (let attempt = 0; attempt < 20 && after.status !== 200; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        after = await service.rest('GET', `${domain.base}/placeholder`);
      }
      expect(after.status, `round ${round}`).toBe(200);
      expect(after.body).toEqual(before);
    }
  });
});
