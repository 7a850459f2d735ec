import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDomain, type DomainPath, embeddingPayload, themePayload } from './support/fixtures.ts';
import { startTestService, type TestService } from './support/service.ts';

/** Concurrent writers never corrupt or half-apply a write. */

let service: TestService;
let domain: DomainPath;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());
beforeEach(async () => {
  domain = await createDomain(service);
});

describe('concurrent writes', () => {
  it('50 parallel requests making different themes default leave exactly one default', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 50; i++) {
      ids.push((await service.rest('POST', `${domain.base}/theme`, themePayload({ name: `theme ${i}` }))).body.id);
    }
    const answers = await Promise.all(
      ids.map((id) => service.rest('PUT', `${domain.base}/theme/${id}`, { default: true })),
    );
    expect(answers.map((a) => a.status)).toEqual(ids.map(() => 200));
    const themes = (await service.rest('GET', `${domain.base}/theme`)).body as { default: boolean }[];
    expect(themes.filter((theme) => theme.default)).toHaveLength(1);
  });

  it('parallel creates of the same placeholder name leave one (one 201, the rest 409)', async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => service.rest('POST', `${domain.base}/placeholder`, { name: 'race', value: `${i}` })),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    const stored = (await service.rest('GET', `${domain.base}/placeholder`)).body;
    expect(stored).toHaveLength(1);
  });

  it('parallel bulk replaces leave exactly one of the lists sent, never a mix', async () => {
    const lists = Array.from({ length: 10 }, (_, i) =>
      Array.from({ length: 25 }, (__, j) => ({ name: `p${j}`, value: `list ${i}` })),
    );
    const answers = await Promise.all(lists.map((items) => service.rest('PUT', `${domain.base}/placeholder`, items)));
    expect(answers.map((a) => a.status)).toEqual(lists.map(() => 201));
    const stored = (await service.rest('GET', `${domain.base}/placeholder`)).body;
    expect(lists).toContainEqual(stored);
  });

  it("parallel updates replacing an embedding's assets leave exactly one of the sets sent", async () => {
    const embedding = (await service.rest('POST', `${domain.base}/embedding`, embeddingPayload())).body;
    const sets = Array.from({ length: 10 }, (_, i) =>
      Array.from({ length: 5 }, (__, j) => ({ name: `cookie_${i}_${j}` })),
    );
    const answers = await Promise.all(
      sets.map((assets) => service.rest('PUT', `${domain.base}/embedding/${embedding.id}`, { assets })),
    );
    expect(answers.map((a) => a.status)).toEqual(sets.map(() => 200));
    const names = (await service.rest('GET', `${domain.base}/embedding/${embedding.id}/asset`)).body.map(
      (asset: { name: string }) => ({ name: asset.name }),
    );
    expect(sets).toContainEqual(names);
  });
});
