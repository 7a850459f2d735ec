import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import bcrypt from 'bcryptjs';
import {
  API,
  createApiKey,
  createClient,
  createDomain,
  type DomainPath,
  domainState,
  embeddingPayload,
  themePayload,
  unknownId,
} from '../../support/fixtures.ts';
import { startTestService, type TestService } from '../../support/service.ts';
import { CLIENT_FEATURES } from '../../../src/features/clients/client.contract.ts';
import { domainFields } from '../../../src/features/domains/domain.contract.ts';

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

const FEATURE_FIELDS = CLIENT_FEATURES.join(' ');
const CLIENT_FIELDS = `id username emailAddress firstName lastName company active domainCount domainMaxCount whitelabelCount
  whitelabelMaxCount widgetDisplayCount widgetDisplayMaxCount autoCreateDomains features { ${FEATURE_FIELDS} }`;
const PASSWORD = 'correct horse battery staple';
/** A bcrypt hash as CCM19 writes them ($2y$) of the password `known password`. */
const KNOWN_HASH = '$2y$10$RgurCa7d18ro423uEHyVH.LJAdwiVQbCdqSYaycGL24TFUqsbxb1.';
/** What a new client is, beyond the fields a test sends: CCM19's documented defaults. */
const NEW_CLIENT = {
  domainCount: 0,
  domainMaxCount: 0,
  whitelabelCount: 0,
  whitelabelMaxCount: 0,
  widgetDisplayCount: 0,
  widgetDisplayMaxCount: 0,
  autoCreateDomains: false,
  // Every switch on: CCM19 makes new clients with access to everything.
  features: Object.fromEntries(CLIENT_FEATURES.map((name) => [name, true])),
};
/** The same for a client of the fixture, which has room for 20 domains. */
const FIXTURE_CLIENT = { ...NEW_CLIENT, domainMaxCount: 20 };
/** A client as "read all clients" lists it, without the per-list fields. */
const withoutListFields = ({ actualCallCount: _calls, domainCountData: _data, ...client }: Record<string, unknown>) => client;

