import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeyEntity } from '../../../src/features/api-keys/api-key.entity.ts';
import { MAX_KEYS_PER_CLIENT } from '../../../src/features/api-keys/api-key.operations.ts';
import { API, createApiKey, createClient, createDomain } from '../../support/fixtures.ts';
import { type ServiceProcess, startServiceProcess } from '../../support/service-process.ts';
import { startTestService, type TestService } from '../../support/service.ts';

/** API keys: created per client, listed by prefix, revoked; the administrator key; keys never logged. */

const logLines: string[] = [];
let service: TestService;
beforeAll(async () => {
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(chunk.toString());
      done();
    },
  });
  service = await startTestService({ logger: pino({ level: 'debug' }, sink) });
});
afterAll(() => service.close());

async function clientWithKey() {
  const client = await createClient(service);
  const created = await createApiKey(service, client.id, 'dashboard');
  return { client, key: created.key, keyId: created.id, created };
}

describe('client API keys over REST', () => {
  it('creates a key (201), shows it once, lists it by prefix only, and stores only its hash', async () => {
    const { client, key, created } = await clientWithKey();
    expect(created).toEqual({ id: expect.any(String), name: 'dashboard', prefix: key.slice(0, 12), key, createdAt: expect.any(String) });
    expect(key).toMatch(/^dcs_[A-Za-z0-9_-]{43}$/);
    const listed = await service.rest('GET', `${API}/${client.id}/apikey`);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([{ id: created.id, name: 'dashboard', prefix: created.prefix, createdAt: created.createdAt }]);
    const row = await service.database.orm.em.fork().findOneOrFail(ApiKeyEntity, { id: created.id });
    expect(row.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(key);
  });

  it('lets the key reach its own client by ?apiKey= and by Authorization: Bearer', async () => {
    const { client, key } = await clientWithKey();
    const viaQuery = await service.as(null).rest('GET', `${API}/${client.id}?apiKey=${encodeURIComponent(key)}`);
    expect(viaQuery.status).toBe(200);
    expect(viaQuery.body.id).toBe(client.id);
    const asClient = service.as(key);
    const domain = await asClient.rest('POST', `${API}/${client.id}/domain`, { name: 'own.example' });
    expect(domain.status).toBe(201);
    expect((await asClient.rest('GET', `${API}`)).body.map((c: { id: string }) => c.id)).toEqual([client.id]);
    expect((await asClient.rest('POST', API, { username: 'x', emailAddress: 'x@example.org', password: 'x-password' })).status).toBe(404);
  });

  it('revokes a key (204): from then on it is refused with 401', async () => {
    const { client, key, keyId } = await clientWithKey();
    expect((await service.as(key).rest('GET', `${API}/${client.id}`)).status).toBe(200);
    const revoked = await service.rest('DELETE', `${API}/${client.id}/apikey/${keyId}`);
    expect(revoked.status).toBe(204);
    const refused = await service.as(key).rest('GET', `${API}/${client.id}`);
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ type: '/problems/unauthenticated', status: 401 });
    expect((await service.rest('DELETE', `${API}/${client.id}/apikey/${keyId}`)).status).toBe(404);
  });

  it('answers 400 for a bad name and 404 for an unknown client, creating nothing', async () => {
    const client = await createClient(service);
    const bad = await service.rest('POST', `${API}/${client.id}/apikey`, { name: '' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([{ path: '/name', message: expect.any(String) }]);
    expect((await service.rest('POST', `${API}/${client.id}/apikey`, { name: 'x', extra: 1 })).status).toBe(400);
    expect((await service.rest('GET', `${API}/${client.id}/apikey`)).body).toEqual([]);
    expect((await service.rest('POST', `${API}/01900000-0000-7000-8000-000000000000/apikey`, { name: 'x' })).status).toBe(404);
  });

  it('goes with its client: deleting the client deletes its keys at once', async () => {
    const { client, key } = await clientWithKey();
    expect((await service.as(key).rest('GET', `${API}/${client.id}`)).status).toBe(200);
    expect((await service.rest('DELETE', `${API}/${client.id}`)).status).toBe(204);
    expect((await service.as(key).rest('GET', `${API}/${client.id}`)).status).toBe(401);
    const count = await service.database.orm.em.fork().count(ApiKeyEntity, { client: client.id });
    expect(count).toBe(0);
  });
});

describe('what a client key may do to its own account', () => {
  const clientPath = (id: string) => `${API}/${id}`;

  it(`mints keys up to ${MAX_KEYS_PER_CLIENT} per client, counted under concurrency; then 409 naming the cap`, async () => {
    const { client, key } = await clientWithKey();
    const asClient = service.as(key);
    const answers = await Promise.all(
      Array.from({ length: MAX_KEYS_PER_CLIENT + 5 }, (_, i) => asClient.rest('POST', `${clientPath(client.id)}/apikey`, { name: `minted ${i}` })),
    );
    const statuses = answers.map((answer) => answer.status);
    // One key existed already (the one making the requests).
    expect(statuses.filter((status) => status === 201)).toHaveLength(MAX_KEYS_PER_CLIENT - 1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(6);
    const refused = answers.find((answer) => answer.status === 409)!;
    expect(refused.body).toMatchObject({ type: '/problems/conflict', detail: expect.stringContaining(`${MAX_KEYS_PER_CLIENT} API keys`) });
    expect((await service.rest('GET', `${clientPath(client.id)}/apikey`)).body).toHaveLength(MAX_KEYS_PER_CLIENT);
    // The cap binds the administrator too; revoking one makes room again.
    expect((await service.rest('POST', `${clientPath(client.id)}/apikey`, { name: 'one more' })).status).toBe(409);
    const minted = answers.find((answer) => answer.status === 201)!.body;
    expect((await asClient.rest('DELETE', `${clientPath(client.id)}/apikey/${minted.id}`)).status).toBe(204);
    expect((await service.rest('POST', `${clientPath(client.id)}/apikey`, { name: 'one more' })).status).toBe(201);
  });

  it('revokes only the keys it created and itself; keys the administrator issued answer 403 and stay', async () => {
    const { client, key, keyId } = await clientWithKey();
    const issuedByAdmin = (await service.rest('POST', `${clientPath(client.id)}/apikey`, { name: 'by the administrator' })).body;
    const asClient = service.as(key);
    const made = (await asClient.rest('POST', `${clientPath(client.id)}/apikey`, { name: 'made by the key' })).body;
    const sibling = await asClient.rest('DELETE', `${clientPath(client.id)}/apikey/${issuedByAdmin.id}`);
    expect(sibling.status, sibling.text).toBe(403);
    expect(sibling.body).toMatchObject({ type: '/problems/forbidden', status: 403, detail: expect.stringContaining('keys it created') });
    const viaGraphql = await asClient.graphql('mutation($c: ID!, $id: ID!) { revokeApiKey(clientId: $c, id: $id) }', { c: client.id, id: issuedByAdmin.id });
    expect(viaGraphql.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect((await service.as(issuedByAdmin.key).rest('GET', clientPath(client.id))).status, 'the key still works').toBe(200);
    // A key made by another client key is not its either.
    const grandchild = (await service.as(made.key).rest('POST', `${clientPath(client.id)}/apikey`, { name: 'made by the made one' })).body;
    expect((await asClient.rest('DELETE', `${clientPath(client.id)}/apikey/${grandchild.id}`)).status).toBe(403);
    expect((await asClient.rest('DELETE', `${clientPath(client.id)}/apikey/${made.id}`)).status).toBe(204);
    expect((await asClient.rest('DELETE', `${clientPath(client.id)}/apikey/${keyId}`)).status, 'itself').toBe(204);
    expect((await asClient.rest('GET', clientPath(client.id))).status).toBe(401);
    const left = (await service.rest('GET', `${clientPath(client.id)}/apikey`)).body.map((k: { name: string }) => k.name).sort();
    expect(left).toEqual(['by the administrator', 'made by the made one']);
  });

  it('changes its contact fields, but not its username or active flag (403, nothing changed); sending them back unchanged is fine', async () => {
    const { client, key } = await clientWithKey();
    const asClient = service.as(key);
    const before = (await service.rest('GET', clientPath(client.id))).body;
    for (const change of [{ active: false }, { username: `renamed-${client.id}` }, { company: 'X', active: false }]) {
      const answer = await asClient.rest('PUT', clientPath(client.id), change);
      expect(answer.status, JSON.stringify(change)).toBe(403);
      expect(answer.body.detail).toMatch(/only the administrator changes a client's (username|active)/);
      expect((await service.rest('GET', clientPath(client.id))).body).toEqual(before);
    }
    const viaGraphql = await asClient.graphql('mutation($id: ID!) { updateClient(id: $id, input: { active: false }) { id } }', { id: client.id });
    expect(viaGraphql.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const echoed = await asClient.rest('PUT', clientPath(client.id), { ...before, company: 'ACME' });
    expect(echoed.status, echoed.text).toBe(200);
    expect(echoed.body).toEqual({ ...before, company: 'ACME' });
  });

  it('may not delete its own client (403 over REST, FORBIDDEN over GraphQL); the administrator may', async () => {
    const { client, key } = await clientWithKey();
    const answer = await service.as(key).rest('DELETE', clientPath(client.id));
    expect(answer.status, answer.text).toBe(403);
    const viaGraphql = await service.as(key).graphql('mutation($id: ID!) { deleteClient(id: $id) }', { id: client.id });
    expect(viaGraphql.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect((await service.rest('GET', clientPath(client.id))).status).toBe(200);
    expect((await service.rest('DELETE', clientPath(client.id))).status).toBe(204);
  });

  it("an inactive client's keys are refused at once with 403 (REST and GraphQL), and let in again once it is active", async () => {
    const { client, key } = await clientWithKey();
    const asClient = service.as(key);
    expect((await asClient.rest('GET', clientPath(client.id))).status).toBe(200); // remembered by the key ring
    expect((await service.rest('PUT', clientPath(client.id), { active: false })).status).toBe(200);
    const refused = await asClient.rest('GET', clientPath(client.id));
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ type: '/problems/forbidden', detail: expect.stringContaining('not active') });
    const viaGraphql = await asClient.graphql('{ clients { id } }');
    expect(viaGraphql.status).toBe(403);
    expect(viaGraphql.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect((await service.rest('PUT', clientPath(client.id), { active: true })).status).toBe(200);
    expect((await asClient.rest('GET', clientPath(client.id))).status).toBe(200);

    // A client created inactive (the documented default) gets keys that wait for it.
    const dormant = await createClient(service, { active: false });
    const dormantKey = (await service.rest('POST', `${clientPath(dormant.id)}/apikey`, { name: 'waiting' })).body.key;
    expect((await service.as(dormantKey).rest('GET', clientPath(dormant.id))).status).toBe(403);
  });
});

describe('client API keys over GraphQL', () => {
  it('creates, lists and revokes keys', async () => {
    const client = await createClient(service);
    const created = await service.graphql(
      'mutation($c: ID!) { createApiKey(clientId: $c, input: { name: "ci" }) { id name prefix key createdAt } }',
      { c: client.id },
    );
    expect(created.errors).toBeUndefined();
    const { id, key, prefix } = created.data.createApiKey;
    expect(key.startsWith(prefix)).toBe(true);
    const listed = await service.as(key).graphql('query($c: ID!) { client(id: $c) { apiKeys { id name prefix } } }', { c: client.id });
    expect(listed.data.client.apiKeys).toEqual([{ id, name: 'ci', prefix }]);
    const revoked = await service.graphql('mutation($c: ID!, $id: ID!) { revokeApiKey(clientId: $c, id: $id) }', { c: client.id, id });
    expect(revoked.data.revokeApiKey).toBe(id);
    const refused = await service.as(key).graphql('{ clients { id } }');
    expect(refused.status).toBe(401);
    expect(refused.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });
});

describe("after a leak: revoking every other key of the client at once (extension)", () => {
  const keysOf = async (clientId: string) =>
    ((await service.rest('GET', `${API}/${clientId}/apikey`)).body as { id: string }[]).map((k) => k.id).sort();

  it('lets a key the administrator made revoke every other key of its client, itself kept, other clients untouched (REST)', async () => {
    const { client, key, keyId } = await clientWithKey();
    const sibling = await createApiKey(service, client.id, 'sibling');
    const made = (await service.as(key).rest('POST', `${API}/${client.id}/apikey`, { name: 'made by the key' })).body;
    const other = await clientWithKey();

    const answer = await service.as(key).rest('DELETE', `${API}/${client.id}/apikey`);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual({ revoked: [sibling.id, made.id].sort() });
    expect(await keysOf(client.id)).toEqual([keyId]);
    for (const revoked of [sibling.key, made.key]) expect((await service.as(revoked).rest('GET', `${API}/${client.id}`)).status).toBe(401);
    expect((await service.as(key).rest('GET', `${API}/${client.id}`)).status).toBe(200);
    expect(await keysOf(other.client.id)).toEqual([other.keyId]);
    expect((await service.as(key).rest('DELETE', `${API}/${other.client.id}/apikey`)).status).toBe(404);
  });

  it('refuses a key made by another key (403 / FORBIDDEN), revoking nothing; the administrator revokes every key (GraphQL)', async () => {
    const { client, key, keyId } = await clientWithKey();
    const made = (await service.as(key).rest('POST', `${API}/${client.id}/apikey`, { name: 'made by the key' })).body;
    const refused = await service.as(made.key).rest('DELETE', `${API}/${client.id}/apikey`);
    expect(refused.status).toBe(403);
    const mutation = 'mutation($c: ID!) { revokeOtherApiKeys(clientId: $c) }';
    expect((await service.as(made.key).graphql(mutation, { c: client.id })).errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect(await keysOf(client.id)).toEqual([keyId, made.id].sort());

    const byAdmin = await service.graphql(mutation, { c: client.id });
    expect(byAdmin.errors).toBeUndefined();
    expect([...byAdmin.data.revokeOtherApiKeys].sort()).toEqual([keyId, made.id].sort());
    expect(await keysOf(client.id)).toEqual([]);
    expect((await service.as(key).rest('GET', `${API}/${client.id}`)).status).toBe(401);
  });
});

describe('keys in logs', () => {
  it('never appear in a log line, whatever the request did', async () => {
    const { client, key } = await clientWithKey();
    const wrong = 'dcs_thisIsNotAValidKeyButLooksLikeOne0123456789ab';
    await service.as(null).rest('GET', `${API}/${client.id}?apiKey=${key}`);
    await service.as(null).rest('GET', `${API}/${client.id}/domain/nope?apiKey=${key}`);
    await service.as(null).rest('POST', `${API}/${client.id}/domain?apiKey=${key}`, { name: 'bad name!' });
    await service.as(null).rest('GET', `${API}?apiKey=${wrong}`);
    // The same parameter with its name percent-encoded, as the query parser still reads it.
    for (const name of ['api%4Bey', '%61piKey', '%61%70%69%4B%65%79']) {
      const answer = await service.as(null).rest('GET', `${API}/${client.id}?x=1&${name}=${key}`);
      expect(answer.status, name).toBe(200);
    }
    // Bracketed names (`apiKey[]`), which the query parser does not take as the key, and a key
    // long enough to stand as a name of its own.
    for (const query of [`apiKey[]=${key}`, `apikey[0]=${key}`, `${key}`, `x=${key}`]) {
      await service.as(null).rest('GET', `${API}/${client.id}?${query}`);
    }
    // A key inside GraphQL variables sent by GET.
    const variables = encodeURIComponent(JSON.stringify({ apiKey: key, email: 'secret.person@example.org' }));
    await service.as(key).raw({
      method: 'GET',
      path: `/graphql?query=${encodeURIComponent('query Q($apiKey: String) { __typename }')}&variables=${variables}&operationName=Q`,
      headers: { accept: 'application/json', 'x-graphql-yoga-csrf': '1' },
    });
    await service.as(wrong).rest('GET', `${API}/${client.id}`);
    await service.as(key).graphql('{ clients { id } }');
    await service.as(null).raw({ method: 'GET', path: `/graphql?apiKey=${key}&query=%7Bclients%7Bid%7D%7D`, headers: { accept: 'application/json', 'x-graphql-yoga-csrf': '1' } });
    await createDomain(service);
    const all = logLines.join('');
    expect(logLines.length).toBeGreaterThan(5);
    expect(all).not.toContain(key);
    expect(all).not.toContain(wrong);
    expect(all).not.toContain('secret.person');
    expect(all).toContain('apiKey=[redacted]');
    expect(all).toContain('apiKey[]=[redacted]');
    expect(all).toContain('operationName=Q');
  });
});

describe('the administrator key', () => {
  let workDir: string;
  beforeAll(async () => {
    workDir = await mkdtemp(join(tmpdir(), 'admin-key-'));
  });
  afterAll(() => rm(workDir, { recursive: true, force: true }));

  /** Starts the real service, without ADMIN_API_KEY unless given. */
  const start = (environment: string, adminApiKey = '') =>
    startServiceProcess({
      env: { DATABASE_URL: '', ADMIN_API_KEY: adminApiKey, DATA_DIR: join(workDir, 'data'), NODE_ENV: environment, LOG_LEVEL: 'info' },
    });
  const listClients = async (service: ServiceProcess, key: string) => (await service.request('GET', '/hosting/api/client', { key })).status;

  it('is created at the first start in development, printed once, works, and is not printed again', async () => {
    const first = await start('development');
    await first.stop();
    const printed = first.output().stderr.match(/\n {2}(dcs_[A-Za-z0-9_-]{43})\n/)?.[1];
    expect(printed, first.output().stderr).toBeDefined();
    expect(first.output().stdout).not.toContain(printed!);

    const second = await start('development');
    expect(await listClients(second, printed!)).toBe(200);
    expect((await second.request('GET', '/hosting/api/client', { key: null })).status).toBe(401);
    await second.stop();
    expect(second.output().stderr).not.toMatch(/dcs_/);
    expect(second.output().stdout).not.toMatch(/dcs_/);

    // Setting ADMIN_API_KEY later retires the generated key: one administrator key, the configured one.
    const configured = 'configured-admin-key-0123456789abcdef';
    const third = await start('production', configured);
    expect(third.ready, third.output().stderr).toBe(true);
    expect(await listClients(third, configured)).toBe(200);
    expect(await listClients(third, printed!)).toBe(401);
    await third.stop();
    expect(third.output().stdout).toMatch(/administrator key generated at an earlier start no longer works/);
  }, 60_000);

  it('must be set in production: without it the service refuses to start, in one clear line', async () => {
    await rm(join(workDir, 'data'), { recursive: true, force: true });
    const production = await start('production');
    expect(await production.exited).toBe(1);
    expect(production.output().stderr).toMatch(/ADMIN_API_KEY must be set in production/);
  }, 60_000);
});
