import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API,
  createClient,
  createDomain,
  type DomainPath,
  domainState,
  embeddingPayload,
  themePayload,
  unknownId,
} from '../../support/fixtures.ts';
import { startTestService, type TestService } from '../../support/service.ts';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

const uniqueName = (prefix = 'user') => `${prefix}-${randomUUID()}`;
const clientPath = (id: string) => `${API}/${id}`;
/** Every client, as REST lists them: proves that a refused write changed nothing. */
const allClients = async () => (await service.rest('GET', API)).body;

/** Rows left in a table whose `column` is one of `ids`: proves a cascade really deleted them. */
async function countRows(table: string, column: string, ids: string[]): Promise<number> {
  const rows = await service.database.orm.em
    .fork()
    .getConnection()
    .execute<{ n: number }[]>(`select count(*)::int as n from ${table} where ${column} in (${ids.map(() => '?').join(', ')})`, ids);
  return rows[0]!.n;
}

const CLIENT_FIELDS = 'id username emailAddress firstName lastName company active';

describe('clients over REST', () => {
  it('creates a client (201) with a generated id and the defaults for what was not sent', async () => {
    const username = uniqueName();
    const created = await service.rest('POST', API, { username, emailAddress: 'anna@example.org' });
    expect(created.status).toBe(201);
    expect(created.headers.get('content-type')).toMatch(/^application\/json/);
    expect(created.body).toEqual({
      id: expect.any(String),
      username,
      emailAddress: 'anna@example.org',
      firstName: '',
      lastName: '',
      company: '',
      active: false,
    });
    expect(created.body.id).not.toBe('');

    const second = await service.rest('POST', API, { username: uniqueName(), emailAddress: 'anna@example.org' });
    expect(second.status).toBe(201);
    expect(second.body.id).not.toBe(created.body.id);
  });

  it('creates a client with every field set and returns them all', async () => {
    const payload = {
      username: uniqueName('agency'),
      emailAddress: 'Max.Mustermann+consent@sub.example.co.uk',
      firstName: 'Max',
      lastName: 'Müstermann',
      company: 'Muster & Söhne GmbH',
      active: true,
    };
    const created = await service.rest('POST', API, payload);
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(String), ...payload });
  });

  it('reads one client (200) and all clients (200)', async () => {
    const first = await createClient(service, { firstName: 'Erika' });
    const second = await createClient(service, { company: 'Beispiel AG' });

    const one = await service.rest('GET', clientPath(first.id));
    expect(one.status).toBe(200);
    expect(one.body).toEqual({
      id: first.id,
      username: first.username,
      emailAddress: 'ops@example.org',
      firstName: 'Erika',
      lastName: '',
      company: '',
      active: true,
    });

    const all = await service.rest('GET', API);
    expect(all.status).toBe(200);
    expect(Array.isArray(all.body)).toBe(true);
    expect(all.body).toContainEqual(one.body);
    expect(all.body).toContainEqual((await service.rest('GET', clientPath(second.id))).body);
    expect(new Set(all.body.map((c: { id: string }) => c.id)).size).toBe(all.body.length);
  });

  it('updates only the fields a PUT carries (200)', async () => {
    const client = await createClient(service, { firstName: 'Erika', lastName: 'Mustermann' });
    const updated = await service.rest('PUT', clientPath(client.id), { company: 'ACME', active: true });
    expect(updated.status).toBe(200);
    expect(updated.body).toEqual({
      id: client.id,
      username: client.username,
      emailAddress: 'ops@example.org',
      firstName: 'Erika',
      lastName: 'Mustermann',
      company: 'ACME',
      active: true,
    });
    expect((await service.rest('GET', clientPath(client.id))).body).toEqual(updated.body);

    const renamed = await service.rest('PUT', clientPath(client.id), { username: `${client.username}-new`, lastName: '' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toEqual({ ...updated.body, username: `${client.username}-new`, lastName: '' });

    const empty = await service.rest('PUT', clientPath(client.id), {});
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual(renamed.body);
  });

  it('deletes a client (204, no body); afterwards it is not found', async () => {
    const client = await createClient(service);
    const deleted = await service.rest('DELETE', clientPath(client.id));
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await service.rest('GET', clientPath(client.id))).status).toBe(404);
    expect((await service.rest('PUT', clientPath(client.id), { company: 'x' })).status).toBe(404);
    expect((await service.rest('DELETE', clientPath(client.id))).status).toBe(404);
    expect((await allClients()).map((c: { id: string }) => c.id)).not.toContain(client.id);
  });

  it('takes back what it sent: read, change a field, PUT the whole object back (id is ignored)', async () => {
    const client = await createClient(service, { firstName: 'Erika' });
    const read = (await service.rest('GET', clientPath(client.id))).body;
    const answer = await service.rest('PUT', clientPath(client.id), { ...read, company: 'Neu GmbH' });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ ...read, company: 'Neu GmbH' });

    // A different id in the body is ignored too: the path says which client.
    const other = await service.rest('PUT', clientPath(client.id), { ...read, id: unknownId(), lastName: 'M.' });
    expect(other.status).toBe(200);
    expect(other.body).toEqual({ ...read, lastName: 'M.' });
    expect((await service.rest('GET', clientPath(unknownId()))).status).toBe(404);
  });

  it('ignores an id sent on create and generates one', async () => {
    const created = await service.rest('POST', API, { id: unknownId(), username: uniqueName(), emailAddress: 'a@example.org' });
    expect(created.status).toBe(201);
    expect(created.body.id).not.toBe(unknownId());
    expect((await service.rest('GET', clientPath(created.body.id))).body).toEqual(created.body);
  });

  it('keeps usernames unique: a second create with the same username is 409', async () => {
    const first = await createClient(service);
    const before = await allClients();
    const again = await service.rest('POST', API, { username: first.username, emailAddress: 'other@example.org' });
    expect(again.status).toBe(409);
    expect(again.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(again.body).toMatchObject({ type: '/problems/conflict', title: 'Conflict', status: 409, detail: expect.any(String) });
    expect(await allClients()).toEqual(before);
  });

  it('refuses to rename a client onto an existing username (409) and changes neither', async () => {
    const taken = await createClient(service);
    const mover = await createClient(service);
    const before = await allClients();
    const answer = await service.rest('PUT', clientPath(mover.id), { username: taken.username, company: 'x' });
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({ type: '/problems/conflict', status: 409 });
    expect(await allClients()).toEqual(before);

    // Sending one's own username back is no conflict.
    const same = await service.rest('PUT', clientPath(mover.id), { username: mover.username, company: 'y' });
    expect(same.status).toBe(200);
    expect(same.body).toMatchObject({ username: mover.username, company: 'y' });
  });

  it.each([
    ['no username', { emailAddress: 'a@example.org' }, ['/username']],
    ['no emailAddress', { username: 'someone' }, ['/emailAddress']],
    ['neither', {}, ['/emailAddress', '/username']],
    ['an emailAddress that is not an e-mail address', { username: 'someone', emailAddress: 'not-an-address' }, ['/emailAddress']],
    ['an emailAddress without domain', { username: 'someone', emailAddress: 'someone@' }, ['/emailAddress']],
    ['an empty emailAddress', { username: 'someone', emailAddress: '' }, ['/emailAddress']],
    ['an unknown property', { username: 'someone', emailAddress: 'a@example.org', nickname: 'x' }, ['/nickname']],
    ['a username that is a number', { username: 42, emailAddress: 'a@example.org' }, ['/username']],
    ['an emailAddress that is not a string', { username: 'someone', emailAddress: ['a@example.org'] }, ['/emailAddress']],
    ['a firstName that is null', { username: 'someone', emailAddress: 'a@example.org', firstName: null }, ['/firstName']],
    ['a lastName that is a number', { username: 'someone', emailAddress: 'a@example.org', lastName: 7 }, ['/lastName']],
    ['a company that is an object', { username: 'someone', emailAddress: 'a@example.org', company: {} }, ['/company']],
    ['active as a string', { username: 'someone', emailAddress: 'a@example.org', active: 'true' }, ['/active']],
  ])('refuses a create with %s (400) and stores nothing', async (_, payload, pointers) => {
    const before = await allClients();
    const answer = await service.rest('POST', API, payload);
    expect(answer.status).toBe(400);
    expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(answer.body).toMatchObject({ type: '/problems/validation', title: 'Bad Request', status: 400, detail: expect.any(String) });
    expect(answer.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(pointers);
    for (const error of answer.body.errors) expect(error).toEqual({ path: expect.any(String), message: expect.any(String) });
    expect(await allClients()).toEqual(before);
  });

  it.each([
    ['an emailAddress that is not an e-mail address', { emailAddress: 'nobody at example.org' }, '/emailAddress'],
    ['an unknown property', { role: 'admin' }, '/role'],
    ['active as a number', { active: 1 }, '/active'],
    ['a username that is null', { username: null }, '/username'],
  ])('refuses an update with %s (400) and changes nothing', async (_, payload, pointer) => {
    const client = await createClient(service, { company: 'Unchanged' });
    const before = (await service.rest('GET', clientPath(client.id))).body;
    const answer = await service.rest('PUT', clientPath(client.id), { company: 'Changed', ...payload });
    expect(answer.status).toBe(400);
    expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(answer.body).toMatchObject({ type: '/problems/validation', status: 400 });
    expect(answer.body.errors).toEqual([{ path: pointer, message: expect.any(String) }]);
    expect((await service.rest('GET', clientPath(client.id))).body).toEqual(before);
  });

  it('refuses a body that is not JSON, or not an object, with 400', async () => {
    const before = await allClients();
    const notJson = await service.raw({ method: 'POST', path: API, body: '{"username": ', headers: { 'content-type': 'application/json' } });
    expect(notJson.status).toBe(400);
    expect(notJson.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const array = await service.rest('POST', API, [{ username: uniqueName(), emailAddress: 'a@example.org' }]);
    expect(array.status).toBe(400);
    expect(await allClients()).toEqual(before);
  });

  it('answers 404 for an unknown or malformed client id on every client route', async () => {
    for (const id of [unknownId(), 'not-an-id']) {
      const get = await service.rest('GET', clientPath(id));
      expect(get.status).toBe(404);
      expect(get.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(get.body).toMatchObject({ type: '/problems/not-found', status: 404, detail: expect.stringContaining('client') });
      expect((await service.rest('PUT', clientPath(id), { company: 'x' })).status).toBe(404);
      expect((await service.rest('DELETE', clientPath(id))).status).toBe(404);
    }
  });

  it('deletes a client with its domains and everything beneath them; other clients keep theirs', async () => {
    const doomed = await createDomain(service, 'https://doomed.example/');
    const doomedSecond = (await service.rest('POST', `${API}/${doomed.clientId}/domain`, { name: 'second.doomed.example' })).body;
    await service.rest('POST', `${API}/${doomed.clientId}/domain/${doomedSecond.id}/placeholder`, { name: 'other', value: 'x' });
    const survivor = await createDomain(service, 'https://survivor.example/');
    const seeded: { domain: DomainPath; embeddingId: string; assetId: string; themeId: string }[] = [];
    for (const domain of [doomed, survivor]) {
      await service.rest('POST', `${domain.base}/placeholder`, { name: 'brand', value: domain.clientId });
      const embedding = await service.rest('POST', `${domain.base}/embedding`, embeddingPayload());
      expect(embedding.status, embedding.text).toBe(201);
      const theme = await service.rest('POST', `${domain.base}/theme`, themePayload());
      expect(theme.status, theme.text).toBe(201);
      seeded.push({ domain, embeddingId: embedding.body.id, assetId: embedding.body.assets[0].id, themeId: theme.body.id });
    }
    const survivorBefore = await domainState(service, survivor);

    expect((await service.rest('DELETE', clientPath(doomed.clientId))).status).toBe(204);

    const [gone] = seeded;
    expect((await service.rest('GET', clientPath(doomed.clientId))).status).toBe(404);
    expect((await service.rest('GET', `${API}/${doomed.clientId}/domain`)).status).toBe(404);
    for (const path of [
      gone!.domain.base,
      `${API}/${doomed.clientId}/domain/${doomedSecond.id}`,
      `${gone!.domain.base}/placeholder/brand`,
      `${gone!.domain.base}/embedding/${gone!.embeddingId}`,
      `${gone!.domain.base}/embedding/${gone!.embeddingId}/asset/${gone!.assetId}`,
      `${gone!.domain.base}/theme/${gone!.themeId}`,
    ]) {
      expect((await service.rest('GET', path)).status, path).toBe(404);
    }
    // Nothing of it is left in the database either.
    const domainIds = [doomed.domainId, doomedSecond.id];
    expect({
      domains: await countRows('domain', 'client_id', [doomed.clientId]),
      placeholders: await countRows('placeholder', 'domain_id', domainIds),
      embeddings: await countRows('embedding', 'domain_id', domainIds),
      assets: await countRows('embedding_asset', 'embedding_id', [gone!.embeddingId]),
      themes: await countRows('theme', 'domain_id', domainIds),
    }).toEqual({ domains: 0, placeholders: 0, embeddings: 0, assets: 0, themes: 0 });

    expect((await service.rest('GET', clientPath(survivor.clientId))).status).toBe(200);
    expect(await domainState(service, survivor)).toEqual(survivorBefore);
    expect(survivorBefore.embeddings[0].assets).toHaveLength(2);
    expect(survivorBefore.themes).toHaveLength(1);
    expect(survivorBefore.placeholders).toEqual([{ name: 'brand', value: survivor.clientId }]);
  });
});

describe('clients over GraphQL', () => {
  it('creates, lists, reads, updates and deletes a client', async () => {
    const username = uniqueName('gql');
    const created = await service.graphql(
      `mutation($input: ClientCreateInput!) { createClient(input: $input) { ${CLIENT_FIELDS} } }`,
      { input: { username, emailAddress: 'gql@example.org', company: 'GraphQL GmbH' } },
    );
    expect(created.errors).toBeUndefined();
    expect(created.data.createClient).toEqual({
      id: expect.any(String),
      username,
      emailAddress: 'gql@example.org',
      firstName: '',
      lastName: '',
      company: 'GraphQL GmbH',
      active: false,
    });
    const id: string = created.data.createClient.id;
    // What GraphQL wrote, REST reads.
    expect((await service.rest('GET', clientPath(id))).body).toEqual(created.data.createClient);

    const listed = await service.graphql(`query { clients { ${CLIENT_FIELDS} } }`);
    expect(listed.errors).toBeUndefined();
    expect(listed.data.clients).toEqual(await allClients());
    expect(listed.data.clients).toContainEqual(created.data.createClient);

    const updated = await service.graphql(
      `mutation($id: ID!) { updateClient(id: $id, input: { active: true, lastName: "Graph" }) { ${CLIENT_FIELDS} } }`,
      { id },
    );
    expect(updated.errors).toBeUndefined();
    expect(updated.data.updateClient).toEqual({ ...created.data.createClient, active: true, lastName: 'Graph' });

    const read = await service.graphql(`query($id: ID!) { client(id: $id) { ${CLIENT_FIELDS} } }`, { id });
    expect(read.data.client).toEqual(updated.data.updateClient);

    const deleted = await service.graphql(`mutation($id: ID!) { deleteClient(id: $id) }`, { id });
    expect(deleted.errors).toBeUndefined();
    expect(deleted.data.deleteClient).toBe(id);
    expect((await service.rest('GET', clientPath(id))).status).toBe(404);
  });

  it('reads through client(id) what REST created: the client, its domains and one domain', async () => {
    const client = await createClient(service, { firstName: 'Rest' });
    const shop = (await service.rest('POST', `${API}/${client.id}/domain`, { name: 'https://www.example.org/shop/', country: 'DE' })).body;
    const blog = (await service.rest('POST', `${API}/${client.id}/domain`, { name: 'blog.example.org', locales: ['en_US'] })).body;
    await createDomain(service, 'someone-else.example');

    const answer = await service.graphql(
      `query($id: ID!, $domainId: ID!) { client(id: $id) {
         ${CLIENT_FIELDS}
         domains { id name path url country locales consentStorage }
         domain(id: $domainId) { id clientId name path url }
       } }`,
      { id: client.id, domainId: shop.id },
    );
    expect(answer.errors).toBeUndefined();
    const rest = (await service.rest('GET', clientPath(client.id))).body;
    const { domains, domain, ...fields } = answer.data.client;
    expect(fields).toEqual(rest);
    expect(domains).toEqual((await service.rest('GET', `${API}/${client.id}/domain`)).body);
    expect(domains.map((d: { id: string }) => d.id).sort()).toEqual([shop.id, blog.id].sort());
    expect(domain).toEqual({ id: shop.id, clientId: client.id, name: 'www.example.org', path: '/shop/', url: 'https://www.example.org/shop/' });
  });

  it('reports bad input as BAD_USER_INPUT with the same errors list as REST, and stores nothing', async () => {
    const before = await allClients();
    const input = { username: uniqueName(), emailAddress: 'no-at-sign' };
    const viaGraphql = await service.graphql(
      `mutation($input: ClientCreateInput!) { createClient(input: $input) { id } }`,
      { input },
    );
    const viaRest = await service.rest('POST', API, input);
    expect(viaRest.status).toBe(400);
    expect(viaGraphql.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(viaGraphql.errors?.[0]?.extensions?.errors).toEqual(viaRest.body.errors);
    expect(viaRest.body.errors).toEqual([{ path: '/emailAddress', message: expect.any(String) }]);

    const client = await createClient(service);
    const clientBefore = (await service.rest('GET', clientPath(client.id))).body;
    const update = { emailAddress: 'still wrong', company: 'x' };
    const updateViaGraphql = await service.graphql(
      `mutation($id: ID!, $input: ClientUpdateInput!) { updateClient(id: $id, input: $input) { id } }`,
      { id: client.id, input: update },
    );
    const updateViaRest = await service.rest('PUT', clientPath(client.id), update);
    expect(updateViaGraphql.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(updateViaGraphql.errors?.[0]?.extensions?.errors).toEqual(updateViaRest.body.errors);
    expect((await service.rest('GET', clientPath(client.id))).body).toEqual(clientBefore);
    expect((await allClients()).filter((c: { id: string }) => c.id !== client.id)).toEqual(before);
  });

  it('answers NOT_FOUND for an unknown or malformed client id', async () => {
    for (const id of [unknownId(), 'not-an-id']) {
      const read = await service.graphql(`query($id: ID!) { client(id: $id) { id } }`, { id });
      expect(read.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
      const update = await service.graphql(`mutation($id: ID!) { updateClient(id: $id, input: { company: "x" }) { id } }`, { id });
      expect(update.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
      const del = await service.graphql(`mutation($id: ID!) { deleteClient(id: $id) }`, { id });
      expect(del.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    }
  });

  it('answers CONFLICT for a duplicate username, on create and on rename', async () => {
    const username = uniqueName('twice');
    const create = `mutation($username: String!) { createClient(input: { username: $username, emailAddress: "t@example.org" }) { id } }`;
    const first = await service.graphql(create, { username });
    expect(first.errors).toBeUndefined();
    const before = await allClients();
    expect((await service.graphql(create, { username })).errors?.[0]?.extensions?.code).toBe('CONFLICT');

    const other = await createClient(service);
    const rename = await service.graphql(
      `mutation($id: ID!, $username: String!) { updateClient(id: $id, input: { username: $username }) { id } }`,
      { id: other.id, username },
    );
    expect(rename.errors?.[0]?.extensions?.code).toBe('CONFLICT');
    expect((await allClients()).filter((c: { id: string }) => c.id !== other.id)).toEqual(before);
    expect((await service.rest('GET', clientPath(other.id))).body.username).toBe(other.username);
  });
});