describe('clients over REST', () => {
  it('creates a client (201) with a generated id and the defaults for what was not sent', async () => {
    const username = uniqueName();
    const created = await service.rest('POST', API, { username, emailAddress: 'anna@example.org', password: PASSWORD });
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
      ...NEW_CLIENT,
    });
    expect(created.body.id).not.toBe('');

    const second = await service.rest('POST', API, { username: uniqueName(), emailAddress: 'anna@example.org', password: PASSWORD });
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
      domainMaxCount: 5,
      whitelabelMaxCount: -1,
      widgetDisplayMaxCount: 100000,
      autoCreateDomains: true,
      features: { ...NEW_CLIENT.features, canUseIAB: false, moreThan2Lang: false },
    };
    const created = await service.rest('POST', API, { ...payload, password: PASSWORD });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(String), ...NEW_CLIENT, ...payload });
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
      ...FIXTURE_CLIENT,
    });

    const all = await service.rest('GET', API);
    expect(all.status).toBe(200);
    expect(Array.isArray(all.body)).toBe(true);
    expect(all.body).toContainEqual({ ...one.body, actualCallCount: 0, domainCountData: [] });
    expect(all.body.map(withoutListFields)).toContainEqual((await service.rest('GET', clientPath(second.id))).body);
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
      ...FIXTURE_CLIENT,
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
    const created = await service.rest('POST', API, { id: unknownId(), username: uniqueName(), emailAddress: 'a@example.org', password: PASSWORD });
    expect(created.status).toBe(201);
    expect(created.body.id).not.toBe(unknownId());
    expect((await service.rest('GET', clientPath(created.body.id))).body).toEqual(created.body);
  });

  it('keeps usernames unique: a second create with the same username is 409', async () => {
    const first = await createClient(service);
    const before = await allClients();
    const again = await service.rest('POST', API, { username: first.username, emailAddress: 'other@example.org', password: PASSWORD });
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
    ['no username', { emailAddress: 'a@example.org', password: PASSWORD }, ['/username']],
    ['no emailAddress', { username: 'someone', password: PASSWORD }, ['/emailAddress']],
    ['none of username, emailAddress and password', {}, ['/emailAddress', '/password', '/username']],
    ['an emailAddress that is not an e-mail address', { username: 'someone', password: PASSWORD, emailAddress: 'not-an-address' }, ['/emailAddress']],
    ['an emailAddress without domain', { username: 'someone', password: PASSWORD, emailAddress: 'someone@' }, ['/emailAddress']],
    ['an empty emailAddress', { username: 'someone', password: PASSWORD, emailAddress: '' }, ['/emailAddress']],
    ['an unknown property', { username: 'someone', password: PASSWORD, emailAddress: 'a@example.org', nickname: 'x' }, ['/nickname']],
    ['a username that is a number', { username: 42, emailAddress: 'a@example.org', password: PASSWORD }, ['/username']],
    ['an emailAddress that is not a string', { username: 'someone', password: PASSWORD, emailAddress: ['a@example.org'] }, ['/emailAddress']],
    ['a firstName that is null', { username: 'someone', password: PASSWORD, emailAddress: 'a@example.org', firstName: null }, ['/firstName']],
    ['a lastName that is a number', { username: 'someone', password: PASSWORD, emailAddress: 'a@example.org', lastName: 7 }, ['/lastName']],
    ['a company that is an object', { username: 'someone', password: PASSWORD, emailAddress: 'a@example.org', company: {} }, ['/company']],
    ['active as a string', { username: 'someone', password: PASSWORD, emailAddress: 'a@example.org', active: 'true' }, ['/active']],
    ['no password and no passwordHash', { username: 'someone', emailAddress: 'a@example.org' }, ['/password']],
    ['an empty password', { username: 'someone', emailAddress: 'a@example.org', password: '' }, ['/password']],
    ['a password longer than bcrypt reads', { username: 'someone', emailAddress: 'a@example.org', password: 'ä'.repeat(37) }, ['/password']],
    ['a password that is a number', { username: 'someone', emailAddress: 'a@example.org', password: 12345678 }, ['/password']],
    ['a passwordHash that is no bcrypt hash', { username: 'someone', emailAddress: 'a@example.org', passwordHash: 'md5:0123456789abcdef' }, ['/passwordHash']],
    ['a passwordHash of another bcrypt version', { username: 'someone', emailAddress: 'a@example.org', passwordHash: `$2x$10$${'a'.repeat(53)}` }, ['/passwordHash']],
    ['a bad password beside a good hash', { username: 'someone', emailAddress: 'a@example.org', password: null, passwordHash: KNOWN_HASH }, ['/password']],
    ['a domainMaxCount below -1', { username: 'someone', emailAddress: 'a@example.org', password: PASSWORD, domainMaxCount: -2 }, ['/domainMaxCount']],
    ['a whitelabelMaxCount that is a fraction', { username: 'someone', emailAddress: 'a@example.org', password: PASSWORD, whitelabelMaxCount: 1.5 }, ['/whitelabelMaxCount']],
    ['a widgetDisplayMaxCount as a string', { username: 'someone', emailAddress: 'a@example.org', password: PASSWORD, widgetDisplayMaxCount: '10' }, ['/widgetDisplayMaxCount']],
    ['autoCreateDomains as a number', { username: 'someone', emailAddress: 'a@example.org', password: PASSWORD, autoCreateDomains: 0 }, ['/autoCreateDomains']],
    ['features that are a list', { username: 'someone', emailAddress: 'a@example.org', password: PASSWORD, features: ['canUseIAB'] }, ['/features']],
    ['an unknown feature and a feature as a string', { username: 'someone', emailAddress: 'a@example.org', password: PASSWORD, features: { canFly: true, canUseIAB: 'yes' } }, ['/features/canFly', '/features/canUseIAB']],
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
    ['an empty password', { password: '' }, '/password'],
    ['a passwordHash that is no bcrypt hash', { passwordHash: 'secret' }, '/passwordHash'],
    ['a domainMaxCount below -1', { domainMaxCount: -5 }, '/domainMaxCount'],
    ['a feature that is null', { features: { canUseScripts: null } }, '/features/canUseScripts'],
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
    const array = await service.rest('POST', API, [{ username: uniqueName(), emailAddress: 'a@example.org', password: PASSWORD }]);
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
      { input: { username, emailAddress: 'gql@example.org', password: PASSWORD, company: 'GraphQL GmbH' } },
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
      ...NEW_CLIENT,
    });
    const id: string = created.data.createClient.id;
    // What GraphQL wrote, REST reads.
    expect((await service.rest('GET', clientPath(id))).body).toEqual(created.data.createClient);

    const listed = await service.graphql(`query { clients { ${CLIENT_FIELDS} } }`);
    expect(listed.errors).toBeUndefined();
    expect(listed.data.clients).toEqual((await allClients()).map(withoutListFields));
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
         domains { ${Object.keys(domainFields).join(' ')} }
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
    const input = { username: uniqueName(), emailAddress: 'no-at-sign', password: PASSWORD };
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
    const create = `mutation($username: String!) { createClient(input: { username: $username, emailAddress: "t@example.org", password: "t-password" }) { id } }`;
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

