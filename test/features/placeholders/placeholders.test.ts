import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dotHeavyName } from '../../support/arbitraries.ts';
import { createDomain, domainState, unknownId } from '../../support/fixtures.ts';
import { useServiceWithDomain } from '../../support/service-with-domain.ts';

const { service, domain } = useServiceWithDomain();

const GQL_SCOPE = 'clientId: $clientId, domainId: $domainId';
const scope = () => ({ clientId: domain.clientId, domainId: domain.domainId });

describe('placeholders over REST', () => {
  it('creates (201), reads one (200), reads all (200), updates (200) and deletes (204)', async () => {
    const created = await service.rest('POST', `${domain.base}/placeholder`, { name: 'company_name', value: 'ACME' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ name: 'company_name', value: 'ACME' });

    const one = await service.rest('GET', `${domain.base}/placeholder/company_name`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ name: 'company_name', value: 'ACME' });

    await service.rest('POST', `${domain.base}/placeholder`, { name: 'imprint.url', value: 'https://acme.example/imprint' });
    const all = await service.rest('GET', `${domain.base}/placeholder`);
    expect(all.status).toBe(200);
    expect(all.body).toEqual([
      { name: 'company_name', value: 'ACME' },
      { name: 'imprint.url', value: 'https://acme.example/imprint' },
    ]);

    const updated = await service.rest('PUT', `${domain.base}/placeholder/company_name`, { value: 'ACME GmbH' });
    expect(updated.status).toBe(200);
    expect(updated.body).toEqual({ name: 'company_name', value: 'ACME GmbH' });

    const deleted = await service.rest('DELETE', `${domain.base}/placeholder/company_name`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await service.rest('GET', `${domain.base}/placeholder/company_name`)).status).toBe(404);
  });

  it('takes back what it sent: read, change the value, PUT the whole object back', async () => {
    await service.rest('POST', `${domain.base}/placeholder`, { name: 'greeting', value: 'Hallo' });
    const read = (await service.rest('GET', `${domain.base}/placeholder/greeting`)).body;
    const answer = await service.rest('PUT', `${domain.base}/placeholder/greeting`, { ...read, value: 'Hello' });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ name: 'greeting', value: 'Hello' });
  });

  it('bulk replace makes the list exactly the items sent, in order (201)', async () => {
    await service.rest('POST', `${domain.base}/placeholder`, { name: 'old', value: 'gone soon' });
    await service.rest('POST', `${domain.base}/placeholder`, { name: 'kept', value: 'before' });
    const items = [
      { name: 'kept', value: 'after' },
      { name: 'a-new-one', value: '' },
      { name: 'Z.9', value: 'ünïcödé ✓' },
    ];
    const replaced = await service.rest('PUT', `${domain.base}/placeholder`, items);
    expect(replaced.status).toBe(201);
    expect(replaced.body).toEqual(items);
    expect((await service.rest('GET', `${domain.base}/placeholder`)).body).toEqual(items);

    const emptied = await service.rest('PUT', `${domain.base}/placeholder`, []);
    expect(emptied.status).toBe(201);
    expect((await service.rest('GET', `${domain.base}/placeholder`)).body).toEqual([]);
  });

  it('refuses a bad item in a bulk replace with 400 and stores none of the items', async () => {
    await service.rest('POST', `${domain.base}/placeholder`, { name: 'survivor', value: 'still here' });
    const before = await domainState(service, domain);
    const answer = await service.rest('PUT', `${domain.base}/placeholder`, [
      { name: 'fine', value: 'x' },
      { name: 'bad name!', value: 'x' },
      { name: 'fine', value: 'duplicate' },
    ]);
    expect(answer.status).toBe(400);
    expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(answer.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['/1/name', '/2/name']);
    expect(await domainState(service, domain)).toEqual(before);
  });

  it.each([
    ['a name with a space', { name: 'two words', value: 'x' }, '/name'],
    ['an empty name', { name: '', value: 'x' }, '/name'],
    ['a name of 101 characters', { name: 'n'.repeat(101), value: 'x' }, '/name'],
    ['no value', { name: 'v' }, '/value'],
    ['a value that is not a string', { name: 'v', value: 42 }, '/value'],
    ['an unknown property', { name: 'v', value: 'x', colour: 'red' }, '/colour'],
    ['a NUL character', { name: 'v', value: 'a\u0000b' }, '/value'],
  ])('answers 400 for %s and lists the field', async (_, payload, pointer) => {
    const before = await domainState(service, domain);
    const answer = await service.rest('POST', `${domain.base}/placeholder`, payload);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ type: '/problems/validation', title: 'Bad Request', status: 400 });
    expect(answer.body.errors).toContainEqual({ path: pointer, message: expect.any(String) });
    expect(await domainState(service, domain)).toEqual(before);
  });

  it('accepts a name of exactly 100 characters', async () => {
    const name = `${'a'.repeat(97)}_.-`;
    expect((await service.rest('POST', `${domain.base}/placeholder`, { name, value: '' })).status).toBe(201);
  });

  it('keeps names unique per domain: a second create is 409, another domain may reuse the name', async () => {
    await service.rest('POST', `${domain.base}/placeholder`, { name: 'shared', value: 'one' });
    const again = await service.rest('POST', `${domain.base}/placeholder`, { name: 'shared', value: 'two' });
    expect(again.status).toBe(409);
    expect(again.body.type).toBe('/problems/conflict');
    const other = await createDomain(service, 'other.example');
    expect((await service.rest('POST', `${other.base}/placeholder`, { name: 'shared', value: 'x' })).status).toBe(201);
    expect((await service.rest('GET', `${domain.base}/placeholder/shared`)).body.value).toBe('one');
  });

  it('does not rename: a different name in an update is 400', async () => {
    await service.rest('POST', `${domain.base}/placeholder`, { name: 'fixed', value: 'v' });
    const answer = await service.rest('PUT', `${domain.base}/placeholder/fixed`, { name: 'moved', value: 'w' });
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual([{ path: '/name', message: expect.stringContaining('fixed') }]);
    expect((await service.rest('GET', `${domain.base}/placeholder/fixed`)).body.value).toBe('v');
  });

  it('answers 404 for an unknown placeholder, domain or client, also when creating', async () => {
    expect((await service.rest('GET', `${domain.base}/placeholder/nothing`)).status).toBe(404);
    expect((await service.rest('PUT', `${domain.base}/placeholder/nothing`, { value: 'x' })).status).toBe(404);
    expect((await service.rest('DELETE', `${domain.base}/placeholder/nothing`)).status).toBe(404);
    const noDomain = `/hosting/api/client/${domain.clientId}/domain/${unknownId()}`;
    const noClient = `/hosting/api/client/${unknownId()}/domain/${domain.domainId}`;
    for (const base of [noDomain, noClient, '/hosting/api/client/not-an-id/domain/also-not']) {
      expect((await service.rest('POST', `${base}/placeholder`, { name: 'x', value: 'y' })).status).toBe(404);
      expect((await service.rest('PUT', `${base}/placeholder`, [])).status).toBe(404);
      expect((await service.rest('GET', `${base}/placeholder`)).status).toBe(404);
    }
    const problem = (await service.rest('GET', `${noDomain}/placeholder`)).body;
    expect(problem).toMatchObject({ type: '/problems/not-found', status: 404, detail: expect.stringContaining('domain') });
  });

  it('refuses "." and ".." as names (URLs read them as path steps: DELETE …/placeholder/.. would delete the domain)', async () => {
    await service.rest('POST', `${domain.base}/placeholder`, { name: 'kept', value: 'v' });
    const before = await domainState(service, domain);
    for (const name of ['.', '..']) {
      const created = await service.rest('POST', `${domain.base}/placeholder`, { name, value: 'x' });
      expect(created.status, name).toBe(400);
      expect(created.body.errors).toEqual([{ path: '/name', message: expect.stringContaining('path steps') }]);
      const replaced = await service.rest('PUT', `${domain.base}/placeholder`, [{ name: 'fine', value: '1' }, { name, value: '2' }]);
      expect(replaced.status, name).toBe(400);
      expect(replaced.body.errors).toEqual([{ path: '/1/name', message: expect.stringContaining('path steps') }]);
      const viaGraphql = await service.graphql(
        `mutation($clientId: ID!, $domainId: ID!, $name: String!) { createPlaceholder(${GQL_SCOPE}, input: { name: $name, value: "x" }) { name } }`,
        { ...scope(), name },
      );
      expect(viaGraphql.errors?.[0]?.extensions?.code, name).toBe('BAD_USER_INPUT');
    }
    expect(await domainState(service, domain)).toEqual(before);
  });

  it('every name it accepts is addressed by its own URL after the client normalises it, never by another resource', async () => {
    // Dots are the characters URL parsers treat specially; the generator leans on them.
    await fc.assert(
      fc.asyncProperty(dotHeavyName, async (name) => {
        const created = await service.rest('POST', `${domain.base}/placeholder`, { name, value: name });
        if (created.status !== 201) {
          expect(created.status, name).toBe(400);
          expect(['.', '..'], 'only the two dot segments are refused').toContain(name);
          return;
        }
        // What fetch, curl and browsers send for the placeholder's address.
        const address = new URL(`${service.baseUrl}${domain.base}/placeholder/${encodeURIComponent(name)}`);
        expect(address.pathname, name).toBe(`${domain.base}/placeholder/${encodeURIComponent(name)}`);
        expect((await service.rest('GET', address.pathname)).body, name).toEqual({ name, value: name });
        expect((await service.rest('DELETE', address.pathname)).status, name).toBe(204);
        expect((await service.rest('GET', domain.base)).status, 'the domain is still there').toBe(200);
      }),
      { numRuns: 60 },
    );
  });

  it("never shows another domain's placeholder through the wrong path", async () => {
    const other = await createDomain(service, 'elsewhere.example');
    await service.rest('POST', `${other.base}/placeholder`, { name: 'secret', value: 'theirs' });
    expect((await service.rest('GET', `${domain.base}/placeholder/secret`)).status).toBe(404);
    expect((await service.rest('DELETE', `${domain.base}/placeholder/secret`)).status).toBe(404);
    expect((await service.rest('GET', `${other.base}/placeholder/secret`)).body.value).toBe('theirs');
  });
});

