import { beforeEach, describe, expect, it } from 'vitest';
import {
  API,
  createDomain,
  type DomainPath,
  domainState,
  embeddingPayload,
  unknownId,
} from '../../support/fixtures.ts';
import { useServiceWithDomain } from '../../support/service-with-domain.ts';

/** Embedding assets, which the REST API calls "cookies": /embedding/{embeddingId}/asset[/{assetId}]. */

const { service, domain } = useServiceWithDomain();
/** An embedding of `domain` with the fixture's two assets. */
let embedding: Json;
beforeEach(async () => {
  embedding = await createEmbedding();
});

type Json = Record<string, any>;

async function createEmbedding(overrides: Json = {}, path: DomainPath = domain): Promise<Json> {
  const answer = await service.rest('POST', `${path.base}/embedding`, embeddingPayload(overrides));
  expect(answer.status, answer.text).toBe(201);
  return answer.body;
}

const assetsOf = (embeddingId: string = embedding.id, path: DomainPath = domain) =>
  `${path.base}/embedding/${embeddingId}/asset`;

async function createAsset(payload: Json, embeddingId: string = embedding.id, path: DomainPath = domain): Promise<Json> {
  const answer = await service.rest('POST', assetsOf(embeddingId, path), payload);
  expect(answer.status, answer.text).toBe(201);
  return answer.body;
}

const ASSET_DEFAULTS = { dynamic: false, storageType: 'cookie', lifetime: '', description: '', translations: {} };

const expectValidationProblem = (answer: { status: number; headers: Headers; body: any }) => {
  expect(answer.status).toBe(400);
  expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(answer.body).toMatchObject({ type: '/problems/validation', title: 'Bad Request', status: 400, detail: expect.any(String) });
  expect(answer.body.errors.length).toBeGreaterThan(0);
  for (const error of answer.body.errors) expect(error).toEqual({ path: expect.any(String), message: expect.any(String) });
};

const expectNotFound = (answer: { status: number; headers: Headers; body: any; text: string }, what = '') => {
  expect(answer.status, `${what} ${answer.text}`).toBe(404);
  expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(answer.body).toMatchObject({ type: '/problems/not-found', title: 'Not Found', status: 404 });
};

const fullAsset = () => ({
  name: '_gac_*',
  dynamic: true,
  storageType: 'cookie',
  lifetime: '90 days',
  description: 'Campaign information — ünïcödé ✓',
  translations: {
    de_DE: { lifetime: '90 Tage', description: 'Kampagneninformationen' },
    en_US: { lifetime: '90 days' },
    zh: {},
  },
});

