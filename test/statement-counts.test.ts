import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { API, createDomain, type DomainPath, embeddingPayload, themePayload } from './support/fixtures.ts';
import { startTestService, type TestService } from './support/service.ts';
import { compileSelections } from '../src/graphql/selection-sql/index.ts';

/**
 * SQL statements per request are deterministic and must not grow with the data (no N+1):
 * measured with the ORM's statement counter around single requests, at several sizes.
 */

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

/** The statements of one request, its revision round included (a write is answered before the round stores). */
async function statementsOf(request: () => Promise<{ status: number; errors?: unknown }>): Promise<number> {
  await service.services.revisions.drain();
  const before = service.database.statements.total;
  const answer = await request();
  expect(answer.status).toBeLessThan(300);
  expect(answer.errors).toBeUndefined();
  await service.services.revisions.drain();
  return service.database.statements.total - before;
}

/** A client with `domains` domains, each with `size` embeddings (10 assets each), themes and placeholders. */
async function seed(domains: number, size: number): Promise<DomainPath[]> {
  const first = await createDomain(service);
  const paths = [first];
  for (let i = 1; i < domains; i++) {
    const domain = (await service.rest('POST', `${API}/${first.clientId}/domain`, { name: `d${i}.example` })).body;
    paths.push({ clientId: first.clientId, domainId: domain.id, base: `${API}/${first.clientId}/domain/${domain.id}` });
  }
  const assets = Array.from({ length: 10 }, (_, i) => ({ name: `cookie_${i}` }));
  for (const path of paths) {
    for (let i = 0; i < size; i++) {
      await service.rest('POST', `${path.base}/embedding`, embeddingPayload({ name: `service ${i}`, assets }));
    }
    await service.rest('POST', `${path.base}/theme`, themePayload());
    await service.rest('PUT', `${path.base}/placeholder`, Array.from({ length: size }, (_, i) => ({ name: `p${i}`, value: 'v' })));
    // Beside de_DE and en_US, which every new domain has: `size` more locales (qa, qb, …).
    for (let i = 0; i < size; i++) {
      const added = await service.rest('POST', `${path.base}/locale`, { name: `q${String.fromCharCode(97 + i)}` });
      expect(added.status).toBe(201);
    }
  }
  return paths;
}

const WHOLE_DOMAIN = `query($c: ID!, $d: ID!) { domain(clientId: $c, id: $d) {
  name placeholders { name value } themes { id name default }
  embeddings { id name purpose translations { locale name } assets { id name storageType } } } }`;
const WHOLE_CLIENT = `query($c: ID!) { client(id: $c) { username domains {
  name placeholders { name } themes { name } embeddings { name assets { name } } } } }`;
const WHOLE_DOMAIN_WITH_LOCALES = `query($c: ID!, $d: ID!) { domain(clientId: $c, id: $d) {
  name locales placeholders { name value } themes { id name default }
  embeddings { id name assets { id name } }
  localeTexts { name active widgetTitle widgetIntroText purposeNames { purpose text } } } }`;
const WHOLE_CLIENT_WITH_LOCALES = `query($c: ID!) { client(id: $c) { username domains {
  name placeholders { name } themes { name } embeddings { name assets { name } } localeTexts { name widgetTitle } } } }`;