/** The password hash stored for the client. */
async function storedHash(id: string): Promise<string | null> {
  const rows = await service.database.orm.em
    .fork()
    .getConnection()
    .execute<{ hash: string | null }[]>('select password_hash as hash from client where id = ?', [id]);
  return rows[0]!.hash;
}

/** No answer shows a password or its hash: neither the properties nor anything that looks like a bcrypt hash. */
function expectNoSecret(answer: { text: string }) {
  expect(answer.text).not.toContain('$2');
  expect(answer.text).not.toMatch(/password/i);
}

describe('client passwords', () => {
  it('stores a plain password only as a bcrypt hash (cost 10 or more) and never sends it', async () => {
    const created = await service.rest('POST', API, { username: uniqueName(), emailAddress: 'p@example.org', password: PASSWORD });
    expect(created.status).toBe(201);
    expectNoSecret(created);
    const hash = await storedHash(created.body.id);
    expect(hash).toMatch(/^\$2[aby]\$(\d\d)\$[./A-Za-z0-9]{53}$/);
    expect(Number(hash!.slice(4, 6))).toBeGreaterThanOrEqual(10);
    expect(await bcrypt.compare(PASSWORD, hash!)).toBe(true);
    expect(await bcrypt.compare('wrong password', hash!)).toBe(false);

    for (const answer of [
      await service.rest('GET', clientPath(created.body.id)),
      await service.rest('GET', API),
      await service.rest('PUT', clientPath(created.body.id), { company: 'Hashed' }),
      await service.rest('GET', `/hosting/api/clientgetid/${created.body.username}`),
    ]) {
      expect(answer.status).toBe(200);
      expectNoSecret(answer);
    }
  });

  it('stores a sent passwordHash as given; password wins when both are sent', async () => {
    const byHash = await service.rest('POST', API, { username: uniqueName(), emailAddress: 'h@example.org', passwordHash: KNOWN_HASH });
    expect(byHash.status).toBe(201);
    expectNoSecret(byHash);
    expect(await storedHash(byHash.body.id)).toBe(KNOWN_HASH);
    expect(await bcrypt.compare('known password', KNOWN_HASH)).toBe(true);

    const both = await service.rest('POST', API, { username: uniqueName(), emailAddress: 'b@example.org', password: PASSWORD, passwordHash: KNOWN_HASH });
    expect(both.status).toBe(201);
    const hash = await storedHash(both.body.id);
    expect(hash).not.toBe(KNOWN_HASH);
    expect(await bcrypt.compare(PASSWORD, hash!)).toBe(true);
  });

  it('keeps the password when an update does not name it, and changes it when it does', async () => {
    const client = await createClient(service);
    const before = await storedHash(client.id);
    expect(await bcrypt.compare('operator-password', before!)).toBe(true);

    const untouched = await service.rest('PUT', clientPath(client.id), { company: 'Same password' });
    expect(untouched.status).toBe(200);
    expect(await storedHash(client.id)).toBe(before);

    expect((await service.rest('PUT', clientPath(client.id), { passwordHash: KNOWN_HASH })).status).toBe(200);
    expect(await storedHash(client.id)).toBe(KNOWN_HASH);

    const viaGraphql = await service.graphql(
      `mutation($id: ID!, $input: ClientUpdateInput!) { updateClient(id: $id, input: $input) { id company } }`,
      { id: client.id, input: { password: 'a new password' } },
    );
    expect(viaGraphql.errors).toBeUndefined();
    expect(await bcrypt.compare('a new password', (await storedHash(client.id))!)).toBe(true);
  });

  it('has no password field in GraphQL answers: asking for one is a validation error', async () => {
    const created = await service.graphql(
      `mutation($input: ClientCreateInput!) { createClient(input: $input) { ${CLIENT_FIELDS} } }`,
      { input: { username: uniqueName('gql'), emailAddress: 'g@example.org', passwordHash: KNOWN_HASH } },
    );
    expect(created.errors).toBeUndefined();
    expect(JSON.stringify(created)).not.toContain('$2');
    expect(await storedHash(created.data.createClient.id)).toBe(KNOWN_HASH);
    for (const field of ['password', 'passwordHash']) {
      const asked = await service.graphql(`query($id: ID!) { client(id: $id) { id ${field} } }`, { id: created.data.createClient.id });
      expect(asked.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    }
    const listed = await service.graphql(`query { clients { ${CLIENT_FIELDS} } }`);
    expect(JSON.stringify(listed)).not.toContain('$2');

    const missing = await service.graphql(
      `mutation($input: ClientCreateInput!) { createClient(input: $input) { id } }`,
      { input: { username: uniqueName('gql'), emailAddress: 'g@example.org' } },
    );
    expect(missing.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(missing.errors?.[0]?.extensions?.errors).toEqual([{ path: '/password', message: expect.any(String) }]);
  });
});

describe('client settings, counts and features', () => {
  it('changes only the feature switches an update sends, over REST and GraphQL', async () => {
    const client = await createClient(service, { features: { canUseIAB: false } });
    const first = await service.rest('PUT', clientPath(client.id), { features: { canUseScripts: false } });
    expect(first.status).toBe(200);
    expect(first.body.features).toEqual({ ...NEW_CLIENT.features, canUseIAB: false, canUseScripts: false });

    const second = await service.graphql(
      `mutation($id: ID!) { updateClient(id: $id, input: { features: { canUseIAB: true, moreThan2Lang: false } }) { features { ${FEATURE_FIELDS} } } }`,
      { id: client.id },
    );
    expect(second.errors).toBeUndefined();
    expect(second.data.updateClient.features).toEqual({ ...NEW_CLIENT.features, canUseScripts: false, moreThan2Lang: false });
    expect((await service.rest('GET', clientPath(client.id))).body.features).toEqual(second.data.updateClient.features);
  });

  it('round-trips every client property over GraphQL, and REST reads the same', async () => {
    const input = {
      username: uniqueName('all'),
      emailAddress: 'all@example.org',
      password: PASSWORD,
      firstName: 'Ada',
      lastName: 'Lovelace',
      company: 'Analytical Engines Ltd',
      active: true,
      domainMaxCount: -1,
      whitelabelMaxCount: 3,
      widgetDisplayMaxCount: 50000,
      autoCreateDomains: true,
      features: Object.fromEntries(CLIENT_FEATURES.map((name, i) => [name, i % 2 === 0])),
    };
    const created = await service.graphql(`mutation($input: ClientCreateInput!) { createClient(input: $input) { ${CLIENT_FIELDS} } }`, { input });
    expect(created.errors).toBeUndefined();
    const { password: _password, ...sent } = input;
    expect(created.data.createClient).toEqual({ ...NEW_CLIENT, ...sent, id: expect.any(String) });
    expect((await service.rest('GET', clientPath(created.data.createClient.id))).body).toEqual(created.data.createClient);
  });

  it('counts the domains and whitelabel domains of a client; "read all clients" adds the call counts', async () => {
    const client = await createClient(service);
    const base = `${API}/${client.id}/domain`;
    expect((await service.rest('POST', base, { name: 'a.example' })).status).toBe(201);
    expect((await service.rest('POST', base, { name: 'b.example', whitelabel: true })).status).toBe(201);
    const one = await service.rest('GET', clientPath(client.id));
    expect(one.body).toMatchObject({ domainCount: 2, whitelabelCount: 1, widgetDisplayCount: 0 });

    const listed = (await allClients()).find((c: { id: string }) => c.id === client.id);
    expect(listed).toEqual({ ...one.body, actualCallCount: 0, domainCountData: [{ domName: 'a.example', count: 0 }, { domName: 'b.example', count: 0 }] });

    const gql = await service.graphql(`query($id: ID!) { client(id: $id) { domainCount whitelabelCount widgetDisplayCount } }`, { id: client.id });
    expect(gql.data.client).toEqual({ domainCount: 2, whitelabelCount: 1, widgetDisplayCount: 0 });

    // Read-only counts sent back are ignored: read, PUT back, nothing changes.
    const back = await service.rest('PUT', clientPath(client.id), { ...one.body, domainCount: 99, whitelabelCount: 99, widgetDisplayCount: 99 });
    expect(back.status).toBe(200);
    expect(back.body).toEqual(one.body);
    expect((await service.rest('PUT', clientPath(client.id), one.body)).body).toEqual(one.body);
  });

  it("lets a client key change its contact fields and password but not its quotas or features (403)", async () => {
    const client = await createClient(service);
    const key = (await createApiKey(service, client.id, 'self')).key;
    const asClient = service.as(key);
    const read = (await asClient.rest('GET', clientPath(client.id))).body;
    expect((await asClient.rest('PUT', clientPath(client.id), { ...read, firstName: 'Self' })).status).toBe(200);
    expect((await asClient.rest('PUT', clientPath(client.id), { password: 'my own password' })).status).toBe(200);
    const before = (await service.rest('GET', clientPath(client.id))).body;
    for (const change of [{ domainMaxCount: -1 }, { whitelabelMaxCount: 5 }, { widgetDisplayMaxCount: 1 }, { features: { canUseIAB: false } }]) {
      const answer = await asClient.rest('PUT', clientPath(client.id), { company: 'x', ...change });
      expect(answer.status, JSON.stringify(change)).toBe(403);
    }
    expect((await service.rest('GET', clientPath(client.id))).body).toEqual(before);
  });
});

describe('domain quotas', () => {
  /** A client with the given quotas and its own key. */
  async function quotaClient(quotas: Record<string, number>) {
    const client = await createClient(service, quotas);
    const key = (await createApiKey(service, client.id, 'quota')).key;
    return { client, asClient: service.as(key), base: `${API}/${client.id}/domain` };
  }
  const domainsOf = async (clientId: string) => (await service.rest('GET', `${API}/${clientId}/domain`)).body as { id: string; whitelabel: boolean }[];

  it('refuses a domain beyond domainMaxCount (409 naming the quota) and stores nothing', async () => {
    const { client, asClient, base } = await quotaClient({ domainMaxCount: 2 });
    expect((await asClient.rest('POST', base, { name: 'one.example' })).status).toBe(201);
    expect((await asClient.rest('POST', base, { name: 'two.example' })).status).toBe(201);
    const before = await domainsOf(client.id);
    const refused = await asClient.rest('POST', base, { name: 'three.example' });
    expect(refused.status).toBe(409);
    expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(refused.body).toMatchObject({ type: '/problems/conflict', status: 409 });
    expect(refused.body.detail).toContain('at most 2 domains (domainMaxCount)');
    expect(await domainsOf(client.id)).toEqual(before);

    const viaGraphql = await asClient.graphql(`mutation($c: ID!) { createDomain(clientId: $c, input: { name: "four.example" }) { id } }`, { c: client.id });
    expect(viaGraphql.errors?.[0]?.extensions?.code).toBe('CONFLICT');
    expect(await domainsOf(client.id)).toEqual(before);
    expect((await service.rest('GET', clientPath(client.id))).body.domainCount).toBe(2);

    // The administrator is not held to the quotas it sets.
    expect((await service.rest('POST', base, { name: 'admin.example' })).status).toBe(201);
    expect(await domainsOf(client.id)).toHaveLength(3);
  });

  it('refuses a whitelabel domain beyond whitelabelMaxCount, on create and on update, and changes nothing', async () => {
    const { client, asClient, base } = await quotaClient({ domainMaxCount: 5, whitelabelMaxCount: 1 });
    expect((await asClient.rest('POST', base, { name: 'white.example', whitelabel: true })).status).toBe(201);
    const plain = await asClient.rest('POST', base, { name: 'plain.example' });
    expect(plain.status).toBe(201);
    const before = await domainsOf(client.id);

    const onCreate = await asClient.rest('POST', base, { name: 'white2.example', whitelabel: true });
    expect(onCreate.status).toBe(409);
    expect(onCreate.body.detail).toContain('at most 1 whitelabel domains (whitelabelMaxCount)');
    const onUpdate = await asClient.rest('PUT', `${base}/${plain.body.id}`, { whitelabel: true, country: 'DE' });
    expect(onUpdate.status).toBe(409);
    expect(onUpdate.body.detail).toContain('whitelabelMaxCount');
    expect(await domainsOf(client.id)).toEqual(before);

    // Sending back a whitelabel domain as it is is no new whitelabel domain.
    const white = before.find((d) => d.whitelabel)!;
    expect((await asClient.rest('PUT', `${base}/${white.id}`, white)).status).toBe(200);
    expect((await service.rest('PUT', `${base}/${plain.body.id}`, { whitelabel: true })).status).toBe(200);
  });

  it('lets -1 mean unlimited and 0 mean none', async () => {
    const unlimited = await quotaClient({ domainMaxCount: -1, whitelabelMaxCount: -1 });
    for (const name of ['u1.example', 'u2.example', 'u3.example']) {
      expect((await unlimited.asClient.rest('POST', unlimited.base, { name, whitelabel: true })).status).toBe(201);
    }
    const none = await quotaClient({ domainMaxCount: 0 });
    const refused = await none.asClient.rest('POST', none.base, { name: 'n.example' });
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toContain('at most 0 domains (domainMaxCount)');
  });

  it('lets only one of two concurrent creates at the edge of the quota through', async () => {
    for (let round = 0; round < 3; round++) {
      const { client, asClient, base } = await quotaClient({ domainMaxCount: 1, whitelabelMaxCount: 0 });
      const answers = await Promise.all([
        asClient.rest('POST', base, { name: 'race-a.example' }),
        asClient.rest('POST', base, { name: 'race-b.example' }),
      ]);
      expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
      expect(await domainsOf(client.id)).toHaveLength(1);
    }
  });
});

describe('client search', () => {
  const search = (term: string) => `/hosting/api/clientgetid/${encodeURIComponent(term)}`;

  it('finds a client by exact username or e-mail address (200), else 404', async () => {
    const address = `${uniqueName('mail')}@example.org`;
    const client = await createClient(service, { emailAddress: address });
    const read = (await service.rest('GET', clientPath(client.id))).body;
    const byName = await service.rest('GET', search(client.username));
    expect(byName.status).toBe(200);
    expect(byName.body).toEqual(read);
    const byMail = await service.rest('GET', search(address));
    expect(byMail.status).toBe(200);
    expect(byMail.body).toEqual(read);
    for (const term of [uniqueName('nobody'), client.username.toUpperCase(), client.username.slice(0, -1), `x${address}`]) {
      const missing = await service.rest('GET', search(term));
      expect(missing.status, term).toBe(404);
      expect(missing.body).toMatchObject({ type: '/problems/not-found', status: 404 });
    }

    const gql = await service.graphql(`query($t: String!) { clientBySearchTerm(searchTerm: $t) { ${CLIENT_FIELDS} } }`, { t: address });
    expect(gql.errors).toBeUndefined();
    expect(gql.data.clientBySearchTerm).toEqual(read);
    const none = await service.graphql(`query($t: String!) { clientBySearchTerm(searchTerm: $t) { id } }`, { t: 'nobody@example.org' });
    expect(none.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });

  it('lets a client key find only its own client', async () => {
    const own = await createClient(service, { emailAddress: `${uniqueName('own')}@example.org` });
    const other = await createClient(service, { emailAddress: `${uniqueName('other')}@example.org` });
    const asClient = service.as((await createApiKey(service, own.id, 'search')).key);
    const ownRead = (await service.rest('GET', clientPath(own.id))).body;
    expect((await asClient.rest('GET', search(own.username))).body).toEqual(ownRead);
    expect((await asClient.rest('GET', search(ownRead.emailAddress))).body).toEqual(ownRead);
    expect((await asClient.rest('GET', search(other.username))).status).toBe(404);
    const otherRead = (await service.rest('GET', clientPath(other.id))).body;
    expect((await asClient.rest('GET', search(otherRead.emailAddress))).status).toBe(404);
    const gql = await asClient.graphql(`query($t: String!) { clientBySearchTerm(searchTerm: $t) { id } }`, { t: other.username });
    expect(gql.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });
});
