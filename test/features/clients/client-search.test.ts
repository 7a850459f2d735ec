import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, createApiKey, createClient } from '../../support/fixtures.ts';
import { startTestService, type TestService } from '../../support/service.ts';

/**
 * CCM19's client search (`clientgetid`) finds a client by its e-mail address in any case, as
 * mail systems treat addresses; "read all clients" sends each domain's loads as `{ domName, count }`.
 */
let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

const search = (term: string) => `/hosting/api/clientgetid/${encodeURIComponent(term)}`;

describe('client search by e-mail address', () => {
  it('matches the address in any case (REST and GraphQL), the username still exactly', async () => {
    const local = `Mixed.Case-${randomUUID()}`;
    const client = await createClient(service, { emailAddress: `${local}@Example.ORG` });
    const read = (await service.rest('GET', `${API}/${client.id}`)).body;
    for (const term of [`${local}@Example.ORG`, `${local.toLowerCase()}@example.org`, `${local.toUpperCase()}@EXAMPLE.ORG`]) {
      const found = await service.rest('GET', search(term));
      expect(found.status, term).toBe(200);
      expect(found.body).toEqual(read);
      const gql = await service.graphql(`query($t: String!) { clientBySearchTerm(searchTerm: $t) { id emailAddress } }`, { t: term });
      expect(gql.errors).toBeUndefined();
      expect(gql.data.clientBySearchTerm).toEqual({ id: client.id, emailAddress: `${local}@Example.ORG` });
    }
    // Not a pattern: `_` and `%` match only themselves.
    expect((await service.rest('GET', search(`${local.slice(0, -1)}_@example.org`))).status).toBe(404);
    expect((await service.rest('GET', search(`%@example.org`))).status).toBe(404);
    expect((await service.rest('GET', search(client.username.toUpperCase()))).status).toBe(404);
  });

  it('lets a client key find its own client by its address in any case, and no other', async () => {
    const own = await createClient(service, { emailAddress: `own-${randomUUID()}@example.org` });
    const other = await createClient(service, { emailAddress: `other-${randomUUID()}@example.org` });
    const ownRead = (await service.rest('GET', `${API}/${own.id}`)).body;
    const otherRead = (await service.rest('GET', `${API}/${other.id}`)).body;
    const asClient = service.as((await createApiKey(service, own.id, 'search')).key);
    expect((await asClient.rest('GET', search(ownRead.emailAddress.toUpperCase()))).body).toEqual(ownRead);
    expect((await asClient.rest('GET', search(otherRead.emailAddress.toUpperCase()))).status).toBe(404);
  });

  it('finds the first client by id when several share an address in different cases', async () => {
    const address = `shared-${randomUUID()}@example.org`;
    const a = await createClient(service, { emailAddress: address });
    const b = await createClient(service, { emailAddress: address.toUpperCase() });
    const first = [a.id, b.id].sort()[0];
    expect((await service.rest('GET', search(address))).body.id).toBe(first);
    expect((await service.rest('GET', search(address.toUpperCase()))).body.id).toBe(first);
  });
});

describe('domainCountData', () => {
  it('lists each domain of the client as { domName, count }, ordered by name, in the OpenAPI shape', async () => {
    const client = await createClient(service);
    for (const name of ['b.example', 'a.example']) expect((await service.rest('POST', `${API}/${client.id}/domain`, { name })).status).toBe(201);
    const listed = (await service.rest('GET', API)).body.find((one: { id: string }) => one.id === client.id);
    expect(listed.domainCountData).toEqual([
      { domName: 'a.example', count: 0 },
      { domName: 'b.example', count: 0 },
    ]);
    const empty = await createClient(service);
    expect((await service.rest('GET', API)).body.find((one: { id: string }) => one.id === empty.id).domainCountData).toEqual([]);

    const openApi = (await (await fetch(`${service.baseUrl}/openapi.json`)).json()) as { components: { schemas: Record<string, any> } };
    const { domainCountData } = openApi.components.schemas.ClientListItem.properties;
    expect(domainCountData.items.$ref ?? '').toMatch(/DomainCallCount$/);
    expect(openApi.components.schemas.DomainCallCount.required.sort()).toEqual(['count', 'domName']);
    expect(domainCountData.description).toMatch(/domName/);
  });
});
