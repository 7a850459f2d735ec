import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, createDomain } from '../../support/fixtures.ts';
import { startTestService, type TestService } from '../../support/service.ts';

/**
 * `managementStructure`: CCM19 asks per embedding; its per-cookie structure `cookie` is outdated
 * and has no API endpoints. Writing `cookie` is refused with a 400 that says so; a value stored
 * before reads (and acts) as `embedding`, so reading a domain and writing it back still works.
 */

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

const storeDirectly = (domainId: string, value: string) =>
  service.database.orm.em.fork().getConnection().execute(`update "domain" set "management_structure" = ? where "id" = ?`, [value, domainId]);

const storedValue = async (domainId: string) =>
  (await service.database.orm.em.fork().getConnection().execute<{ v: string }[]>(`select "management_structure" as v from "domain" where "id" = ?`, [domainId]))[0]!.v;

describe('managementStructure', () => {
  it('REST: a create or update with `cookie` is refused with a 400 that explains it; `embedding` is taken', async () => {
    const { clientId, base, domainId } = await createDomain(service, 'www.struktur.de');
    const created = await service.rest('POST', `${API}/${clientId}/domain`, { name: 'cookie.struktur.de', managementStructure: 'cookie' });
    expect(created.status).toBe(400);
    const problem = created.body.errors.find((error: { path: string }) => error.path === '/managementStructure');
    expect(problem.message).toMatch(/outdated/);
    expect(problem.message).toMatch(/embedding/);

    const updated = await service.rest('PUT', base, { managementStructure: 'cookie' });
    expect(updated.status).toBe(400);
    expect(updated.text).toContain('outdated');
    expect(await storedValue(domainId)).toBe('embedding');

    const fine = await service.rest('PUT', base, { managementStructure: 'embedding' });
    expect(fine.status, fine.text).toBe(200);
    expect(fine.body.managementStructure).toBe('embedding');
    expect((await service.rest('GET', `${API}/${clientId}/domain`)).body.map((d: { name: string }) => d.name)).toEqual(['www.struktur.de']);
  });

  it('GraphQL: `cookie` is refused as bad input with the same explanation', async () => {
    const { clientId, domainId } = await createDomain(service, 'www.graph-struktur.de');
    const create = await service.graphql(`mutation($clientId: ID!) { createDomain(clientId: $clientId, input: { name: "x.graph-struktur.de", managementStructure: "cookie" }) { id } }`, { clientId });
    expect(create.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(JSON.stringify(create.errors)).toContain('outdated');
    const update = await service.graphql(`mutation($clientId: ID!, $id: ID!) { updateDomain(clientId: $clientId, id: $id, input: { managementStructure: "cookie" }) { id } }`, {
      clientId,
      id: domainId,
    });
    expect(update.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(await storedValue(domainId)).toBe('embedding');
  });

  it('a domain that stored `cookie` before reads as `embedding` (REST and GraphQL), and a read sent back is taken', async () => {
    const { clientId, domainId, base } = await createDomain(service, 'www.alt-struktur.de');
    await storeDirectly(domainId, 'cookie');
    const read = await service.rest('GET', base);
    expect(read.body.managementStructure).toBe('embedding');
    const graph = await service.graphql(`query($clientId: ID!, $id: ID!) { client(id: $clientId) { domain(id: $id) { managementStructure } } }`, { clientId, id: domainId });
    expect(graph.errors).toBeUndefined();
    expect(graph.data.client.domain.managementStructure).toBe('embedding');

    const { id: _id, ...payload } = read.body;
    const back = await service.rest('PUT', base, payload);
    expect(back.status, back.text).toBe(200);
    expect(await storedValue(domainId)).toBe('embedding');
  });
});