describe('embedding assets ("cookies") over REST', () => {
  it('creates (201) with every field, reads one (200), reads all (200), updates (200) and deletes (204)', async () => {
    const created = await service.rest('POST', assetsOf(), fullAsset());
    expect(created.status).toBe(201);
    expect(created.headers.get('content-type')).toMatch(/^application\/json/);
    expect(created.body).toEqual({ id: expect.any(String), ...fullAsset() });
    expect(embedding.assets.map((asset: Json) => asset.id)).not.toContain(created.body.id);

    const one = await service.rest('GET', `${assetsOf()}/${created.body.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(created.body);

    const all = await service.rest('GET', assetsOf());
    expect(all.status).toBe(200);
    expect(all.body).toEqual([...embedding.assets, created.body]);
    // The embedding shows the same list.
    expect((await service.rest('GET', `${domain.base}/embedding/${embedding.id}`)).body).toEqual({ ...embedding, assets: all.body });

    const updated = await service.rest('PUT', `${assetsOf()}/${created.body.id}`, { lifetime: '1 year' });
    expect(updated.status).toBe(200);
    expect(updated.body).toEqual({ ...created.body, lifetime: '1 year' });
    expect((await service.rest('GET', `${assetsOf()}/${created.body.id}`)).body).toEqual(updated.body);

    const deleted = await service.rest('DELETE', `${assetsOf()}/${created.body.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expectNotFound(await service.rest('GET', `${assetsOf()}/${created.body.id}`));
    expect((await service.rest('GET', assetsOf())).body).toEqual(embedding.assets);
    expect((await service.rest('GET', `${domain.base}/embedding/${embedding.id}`)).body).toEqual(embedding);
    expectNotFound(await service.rest('DELETE', `${assetsOf()}/${created.body.id}`));
  });

  it('fills in the defaults: dynamic false, storageType cookie, empty lifetime, description and translations', async () => {
    const created = await service.rest('POST', assetsOf(), { name: '_gid' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(String), name: '_gid', ...ASSET_DEFAULTS });
    expect(Object.keys(created.body).sort()).toEqual(['id', 'name', ...Object.keys(ASSET_DEFAULTS)].sort());
  });

  it('accepts every storage type', async () => {
    for (const storageType of ['cookie', 'localStorage', 'sessionStorage', 'indexedDb', 'webSql', 'other']) {
      const answer = await service.rest('POST', assetsOf(), { name: `in ${storageType}`, storageType });
      expect(answer.status, storageType).toBe(201);
      expect(answer.body.storageType).toBe(storageType);
    }
  });

  it('reads all assets in order: those of the embedding first, then each created one', async () => {
    const empty = await createEmbedding({ name: 'empty', assets: [] });
    expect((await service.rest('GET', assetsOf(empty.id))).body).toEqual([]);
    const names = ['c', 'a', 'b'];
    const created = [];
    for (const name of names) created.push(await createAsset({ name }, empty.id));
    expect((await service.rest('GET', assetsOf(empty.id))).body).toEqual(created);

    const appended = await createAsset({ name: 'appended' });
    expect((await service.rest('GET', assetsOf())).body).toEqual([...embedding.assets, appended]);
    // An asset deleted from the middle leaves the others in order; a new one goes last.
    await service.rest('DELETE', `${assetsOf(empty.id)}/${created[1]!.id}`);
    const last = await createAsset({ name: 'last' }, empty.id);
    expect((await service.rest('GET', assetsOf(empty.id))).body).toEqual([created[0], created[2], last]);
  });

  it('updates (200) only the fields a PUT carries, and keeps the asset in its place', async () => {
    const [first, second] = embedding.assets as Json[];
    const url = `${assetsOf()}/${first!.id}`;
    let expected: Json = first!;
    const changes: Json[] = [
      { name: 'renamed' },
      { dynamic: true },
      { storageType: 'webSql' },
      { lifetime: '' },
      { description: 'changed' },
      { translations: { de_DE: { description: 'geändert' } } },
      { name: 'both', storageType: 'other' },
      {},
    ];
    for (const change of changes) {
      const answer = await service.rest('PUT', url, change);
      expect(answer.status, JSON.stringify(change)).toBe(200);
      expected = { ...expected, ...change };
      expect(answer.body, JSON.stringify(change)).toEqual(expected);
    }
    expect((await service.rest('GET', assetsOf())).body).toEqual([expected, second]);
    // The embedding itself is untouched apart from the asset.
    expect((await service.rest('GET', `${domain.base}/embedding/${embedding.id}`)).body).toEqual({ ...embedding, assets: [expected, second] });
  });

  it('takes back what it sent: read, change a field, PUT the whole asset back; a different id in the body is ignored', async () => {
    const created = await createAsset(fullAsset());
    const url = `${assetsOf()}/${created.id}`;
    const read = (await service.rest('GET', url)).body;
    const answer = await service.rest('PUT', url, { ...read, description: 'round trip' });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ ...read, description: 'round trip' });

    const other = embedding.assets[0];
    const withOtherId = await service.rest('PUT', url, { ...answer.body, id: other.id, lifetime: 'forever' });
    expect(withOtherId.status).toBe(200);
    expect(withOtherId.body).toEqual({ ...answer.body, lifetime: 'forever' });
    expect((await service.rest('GET', `${assetsOf()}/${other.id}`)).body).toEqual(other);
  });

  it('ignores a read-only id sent on create', async () => {
    const existing = embedding.assets[0];
    const answer = await service.rest('POST', assetsOf(), { id: existing.id, name: 'copy' });
    expect(answer.status).toBe(201);
    expect(answer.body.id).not.toBe(existing.id);
    expect((await service.rest('GET', assetsOf())).body).toEqual([...embedding.assets, answer.body]);
  });

  it('keeps translations per locale: lifetime and description', async () => {
    const created = await createAsset({
      name: 'IDE',
      translations: { de_DE: { lifetime: '1 Jahr', description: 'Werbung' }, fr_FR: { description: 'Publicité' }, ja: { lifetime: '1年' } },
    });
    expect(created.translations).toEqual({
      de_DE: { lifetime: '1 Jahr', description: 'Werbung' },
      fr_FR: { description: 'Publicité' },
      ja: { lifetime: '1年' },
    });
    const url = `${assetsOf()}/${created.id}`;
    expect((await service.rest('GET', url)).body.translations).toEqual(created.translations);

    // A PUT carrying translations makes them exactly the ones sent.
    const replaced = await service.rest('PUT', url, { translations: { en_US: { lifetime: '1 year', description: '' } } });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toEqual({ ...created, translations: { en_US: { lifetime: '1 year', description: '' } } });
    const emptied = await service.rest('PUT', url, { translations: {} });
    expect(emptied.body.translations).toEqual({});
    expect((await service.rest('GET', url)).body.translations).toEqual({});
  });

  it.each([
    ['no name', { lifetime: '1 day' }, '/name'],
    ['an empty name', { name: '' }, '/name'],
    ['a name that is not a string', { name: ['_ga'] }, '/name'],
    ['dynamic as a string', { name: 'x', dynamic: 'true' }, '/dynamic'],
    ['an unknown storageType', { name: 'x', storageType: 'cookies' }, '/storageType'],
    ['a storageType in the wrong case', { name: 'x', storageType: 'LocalStorage' }, '/storageType'],
    ['an indexedDB storageType', { name: 'x', storageType: 'indexedDB' }, '/storageType'],
    ['a null storageType', { name: 'x', storageType: null }, '/storageType'],
    ['lifetime as a number', { name: 'x', lifetime: 365 }, '/lifetime'],
    ['description as null', { name: 'x', description: null }, '/description'],
    ['translations as a list', { name: 'x', translations: [] }, '/translations'],
    ['a translation keyed by a language name', { name: 'x', translations: { german: {} } }, '/translations/german'],
    ['a translation keyed by a BCP 47 tag', { name: 'x', translations: { 'en-US': {} } }, '/translations/en-US'],
    ['a translation with an embedding-only text', { name: 'x', translations: { de_DE: { name: 'y' } } }, '/translations/de_DE/name'],
    ['a translation text that is not a string', { name: 'x', translations: { de_DE: { lifetime: 1 } } }, '/translations/de_DE/lifetime'],
    ['a translation that is not an object', { name: 'x', translations: { de_DE: '1 Jahr' } }, '/translations/de_DE'],
    ['an unknown property', { name: 'x', domain: '.example.org' }, '/domain'],
    ['a NUL character', { name: 'a\u0000b' }, '/name'],
    ['a lone surrogate', { name: 'x', description: '\udc00' }, '/description'],
  ])('answers 400 on create for %s, lists the field and stores nothing', async (_, payload, pointer) => {
    const before = await domainState(service, domain);
    const answer = await service.rest('POST', assetsOf(), payload);
    expectValidationProblem(answer);
    expect(answer.body.errors).toContainEqual({ path: pointer, message: expect.any(String) });
    expect(await domainState(service, domain)).toEqual(before);
  });

  it.each([
    ['an empty name', { name: '' }, '/name'],
    ['a null name', { name: null }, '/name'],
    ['dynamic as a number', { dynamic: 0 }, '/dynamic'],
    ['an unknown storageType', { storageType: 'flash' }, '/storageType'],
    ['a bad translation locale', { translations: { 'de-DE': { lifetime: 'x' } } }, '/translations/de-DE'],
    ['an unknown property', { expires: 3600 }, '/expires'],
  ])('answers 400 on update for %s and changes nothing', async (_, change, pointer) => {
    const asset = embedding.assets[0];
    const before = await domainState(service, domain);
    const answer = await service.rest('PUT', `${assetsOf()}/${asset.id}`, { description: 'would change', ...change });
    expectValidationProblem(answer);
    expect(answer.body.errors).toContainEqual({ path: pointer, message: expect.any(String) });
    expect(await domainState(service, domain)).toEqual(before);
    expect((await service.rest('GET', `${assetsOf()}/${asset.id}`)).body).toEqual(asset);
  });

  it('lists every problem of an asset payload', async () => {
    const answer = await service.rest('POST', assetsOf(), { name: '', storageType: 'jar', dynamic: 'no', extra: 1 });
    expectValidationProblem(answer);
    expect(answer.body.errors.map((e: Json) => e.path).sort()).toEqual(['/dynamic', '/extra', '/name', '/storageType']);
  });

  it('answers 400 for a body that is not JSON or not an object, and stores nothing', async () => {
    const before = await domainState(service, domain);
    for (const [method, path] of [['POST', assetsOf()], ['PUT', `${assetsOf()}/${embedding.assets[0].id}`]] as const) {
      expectValidationProblem(await service.raw({ method, path, body: '{"name":', headers: { 'content-type': 'application/json' } }));
      expectValidationProblem(await service.rest(method, path, [{ name: 'in a list' }]));
      expectValidationProblem(await service.rest(method, path, 42));
    }
    expect(await domainState(service, domain)).toEqual(before);
  });

  it('answers 404 for an unknown or malformed asset id', async () => {
    const before = await domainState(service, domain);
    for (const id of [unknownId(), 'abc', embedding.id]) {
      const url = `${assetsOf()}/${id}`;
      expectNotFound(await service.rest('GET', url), `GET ${id}`);
      expectNotFound(await service.rest('PUT', url, { name: 'x' }), `PUT ${id}`);
      expectNotFound(await service.rest('DELETE', url), `DELETE ${id}`);
    }
    expect((await service.rest('GET', `${assetsOf()}/${unknownId()}`)).body.detail).toContain('asset');
    expect(await domainState(service, domain)).toEqual(before);
  });

  it('answers 404 for an unknown or malformed embedding, also when creating', async () => {
    const asset = embedding.assets[0];
    const before = await domainState(service, domain);
    for (const embeddingId of [unknownId(), 'abc', asset.id]) {
      expectNotFound(await service.rest('POST', assetsOf(embeddingId), { name: 'x' }), `POST ${embeddingId}`);
      expectNotFound(await service.rest('GET', assetsOf(embeddingId)), `GET all ${embeddingId}`);
      expectNotFound(await service.rest('GET', `${assetsOf(embeddingId)}/${asset.id}`));
      expectNotFound(await service.rest('PUT', `${assetsOf(embeddingId)}/${asset.id}`, { name: 'x' }));
      expectNotFound(await service.rest('DELETE', `${assetsOf(embeddingId)}/${asset.id}`));
    }
    expect((await service.rest('POST', assetsOf(unknownId()), { name: 'x' })).body.detail).toContain('embedding');
    expect(await domainState(service, domain)).toEqual(before);
  });

  it('answers 404 for an unknown domain or client, also when creating', async () => {
    const asset = embedding.assets[0];
    const stranger = await createDomain(service, 'stranger.example');
    const paths = [
      `${API}/${domain.clientId}/domain/${unknownId()}`,
      `${API}/${unknownId()}/domain/${domain.domainId}`,
      `${API}/${stranger.clientId}/domain/${domain.domainId}`,
      `${API}/not-an-id/domain/also-not`,
    ];
    for (const base of paths) {
      const path = { ...domain, base };
      expectNotFound(await service.rest('POST', assetsOf(embedding.id, path), { name: 'x' }), base);
      expectNotFound(await service.rest('GET', assetsOf(embedding.id, path)));
      expectNotFound(await service.rest('GET', `${assetsOf(embedding.id, path)}/${asset.id}`));
      expectNotFound(await service.rest('PUT', `${assetsOf(embedding.id, path)}/${asset.id}`, { name: 'x' }));
      expectNotFound(await service.rest('DELETE', `${assetsOf(embedding.id, path)}/${asset.id}`));
    }
    expect((await service.rest('GET', assetsOf())).body).toEqual(embedding.assets);
  });

  it("never reaches another embedding's asset through the wrong embedding, and leaves it unchanged", async () => {
    const sibling = await createEmbedding({ name: 'sibling', assets: [{ name: 'theirs', description: 'keep me' }] });
    const theirs = sibling.assets[0];
    const wrongUrl = `${assetsOf(embedding.id)}/${theirs.id}`;
    expectNotFound(await service.rest('GET', wrongUrl));
    expectNotFound(await service.rest('PUT', wrongUrl, { description: 'hijacked' }));
    expectNotFound(await service.rest('DELETE', wrongUrl));
    expect((await service.rest('GET', assetsOf(embedding.id))).body).toEqual(embedding.assets);
    expect((await service.rest('GET', `${assetsOf(sibling.id)}/${theirs.id}`)).body).toEqual(theirs);
    expect((await service.rest('GET', `${domain.base}/embedding/${sibling.id}`)).body).toEqual(sibling);
  });

  it("never reaches another domain's embedding or asset through this domain's path", async () => {
    const sibling = await createDomain(service, 'sibling.example', { clientId: domain.clientId });
    for (const other of [sibling, await createDomain(service, 'foreign.example')]) {
      const theirs = await createEmbedding({ name: 'theirs' }, other);
      const asset = theirs.assets[0];
      expectNotFound(await service.rest('POST', assetsOf(theirs.id), { name: 'planted' }));
      expectNotFound(await service.rest('GET', assetsOf(theirs.id)));
      expectNotFound(await service.rest('GET', `${assetsOf(theirs.id)}/${asset.id}`));
      expectNotFound(await service.rest('PUT', `${assetsOf(theirs.id)}/${asset.id}`, { name: 'hijacked' }));
      expectNotFound(await service.rest('DELETE', `${assetsOf(theirs.id)}/${asset.id}`));
      expect((await service.rest('GET', `${other.base}/embedding/${theirs.id}`)).body).toEqual(theirs);
    }
  });

  it('deleting one asset leaves the others and the embedding as they were', async () => {
    const [first, second] = embedding.assets as Json[];
    const third = await createAsset({ name: 'third' });
    expect((await service.rest('DELETE', `${assetsOf()}/${second!.id}`)).status).toBe(204);
    expect((await service.rest('GET', assetsOf())).body).toEqual([first, third]);
    expect((await service.rest('GET', `${domain.base}/embedding/${embedding.id}`)).body).toEqual({ ...embedding, assets: [first, third] });
  });

  it('answers 405 with Allow for a method an asset path does not take', async () => {
    const asset = embedding.assets[0];
    const onOne = await service.rest('POST', `${assetsOf()}/${asset.id}`, { name: 'x' });
    expect(onOne.status).toBe(405);
    expect(onOne.headers.get('allow')?.split(/,\s*/).sort()).toEqual(['DELETE', 'GET', 'HEAD', 'PUT']);
    const onAll = await service.rest('PUT', assetsOf(), [{ name: 'x' }]);
    expect(onAll.status).toBe(405);
    expect(onAll.headers.get('allow')?.split(/,\s*/).sort()).toEqual(['GET', 'HEAD', 'POST']);
    expect((await service.rest('GET', assetsOf())).body).toEqual(embedding.assets);
  });
});

