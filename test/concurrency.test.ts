import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { requireDomain } from '../src/features/domains/domain.scope.ts';
import { createDomain, type DomainPath, embeddingPayload, themePayload } from './support/fixtures.ts';
import { startTestService, type TestService } from './support/service.ts';

/** Concurrent writers never corrupt or half-apply a write. */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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

  it('mixed writers on one domain (bulk replace, create, update, delete, new default theme) all get a documented answer', async () => {
    const themes: string[] = [];
    for (let i = 0; i < 4; i++) themes.push((await service.rest('POST', `${domain.base}/theme`, themePayload({ name: `t${i}` }))).body.id);
    const embedding = (await service.rest('POST', `${domain.base}/embedding`, embeddingPayload())).body;
    const requests = Array.from({ length: 12 }, (_, round) => [
      service.rest('PUT', `${domain.base}/placeholder`, [{ name: 'a', value: `${round}` }, { name: `b${round}`, value: 'x' }]),
      service.rest('POST', `${domain.base}/placeholder`, { name: 'a', value: 'created' }),
      service.rest('PUT', `${domain.base}/placeholder/a`, { value: `updated ${round}` }),
      service.rest('DELETE', `${domain.base}/placeholder/a`),
      service.rest('PUT', `${domain.base}/theme/${themes[round % 4]}`, { default: true }),
      service.rest('POST', `${domain.base}/theme`, themePayload({ name: `new ${round}`, default: round % 2 === 0 })),
      service.rest('POST', `${domain.base}/embedding/${embedding.id}/asset`, { name: `cookie_${round}` }),
      service.rest('PUT', `${domain.base}/embedding/${embedding.id}`, { assets: [{ name: `only_${round}` }] }),
      service.rest('PUT', domain.base, { country: round % 2 ? 'DE' : 'FR' }),
    ]).flat();
    const answers = await Promise.all(requests);
    const unexpected = answers.filter((answer) => ![200, 201, 204, 404, 409].includes(answer.status));
    expect(unexpected.map((answer) => `${answer.status} ${answer.text}`)).toEqual([]);
    const stored = (await service.rest('GET', `${domain.base}/theme`)).body as { default: boolean }[];
    expect(stored.filter((theme) => theme.default)).toHaveLength(1);
    const placeholders = (await service.rest('GET', `${domain.base}/placeholder`)).body as { name: string }[];
    expect(new Set(placeholders.map((p) => p.name)).size).toBe(placeholders.length);
  });

  // A server only: the embedded database has one connection, which the held lock would occupy.
  it.skipIf(!process.env.DATABASE_URL)(
    'a create under a domain does not wait for a writer holding the domain, so the two cannot deadlock',
    async () => {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let holding!: Promise<unknown>;
      // What a bulk replace does first: lock the domain's row, then keep the transaction open.
      await new Promise<void>((locked) => {
        holding = service.database.orm.em.fork().transactional(async (em) => {
          await requireDomain({ em, caller: { kind: 'admin' }, lock: true }, domain);
          locked();
          await held;
        });
      });
      try {
        // Its foreign-key check needs a key-share lock on the domain's row: compatible with the writer's.
        const created = service.rest('POST', `${domain.base}/placeholder`, { name: 'while-locked', value: 'x' });
        const outcome = await Promise.race([created.then((answer) => answer.status), sleep(3_000).then(() => 'still waiting')]);
        expect(outcome).toBe(201);
      } finally {
        release();
        await holding;
      }
    },
  );

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