describe('placeholders over GraphQL', () => {
  it('creates, lists, reads, updates, replaces and deletes through the Domain', async () => {
    const created = await service.graphql(
      `mutation($clientId: ID!, $domainId: ID!) { createPlaceholder(${GQL_SCOPE}, input: { name: "brand", value: "ACME" }) { name value } }`,
      scope(),
    );
    expect(created.errors).toBeUndefined();
    expect(created.data.createPlaceholder).toEqual({ name: 'brand', value: 'ACME' });

    const updated = await service.graphql(
      `mutation($clientId: ID!, $domainId: ID!) { updatePlaceholder(${GQL_SCOPE}, name: "brand", input: { value: "ACME AG" }) { value } }`,
      scope(),
    );
    expect(updated.data.updatePlaceholder.value).toBe('ACME AG');

    const read = await service.graphql(
      `query($clientId: ID!, $id: ID!) { domain(clientId: $clientId, id: $id) { placeholders { name value } placeholder(name: "brand") { value } } }`,
      { clientId: domain.clientId, id: domain.domainId },
    );
    expect(read.data.domain).toEqual({ placeholders: [{ name: 'brand', value: 'ACME AG' }], placeholder: { value: 'ACME AG' } });

    const replaced = await service.graphql(
      `mutation($clientId: ID!, $domainId: ID!, $items: [PlaceholderInput!]!) { replacePlaceholders(${GQL_SCOPE}, placeholders: $items) { name value } }`,
      { ...scope(), items: [{ name: 'x', value: '1' }, { name: 'y', value: '2' }] },
    );
    expect(replaced.data.replacePlaceholders).toEqual([{ name: 'x', value: '1' }, { name: 'y', value: '2' }]);
    // What GraphQL wrote, REST reads.
    expect((await service.rest('GET', `${domain.base}/placeholder`)).body).toEqual(replaced.data.replacePlaceholders);

    const deleted = await service.graphql(
      `mutation($clientId: ID!, $domainId: ID!) { deletePlaceholder(${GQL_SCOPE}, name: "x") }`,
      scope(),
    );
    expect(deleted.data.deletePlaceholder).toBe('x');
    expect((await service.rest('GET', `${domain.base}/placeholder/x`)).status).toBe(404);
  });

  it('reports bad input as BAD_USER_INPUT with the same errors list as REST, and stores nothing', async () => {
    const before = await domainState(service, domain);
    const items = [{ name: 'ok', value: '1' }, { name: 'not ok', value: '2' }];
    const viaGraphql = await service.graphql(
      `mutation($clientId: ID!, $domainId: ID!, $items: [PlaceholderInput!]!) { replacePlaceholders(${GQL_SCOPE}, placeholders: $items) { name } }`,
      { ...scope(), items },
    );
    const viaRest = await service.rest('PUT', `${domain.base}/placeholder`, items);
    expect(viaGraphql.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(viaGraphql.errors?.[0]?.extensions?.errors).toEqual(viaRest.body.errors);
    expect(await domainState(service, domain)).toEqual(before);
  });

  it('answers NOT_FOUND for an unknown placeholder or domain', async () => {
    const missing = await service.graphql(
      `query($clientId: ID!, $id: ID!) { domain(clientId: $clientId, id: $id) { placeholder(name: "nope") { value } } }`,
      { clientId: domain.clientId, id: domain.domainId },
    );
    expect(missing.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    const noDomain = await service.graphql(
      `mutation($clientId: ID!, $domainId: ID!) { createPlaceholder(${GQL_SCOPE}, input: { name: "a", value: "b" }) { name } }`,
      { clientId: domain.clientId, domainId: unknownId() },
    );
    expect(noDomain.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });

  it('answers CONFLICT for a duplicate name', async () => {
    const create = `mutation($clientId: ID!, $domainId: ID!) { createPlaceholder(${GQL_SCOPE}, input: { name: "twice", value: "b" }) { name } }`;
    expect((await service.graphql(create, scope())).errors).toBeUndefined();
    expect((await service.graphql(create, scope())).errors?.[0]?.extensions?.code).toBe('CONFLICT');
  });
});