// ── GraphQL ──────────────────────────────────────────────────────────────────

const GQL_SCOPE = 'clientId: $clientId, domainId: $domainId, embeddingId: $embeddingId';
const GQL_VARS = '$clientId: ID!, $domainId: ID!, $embeddingId: ID!';
const scope = (embeddingId: string = embedding.id) => ({ clientId: domain.clientId, domainId: domain.domainId, embeddingId });

const ASSET_FIELDS = 'id name dynamic storageType lifetime description translations { locale lifetime description }';
const CREATE = `mutation(${GQL_VARS}, $input: EmbeddingAssetInput!) { createEmbeddingAsset(${GQL_SCOPE}, input: $input) { ${ASSET_FIELDS} } }`;
const UPDATE = `mutation(${GQL_VARS}, $assetId: ID!, $input: EmbeddingAssetUpdateInput!) {
  updateEmbeddingAsset(${GQL_SCOPE}, assetId: $assetId, input: $input) { ${ASSET_FIELDS} } }`;
const DELETE = `mutation(${GQL_VARS}, $assetId: ID!) { deleteEmbeddingAsset(${GQL_SCOPE}, assetId: $assetId) }`;
const READ = `query($clientId: ID!, $id: ID!, $embeddingId: ID!, $assetId: ID!) {
  domain(clientId: $clientId, id: $id) {
    embeddings { id assets { ${ASSET_FIELDS} } }
    embedding(id: $embeddingId) { assets { ${ASSET_FIELDS} } asset(id: $assetId) { ${ASSET_FIELDS} } } } }`;