describe('statements per request stay the same whatever the size', () => {
  const sizes = [1, 5, 25];
  const counts: Record<string, number[]> = {};
  beforeAll(async () => {
    for (const size of sizes) {
      const [domain] = await seed(3, size);
      const one = (await service.rest('GET', `${domain!.base}/embedding`)).body[0];
      const theme = (await service.rest('GET', `${domain!.base}/theme`)).body[0];
      const asset = one.assets[0];
      const measure = async (label: string, request: () => Promise<{ status: number; errors?: unknown }>) => {
        (counts[label] ??= []).push(await statementsOf(request));
      };
      await measure('REST read one embedding', () => service.rest('GET', `${domain!.base}/embedding/${one.id}`));
      await measure('REST read all embeddings', () => service.rest('GET', `${domain!.base}/embedding`));
      await measure('REST read all placeholders', () => service.rest('GET', `${domain!.base}/placeholder`));
      await measure('REST read one placeholder', () => service.rest('GET', `${domain!.base}/placeholder/p0`));
      await measure('REST read one theme', () => service.rest('GET', `${domain!.base}/theme/${theme.id}`));
      await measure('REST read all themes', () => service.rest('GET', `${domain!.base}/theme`));
      await measure('REST read all assets of an embedding', () => service.rest('GET', `${domain!.base}/embedding/${one.id}/asset`));
      await measure('REST read one asset', () => service.rest('GET', `${domain!.base}/embedding/${one.id}/asset/${asset.id}`));
      await measure('REST read one domain', () => service.rest('GET', domain!.base));
      await measure('REST read all domains of the client', () => service.rest('GET', `${API}/${domain!.clientId}/domain`));
      await measure('REST bulk replace of the placeholders', () =>
        service.rest('PUT', `${domain!.base}/placeholder`, Array.from({ length: size * 4 }, (_, i) => ({ name: `n${i}`, value: 'v' }))),
      );
      await measure('REST create an embedding with assets', () => service.rest('POST', `${domain!.base}/embedding`, embeddingPayload({ name: `E${size}` })));
      const created = (await service.rest('POST', `${domain!.base}/embedding`, embeddingPayload({ name: `F${size}` }))).body;
      await measure('REST update an embedding', () => service.rest('PUT', `${domain!.base}/embedding/${created.id}`, { name: `G${size}` }));
      await measure('REST update an embedding with its assets', () =>
        service.rest('PUT', `${domain!.base}/embedding/${created.id}`, {
          name: `H${size}`,
          assets: [{ ...created.assets[1], lifetime: '1 day' }, { name: 'added' }, created.assets[0]],
        }),
      );
      await measure('REST create an asset', () => service.rest('POST', `${domain!.base}/embedding/${created.id}/asset`, { name: `c${size}` }));
      await measure('REST update an asset', () =>
        service.rest('PUT', `${domain!.base}/embedding/${created.id}/asset/${created.assets[0].id}`, { lifetime: '2 days' }),
      );
      await measure('REST delete an asset', () => service.rest('DELETE', `${domain!.base}/embedding/${created.id}/asset/${created.assets[0].id}`));
      await measure('REST delete an embedding', () => service.rest('DELETE', `${domain!.base}/embedding/${created.id}`));
      await measure('GraphQL whole domain', () => service.graphql(WHOLE_DOMAIN, { c: domain!.clientId, d: domain!.domainId }));
      await measure('GraphQL client with its 3 domains', () => service.graphql(WHOLE_CLIENT, { c: domain!.clientId }));
      await measure('REST read all locales', () => service.rest('GET', `${domain!.base}/locale`));
      await measure('GraphQL whole domain with its locales', () =>
        service.graphql(WHOLE_DOMAIN_WITH_LOCALES, { c: domain!.clientId, d: domain!.domainId }),
      );
      await measure('GraphQL client with its 3 domains and their locales', () =>
        service.graphql(WHOLE_CLIENT_WITH_LOCALES, { c: domain!.clientId }),
      );
      // The same without compiled selections: the batching loaders, which answer what is not compiled.
      compileSelections(service.services, false);
      try {
        await measure('GraphQL whole domain, not compiled', () => service.graphql(WHOLE_DOMAIN, { c: domain!.clientId, d: domain!.domainId }));
        await measure('GraphQL client with its 3 domains, not compiled', () => service.graphql(WHOLE_CLIENT, { c: domain!.clientId }));
        await measure('GraphQL whole domain with its locales, not compiled', () =>
          service.graphql(WHOLE_DOMAIN_WITH_LOCALES, { c: domain!.clientId, d: domain!.domainId }),
        );
        await measure('GraphQL client with its 3 domains and their locales, not compiled', () =>
          service.graphql(WHOLE_CLIENT_WITH_LOCALES, { c: domain!.clientId }),
        );
      } finally {
        compileSelections(service.services, true);
      }
    }
    console.log(Object.entries(counts).map(([label, values]) => `${label}: ${values.join(', ')}`).join('\n'));
  }, 120_000);

  it.each([
    ['REST read one embedding', 1], // the embedding with its assets, joined to its domain for the check
    ['REST read all embeddings', 1], // the domain left-joined to its embeddings and their assets
    ['REST read all placeholders', 1], // the domain left-joined to its placeholders
    ['REST read one placeholder', 1], // the placeholder joined to its domain for the check
    ['REST read one theme', 1], // the theme joined to its domain for the check
    ['REST read all themes', 1], // the domain left-joined to its themes
    ['REST read all assets of an embedding', 1], // the embedding with its assets, joined to its domain
    ['REST read one asset', 1], // the same
    ['REST read one domain', 1], // the domain with its client id
    ['REST read all domains of the client', 1], // the client left-joined to its domains
    // A write's own statements hold the domain's lock; its revision is recorded just after its commit, before the
    // answer, by the recorder's round (off the lock, in no transaction): the due rows read with what changed and the
    // newest revision's manifest, in one statement; the due rows deleted, parts and revision stored, in one — two
    // (pinned on its own below; five with begin, an advisory lock and commit until the store checked for races itself).
    // no begin: ONE autocommit statement, the server's after_domain_lock, checks and locks the domain, then deletes the
    // old list, inserts the new one and notes the due row (1, was 4: begin, lock, that write, commit) + the round (2)
    ['REST bulk replace of the placeholders', 3],
    // no begin: ONE autocommit statement checks and locks the domain, inserts the embedding, its assets and the due
    // row (1, was 5: begin, that statement, the revision's 2, commit) + the round (2)
    ['REST create an embedding with assets', 3],
    // no begin: one autocommit statement checks and locks the domain, updates the embedding and reads it back with
    // its assets, notes the due row (1, was 6: begin, lock, update, the revision's 2, commit) + the round (2)
    ['REST update an embedding', 3],
    // no begin: one autocommit statement (after_domain_lock) checks and locks the domain, then updates the embedding,
    // deletes, updates and inserts its assets and notes the due row (1, was 4 in a transaction, 10 through the unit of
    // work) + the round (2)
    ['REST update an embedding with its assets', 3],
    // no begin: one autocommit statement (after_domain_lock) checks and locks the domain, then appends the asset
    // after the last and notes the due row (1, was 4 in a transaction) + the round (2); 13 through the unit of work
    ['REST create an asset', 3],
    // no begin: one autocommit statement checks and locks the domain, updates (deletes) the asset by id and notes the
    // due row (1) + the round (2); 13 through the unit of work
    ['REST update an asset', 3],
    ['REST delete an asset', 3],
    // no begin: one autocommit statement checks and locks the domain, deletes the embedding, notes the due row
    // (1, was 5) + the round (2)
    ['REST delete an embedding', 3],
    // The selection compiled into one statement (src/graphql/selection-sql): the domain with its lists as JSON
    ['GraphQL whole domain', 1],
    ['GraphQL client with its 3 domains', 1], // the client with its domains and theirs, in one
    ['REST read all locales', 1], // the domain left-joined to its locales
    ['GraphQL whole domain with its locales', 1], // its locales in the same statement
    ['GraphQL client with its 3 domains and their locales', 1],
    ['GraphQL whole domain, not compiled', 4], // domain, then placeholders, themes, embeddings with assets
    ['GraphQL client with its 3 domains, not compiled', 5], // client, its domains, then one query per kind for all three
    ['GraphQL whole domain with its locales, not compiled', 5], // as the whole domain, plus one for its locales
    ['GraphQL client with its 3 domains and their locales, not compiled', 6], // as the client's domains, plus one for all their locales
  ])('%s: %i statements at every size', (label, expected) => {
    expect(counts[label]).toEqual(sizes.map(() => expected));
  });
});

