import { describe, expect, it } from 'vitest';
import { requireDomain } from '../src/features/domains/domain.access.ts';
import { embeddingPayload, themePayload } from './support/fixtures.ts';
import { useServiceWithDomain } from './support/service-with-domain.ts';

/** Concurrent writers never corrupt or half-apply a write. */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const { service, domain } = useServiceWithDomain();

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
    // Each write with the statuses it may answer while the others run.
    const requests = Array.from({ length: 12 }, (_, round) => [
      ['bulk replace', [201], service.rest('PUT', `${domain.base}/placeholder`, [{ name: 'a', value: `${round}` }, { name: `b${round}`, value: 'x' }])],
      ['create placeholder', [201, 409], service.rest('POST', `${domain.base}/placeholder`, { name: 'a', value: 'created' })],
      ['update placeholder', [200, 404], service.rest('PUT', `${domain.base}/placeholder/a`, { value: `updated ${round}` })],
      ['delete placeholder', [204, 404], service.rest('DELETE', `${domain.base}/placeholder/a`)],
      ['make a theme default', [200], service.rest('PUT', `${domain.base}/theme/${themes[round % 4]}`, { default: true })],
      ['create a theme', [201], service.rest('POST', `${domain.base}/theme`, themePayload({ name: `new ${round}`, default: round % 2 === 0 }))],
      ['create an asset', [201], service.rest('POST', `${domain.base}/embedding/${embedding.id}/asset`, { name: `cookie_${round}` })],
      ['replace the assets', [200], service.rest('PUT', `${domain.base}/embedding/${embedding.id}`, { assets: [{ name: `only_${round}` }] })],
      ['update the domain', [200], service.rest('PUT', domain.base, { country: round % 2 ? 'DE' : 'FR' })],
    ] as const).flat();
    // An answer the OpenAPI document does not describe rejects; it counts as unexpected too.
    const answers = await Promise.all(
      requests.map(([what, allowed, pending]) =>
        pending.then(
          (answer) => ((allowed as readonly number[]).includes(answer.status) ? undefined : `${what}: ${answer.status} ${answer.text}`),
          (error: unknown) => `${what}: ${String(error)}`,
        ),
      ),
    );
    expect(answers.filter(Boolean)).toEqual([]);
    const stored = (await service.rest('GET', `${domain.base}/theme`)).body as { default: boolean }[];
    expect(stored.filter((theme) => theme.default)).toHaveLength(1);
    const placeholders = (await service.rest('GET', `${domain.base}/placeholder`)).body as { name: string }[];
    expect(new Set(placeholders.map((p) => p.name)).size).toBe(placeholders.length);
  });

  /** Locks the domain's row as a bulk replace does first, and keeps the transaction open until released. */
  async function holdDomainLock(): Promise<() => Promise<void>> {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let holding!: Promise<unknown>;
    await new Promise<void>((locked) => {
      holding = service.database.orm.em.fork().transactional(async (em) => {
        await requireDomain({ em, caller: { kind: 'admin' }, lock: true }, domain);
        locked();
        await held;
      });
    });
    return async () => {
      release();
      await holding;
    };
  }
  const statusWithin = (answer: Promise<{ status: number }>, ms: number) =>
    Promise.race([answer.then((a) => a.status), sleep(ms).then(() => 'still waiting' as const)]);

  // A server only: the embedded database has one connection, which the held lock would occupy.
  it.skipIf(!process.env.DATABASE_URL)(
    'every write of a domain queues behind a writer holding it (its revision must see the other), and a visitor’s consent record does not',
    async () => {
      const release = await holdDomainLock();
      const created = service.rest('POST', `${domain.base}/theme`, themePayload({ name: 'while-locked', default: false }));
      try {
        expect(await statusWithin(created, 1_000)).toBe('still waiting');
        // Its foreign-key check takes a key-share lock on the domain's row, which FOR NO KEY UPDATE lets through.
        const revisions = await service.rest('GET', `${domain.base}/revision?limit=1`);
        const recorded = fetch(`${service.baseUrl}/consent`, {
          method: 'POST',
          headers: { 'content-type': 'text/plain' },
          body: JSON.stringify({
            domain: domain.domainId,
            consentId: crypto.randomUUID(),
            choice: 'necessary',
            categories: ['necessary'],
            services: [],
            revision: revisions.body.revisions[0].hash,
            locale: 'de_DE',
            url: 'https://www.example.org/',
          }),
        }).then((answer) => ({ status: answer.status }));
        expect(await statusWithin(recorded, 3_000)).toBe(201);
      } finally {
        await release();
      }
      expect((await created).status).toBe(201);
    },
  );

  it.skipIf(!process.env.DATABASE_URL)(
    'a placeholder create queues behind a writer holding the domain, so a bulk replace never finds its names taken half-way',
    async () => {
      const release = await holdDomainLock();
      const created = service.rest('POST', `${domain.base}/placeholder`, { name: 'queued', value: 'x' });
      try {
        expect(await statusWithin(created, 1_000)).toBe('still waiting');
      } finally {
        await release();
      }
      expect((await created).status).toBe(201);
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

  it("parallel creates of an embedding's assets each append after the last: every one kept, the positions 0 to n-1", async () => {
    const embedding = (await service.rest('POST', `${domain.base}/embedding`, embeddingPayload({ assets: [] }))).body;
    const names = Array.from({ length: 12 }, (_, i) => `appended_${i}`);
    const answers = await Promise.all(names.map((name) => service.rest('POST', `${domain.base}/embedding/${embedding.id}/asset`, { name })));
    expect(answers.map((a) => a.status)).toEqual(names.map(() => 201));
    const assets = (await service.rest('GET', `${domain.base}/embedding/${embedding.id}/asset`)).body as { name: string }[];
    expect(assets.map((asset) => asset.name).sort()).toEqual([...names].sort());
    // Each read the last position after the one before it committed: no two took the same one.
    const stored = await service.database.orm.em
      .fork()
      .execute<{ position: number }[]>(`select "position" from "embedding_asset" where "embedding_id" = ? order by "position"`, [embedding.id]);
    expect(stored.map((row) => row.position)).toEqual(names.map((_, i) => i));
  });
});