const read = (assetId: string, embeddingId: string = embedding.id) =>
  service.graphql(READ, { clientId: domain.clientId, id: domain.domainId, embeddingId, assetId });

/** GraphQL's translation entries → the REST map (unset texts come back as null). */
const fromGraphql = ({ translations, ...asset }: Json): Json => ({
  ...asset,
  translations: Object.fromEntries(
    translations.map(({ locale, ...texts }: Json) => [locale, Object.fromEntries(Object.entries(texts).filter(([, v]) => v !== null))]),
  ),
});
/** A REST payload → GraphQL input: translations as entries. */
const toGraphqlInput = ({ translations, ...asset }: Json): Json => ({
  ...asset,
  ...(translations === undefined
    ? {}
    : { translations: Object.entries(translations as Record<string, Json>).map(([locale, texts]) => ({ locale, ...texts })) }),
});

describe('embedding assets over GraphQL', () => {
  it('creates, reads, updates and deletes; REST reads what GraphQL wrote', async () => {
    const created = await service.graphql(CREATE, { ...scope(), input: toGraphqlInput(fullAsset()) });
    expect(created.errors).toBeUndefined();
    const asset = fromGraphql(created.data.createEmbeddingAsset);
    expect(asset).toEqual({ id: expect.any(String), ...fullAsset() });
    expect((await service.rest('GET', `${assetsOf()}/${asset.id}`)).body).toEqual(asset);
    expect((await service.rest('GET', assetsOf())).body).toEqual([...embedding.assets, asset]);

    const minimal = await service.graphql(CREATE, { ...scope(), input: { name: '_gid' } });
    expect(minimal.errors).toBeUndefined();
    expect(fromGraphql(minimal.data.createEmbeddingAsset)).toEqual({ id: expect.any(String), name: '_gid', ...ASSET_DEFAULTS });

    const updated = await service.graphql(UPDATE, {
      ...scope(),
      assetId: asset.id,
      input: { storageType: 'sessionStorage', translations: [{ locale: 'en_US', description: 'Campaign' }] },
    });
    expect(updated.errors).toBeUndefined();
    const expected = { ...asset, storageType: 'sessionStorage', translations: { en_US: { description: 'Campaign' } } };
    expect(fromGraphql(updated.data.updateEmbeddingAsset)).toEqual(expected);
    expect((await service.rest('GET', `${assetsOf()}/${asset.id}`)).body).toEqual(expected);

    const deleted = await service.graphql(DELETE, { ...scope(), assetId: asset.id });
    expect(deleted.errors).toBeUndefined();
    expect(deleted.data.deleteEmbeddingAsset).toBe(asset.id);
    expectNotFound(await service.rest('GET', `${assetsOf()}/${asset.id}`));
    expect((await service.rest('GET', assetsOf())).body).toEqual([...embedding.assets, fromGraphql(minimal.data.createEmbeddingAsset)]);
  });

  it('reads through domain { embeddings { assets } } and domain { embedding(id) { asset(id) } } what REST wrote', async () => {
    const added = await createAsset(fullAsset());
    const answer = await read(added.id);
    expect(answer.errors).toBeUndefined();
    const all = [...embedding.assets, added];
    expect(answer.data.domain.embeddings).toHaveLength(1);
    expect(answer.data.domain.embeddings[0].id).toBe(embedding.id);
    expect(answer.data.domain.embeddings[0].assets.map(fromGraphql)).toEqual(all);
    expect(answer.data.domain.embedding.assets.map(fromGraphql)).toEqual(all);
    expect(fromGraphql(answer.data.domain.embedding.asset)).toEqual(added);

    // A REST update is what GraphQL reads next.
    await service.rest('PUT', `${assetsOf()}/${added.id}`, { name: 'renamed', translations: {} });
    expect(fromGraphql((await read(added.id)).data.domain.embedding.asset)).toEqual({ ...added, name: 'renamed', translations: {} });
  });

  it.each([
    ['an empty name', { name: '' }],
    ['an unknown storageType', { name: 'x', storageType: 'cookies' }],
    ['a storageType in the wrong case', { name: 'x', storageType: 'Cookie' }],
    ['several problems at once', { name: '', storageType: 'jar' }],
  ])('reports %s as BAD_USER_INPUT with the same errors as REST, on create and update, storing nothing', async (_, payload) => {
    const asset = embedding.assets[0];
    const before = await domainState(service, domain);

    const viaRest = await service.rest('POST', assetsOf(), payload);
    expect(viaRest.status).toBe(400);
    const created = await service.graphql(CREATE, { ...scope(), input: toGraphqlInput(payload) });
    expect(created.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(created.errors?.[0]?.extensions?.errors).toEqual(viaRest.body.errors);

    const updateRest = await service.rest('PUT', `${assetsOf()}/${asset.id}`, payload);
    expect(updateRest.status).toBe(400);
    const updated = await service.graphql(UPDATE, { ...scope(), assetId: asset.id, input: toGraphqlInput(payload) });
    expect(updated.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(updated.errors?.[0]?.extensions?.errors).toEqual(updateRest.body.errors);

    expect(await domainState(service, domain)).toEqual(before);
  });

  it('refuses translation entries with a repeated or malformed locale as BAD_USER_INPUT', async () => {
    const asset = embedding.assets[0];
    const before = await domainState(service, domain);
    const duplicate = await service.graphql(CREATE, {
      ...scope(),
      input: { name: 'x', translations: [{ locale: 'de_DE', lifetime: '1' }, { locale: 'de_DE', lifetime: '2' }] },
    });
    expect(duplicate.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(duplicate.errors?.[0]?.extensions?.errors).toContainEqual({ path: '/translations/1/locale', message: expect.any(String) });

    const duplicateInUpdate = await service.graphql(UPDATE, {
      ...scope(),
      assetId: asset.id,
      input: { translations: [{ locale: 'zh' }, { locale: 'zh', description: 'again' }] },
    });
    expect(duplicateInUpdate.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(duplicateInUpdate.errors?.[0]?.extensions?.errors).toContainEqual({ path: '/translations/1/locale', message: expect.any(String) });

    const malformed = await service.graphql(UPDATE, { ...scope(), assetId: asset.id, input: { translations: [{ locale: 'en-US' }] } });
    expect(malformed.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(malformed.errors?.[0]?.extensions?.errors).toContainEqual({ path: '/translations/0/locale', message: expect.any(String) });

    expect(await domainState(service, domain)).toEqual(before);
  });

  it('answers NOT_FOUND for an unknown asset or embedding, and for an asset of another embedding', async () => {
    const sibling = await createEmbedding({ name: 'sibling' });
    const mine = embedding.assets[0];
    const theirs = sibling.assets[0];
    const before = await domainState(service, domain);

    for (const assetId of [unknownId(), 'abc', theirs.id]) {
      expect((await read(assetId)).errors?.[0]?.extensions?.code, `read ${assetId}`).toBe('NOT_FOUND');
      const updated = await service.graphql(UPDATE, { ...scope(), assetId, input: { name: 'hijacked' } });
      expect(updated.errors?.[0]?.extensions?.code, `update ${assetId}`).toBe('NOT_FOUND');
      const deleted = await service.graphql(DELETE, { ...scope(), assetId });
      expect(deleted.errors?.[0]?.extensions?.code, `delete ${assetId}`).toBe('NOT_FOUND');
    }
    for (const embeddingId of [unknownId(), 'abc']) {
      expect((await read(mine.id, embeddingId)).errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
      const created = await service.graphql(CREATE, { ...scope(embeddingId), input: { name: 'x' } });
      expect(created.errors?.[0]?.extensions?.code, `create in ${embeddingId}`).toBe('NOT_FOUND');
      const updated = await service.graphql(UPDATE, { ...scope(embeddingId), assetId: mine.id, input: { name: 'x' } });
      expect(updated.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
      const deleted = await service.graphql(DELETE, { ...scope(embeddingId), assetId: mine.id });
      expect(deleted.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    }
    const otherDomain = await createDomain(service, 'foreign.example');
    const foreign = await createEmbedding({ name: 'foreign' }, otherDomain);
    const intoForeign = await service.graphql(CREATE, { ...scope(foreign.id), input: { name: 'planted' } });
    expect(intoForeign.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    const wrongDomain = await service.graphql(CREATE, {
      clientId: domain.clientId,
      domainId: otherDomain.domainId,
      embeddingId: foreign.id,
      input: { name: 'planted' },
    });
    expect(wrongDomain.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');

    expect(await domainState(service, domain)).toEqual(before);
    expect((await service.rest('GET', `${otherDomain.base}/embedding/${foreign.id}`)).body).toEqual(foreign);
  });
});