describe("the recorder's round", () => {
  it('records the revisions due for a domain in two statements, whatever the size', async () => {
    const [domain] = await seed(1, 5);
    await service.services.revisions.drain();
    const em = service.database.orm.em.fork();
    const revisionCount = async () =>
      (await em.execute<{ n: number }[]>(`select count(*)::int as "n" from "configuration_revision" where "domain_id" = ?`, [domain!.domainId]))[0]!.n;
    // Two writes' due rows (made by hand, as a write leaves them before its round), recorded by one round.
    await em.execute(`update "placeholder" set "value" = 'changed' where "domain_id" = ? and "name" = 'p0'`, [domain!.domainId]);
    await em.execute(`insert into "revision_due" ("domain_id", "key_name", "tables") values (?, 'a', '{placeholder}'), (?, 'b', '{placeholder}')`, [
      domain!.domainId,
      domain!.domainId,
    ]);
    const revisions = await revisionCount();
    const before = service.database.statements.total;
    await service.services.revisions.settle([domain!.domainId]);
    // the due rows read with what changed and the revision to build on; the due rows deleted, parts and revision stored
    expect(service.database.statements.total - before).toBe(2);
    expect(await revisionCount()).toBe(revisions + 1);
  });
});

describe('a batch of ids goes to the database as one parameter', () => {
  // The batching loaders answer what is not compiled (nodes of mutations, selections compiled off): measured with compiling off.
  it('one uuid[] whatever the number of ids: no list of placeholders growing with the batch', async () => {
    const [domain] = await seed(3, 1);
    await service.services.revisions.drain();
    const spy = vi.spyOn(service.database.orm.config.getLogger(), 'logQuery');
    let statements: { query?: string; params?: readonly unknown[] }[];
    compileSelections(service.services, false);
    try {
      const answer = await service.graphql(WHOLE_CLIENT, { c: domain!.clientId });
      expect(answer.errors).toBeUndefined();
      statements = spy.mock.calls.map(([context]) => context);
    } finally {
      spy.mockRestore();
      compileSelections(service.services, true);
    }
    const batched = statements.filter(({ query }) => query?.includes(' = any('));
    // the client's domains, then the placeholders, themes and embeddings of its three domains
    expect(batched).toHaveLength(4);
    for (const { query, params } of batched) {
      expect(query).toContain(' = any(?::uuid[])');
      expect(params).toHaveLength(1);
    }
    const idsPerStatement = batched.map(({ params }) => String(params![0]).replace(/^\{|\}$/g, '').split(',').length);
    expect(idsPerStatement).toEqual([1, 3, 3, 3]);
  });
});
