import { randomUUID } from 'node:crypto';
import {
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLOutputType,
  getNamedType,
  isLeafType,
  isObjectType,
} from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restRoutes } from '../rest-adapter/routes.ts';
import type { RestRoute } from '../src/features/feature.ts';
import { schema } from '../src/app/graphql-schema.ts';
import type { ScanFindings, Scanner } from '../src/scanner/scan.ts';
import type { ConsentCheck } from '../src/scanner/compliance.ts';
import { API, createApiKey, embeddingPayload, themePayload } from './support/fixtures.ts';
import { localeNameOf, pathOf, routeLabel, samplePayload, seedWorld, type World } from './support/route-world.ts';
import { type GraphqlAnswer, type HttpAnswer, type TestClient, type TestService, startTestService } from './support/service.ts';
import { scanFindingsOf } from './support/scan-findings.ts';

/**
 * Tenant isolation (SERVICE.md §3 "Rules that hold everywhere"): an administrator key manages
 * every client; a client key reaches only its own client's paths, and everything else is 404 to
 * it, so it cannot probe which ids exist. Driven by the REST route table and the GraphQL schema:
 * a new route or mutation is covered without touching this file (a new mutation needs an entry
 * in MUTATIONS below, and the suite says so).
 *
 * Client A is the seeded world; client B is a second client with a world of its own. Every
 * refused request must leave A's stored state (read as the administrator) byte-for-byte the same.
 */

// ── the service, with a scanner that only counts ────────────────────────────

/** A scanner that scans nothing and counts the calls, to prove a refused scan never starts one. */
const scans: string[] = [];
const countingScanner: Scanner = {
  async scan(url): Promise<ScanFindings> {
    scans.push(url);
    return scanFindingsOf(url);
  },
  async checkConsent(url): Promise<ConsentCheck> {
    scans.push(url);
    const state = (name: ConsentCheck['states']['beforeConsent']['state']) => ({
      state: name, choice: null, clicked: false, pages: [{ url, status: 200, bannerShown: false }], banner: null, bannerRequested: false,
      cookies: [], storage: [], requests: [], heldBack: [],
    });
    return { url, site: 'shop.test', bannerOrigin: null, states: { beforeConsent: state('beforeConsent'), afterReject: state('afterReject'), afterAcceptAll: state('afterAcceptAll') }, refusedRequests: [], durationMs: 1 };
  },
  async warmUp() {},
  async close() {},
};

let service: TestService;
/** Client A: the seeded world, its key and what must never show up in another client's answers. */
let a: World;
let aKey: string;
let aSecrets: string[];
/** Client B: a world of its own and its key. */
let b: World;
let bKey: string;

const checked = { restRoutes: new Set<string>(), graphqlFields: new Set<string>() };

async function createKey(clientId: string, name: string) {
  const created = await createApiKey(service, clientId, name);
  expect(created).toMatchObject({ id: expect.any(String), name, prefix: expect.any(String), key: expect.any(String) });
  return created;
}

beforeAll(async () => {
  service = await startTestService({ scanner: countingScanner });
  a = await seedWorld(service);
  b = await seedWorld(service);
  const marker = `secret-company-${randomUUID()}`;
  const update = await service.rest('PUT', `${API}/${a.ids.clientId}`, { company: marker });
  expect(update.status, update.text).toBe(200);
  const aCreated = await createKey(a.ids.clientId!, 'A own key');
  aKey = aCreated.key;
  bKey = (await createKey(b.ids.clientId!, 'B own key')).key;
  aSecrets = [marker, update.body.username, aCreated.prefix];
});

afterAll(async () => {
  console.log(
    `tenant isolation: ${checked.restRoutes.size} of ${restRoutes.length} REST routes and ` +
      `${checked.graphqlFields.size} GraphQL fields checked (${[...checked.graphqlFields].sort().join(', ')})`,
  );
  await service?.close();
});

// ── A's full state, as the administrator reads it ───────────────────────────

/**
 * Everything a client has, read as the administrator: the client, its domains, its API keys and,
 * per domain, placeholders, embeddings (with their assets, also read one embedding at a time),
 * themes and code snippets; plus the list of all clients (a client created by a refused request
 * shows up there).
 */
async function snapshotOf(clientId: string): Promise<string> {
  const read = async (path: string) => {
    const answer = await service.rest('GET', path);
    expect(answer.status, `GET ${path} as administrator: ${answer.text.slice(0, 300)}`).toBe(200);
    return answer.body;
  };
  const client = await read(`${API}/${clientId}`);
  const domains: { id: string }[] = await read(`${API}/${clientId}/domain`);
  const apiKeys = await read(`${API}/${clientId}/apikey`);
  const allClients = await read(API);
  const contents = [];
  for (const domain of domains) {
    const base = `${API}/${clientId}/domain/${domain.id}`;
    const embeddings: { id: string }[] = await read(`${base}/embedding`);
    const assets = [];
    for (const embedding of embeddings) assets.push({ embedding: embedding.id, assets: await read(`${base}/embedding/${embedding.id}/asset`) });
    contents.push({
      domain: domain.id,
      placeholders: await read(`${base}/placeholder`),
      embeddings,
      assets,
      themes: await read(`${base}/theme`),
      locales: await read(`${base}/locale`),
      snippets: await read(`${base}/onboarding/embed`),
      complianceScans: await read(`${base}/complianceScan?limit=100`),
    });
  }
  return JSON.stringify({ client, domains, apiKeys, contents, allClients });
}

// ── REST ────────────────────────────────────────────────────────────────────

/** The routes in an order that keeps destructive requests last (deleting the client last of all). */
const ORDER = { GET: 0, POST: 1, PUT: 2, DELETE: 3 } as const;
const routesInOrder = [...restRoutes].sort(
  (x, y) => ORDER[x.method] - ORDER[y.method] || y.path.split('/').length - x.path.split('/').length,
);

const paramsOf = (route: { path: string }) => [...route.path.matchAll(/:(\w+)/g)].map(([, name]) => name!);

async function send(client: TestClient, route: RestRoute, path: string): Promise<HttpAnswer> {
  return client.rest(route.method, path, route.body ? samplePayload(route) : undefined);
}

/** '' when the answer is an RFC 9457 problem with this status (one of them), else what is wrong. */
function problemMismatch(answer: HttpAnswer, statuses: number[]): string {
  const wrong: string[] = [];
  if (!statuses.includes(answer.status)) wrong.push(`status ${answer.status}`);
  if (!/^application\/problem\+json/.test(answer.headers.get('content-type') ?? '')) wrong.push(`content-type ${answer.headers.get('content-type')}`);
  else if (answer.body?.status !== answer.status) wrong.push(`problem status ${answer.body?.status}`);
  return wrong.length ? `${wrong.join(', ')}: ${answer.text.slice(0, 300)}` : '';
}

const isClientList = (route: RestRoute) => route.method === 'GET' && route.path === API;

describe('REST: a client key on another client', () => {
  it("answers 404 on every route with A's ids when B's key asks, and changes nothing of A", async () => {
    const before = await snapshotOf(a.ids.clientId!);
    const scansBefore = scans.length;
    const asB = service.as(bKey);
    const failures: string[] = [];
    for (const route of routesInOrder) {
      checked.restRoutes.add(routeLabel(route));
      const path = pathOf(route, a);
      const answer = await send(asB, route, path);
      if (isClientList(route)) {
        // By design: the list answers, with B alone in it.
        if (answer.status !== 200) failures.push(`${route.method} ${path} with B's key: expected 200, got ${answer.status}: ${answer.text.slice(0, 300)}`);
        else if (JSON.stringify(answer.body.map((c: { id: string }) => c.id)) !== JSON.stringify([b.ids.clientId]))
          failures.push(`${route.method} ${path} with B's key: expected only B (${b.ids.clientId}), got ${answer.text.slice(0, 300)}`);
        continue;
      }
      // Every other route, creating a client included (only the administrator does that): 404.
      const wrong = problemMismatch(answer, [404]);
      if (wrong) failures.push(`${route.method} ${path} with B's key: expected 404 problem+json, got ${wrong}`);
      for (const secret of aSecrets) if (answer.text.includes(secret)) failures.push(`${route.method} ${path} with B's key leaks ${secret}`);
    }
    expect(failures).toEqual([]);
    expect(scans.length - scansBefore, 'a refused scan must not start one').toBe(0);
    expect(await snapshotOf(a.ids.clientId!)).toBe(before);
  });

  it("answers 404 when B's own path names one of A's objects beneath it (B's client, A's domain, …)", async () => {
    const before = await snapshotOf(a.ids.clientId!);
    const beforeB = await snapshotOf(b.ids.clientId!);
    const scansBefore = scans.length;
    const asB = service.as(bKey);
    const failures: string[] = [];
    let requests = 0;
    for (const route of routesInOrder) {
      const params = paramsOf(route);
      // The first `own` parameters are B's, the rest A's.
      for (let own = 1; own < params.length; own++) {
        const mixed: World = { domain: b.domain, ids: { ...b.ids } };
        let differs = false;
        for (const name of params.slice(own)) {
          mixed.ids[name] = a.ids[name]!;
          differs ||= a.ids[name] !== b.ids[name];
        }
        if (!differs) continue; // placeholder names are per domain: both worlds have "seeded"
        const path = pathOf(route, mixed);
        requests++;
        const answer = await send(asB, route, path);
        const wrong = problemMismatch(answer, [404]);
        if (wrong) failures.push(`${route.method} ${path} with B's key (A's ${params.slice(own).join(', ')}): expected 404 problem+json, got ${wrong}`);
      }
    }
    expect(requests).toBeGreaterThan(20);
    expect(failures).toEqual([]);
    expect(scans.length - scansBefore, 'a refused scan must not start one').toBe(0);
    expect(await snapshotOf(a.ids.clientId!)).toBe(before);
    expect(await snapshotOf(b.ids.clientId!)).toBe(beforeB);
  });

  it("answers A's own key on A's paths (every read and some writes), so the 404s above come from the key", async () => {
    const asA = service.as(aKey);
    const scansBefore = scans.length;
    const failures: string[] = [];
    for (const route of restRoutes.filter((r) => r.method === 'GET')) {
      const path = pathOf(route, a);
      const answer = await asA.rest('GET', path);
      if (answer.status !== 200) failures.push(`GET ${path} with A's key: expected 200, got ${answer.status}: ${answer.text.slice(0, 300)}`);
      if (isClientList(route) && answer.status === 200)
        expect(answer.body.map((c: { id: string }) => c.id), "A's key lists only A").toEqual([a.ids.clientId]);
    }
    expect(failures).toEqual([]);
    expect(scans.length - scansBefore, "A's key scans A's domain").toBe(1);

    const writes: [RestRoute['method'], string][] = [
      ['PUT', '/hosting/api/client/:clientId'],
      ['POST', '/hosting/api/client/:clientId/domain/:domainId/placeholder'],
      ['PUT', '/hosting/api/client/:clientId/domain/:domainId/placeholder/:placeholderName'],
      ['POST', '/hosting/api/client/:clientId/domain/:domainId/embedding/:embeddingId/asset'],
      ['PUT', '/hosting/api/client/:clientId/domain/:domainId/theme/:themeId'],
      ['POST', '/hosting/api/client/:clientId/domain/:domainId/onboarding/embeddingsFromCookies'],
      ['PUT', '/hosting/api/client/:clientId/domain/:domainId/onboarding/legalFindings'],
    ];
    for (const [method, path] of writes) {
      const route = restRoutes.find((r) => r.method === method && r.path === path);
      expect(route, `${method} ${path} is in the route table`).toBeDefined();
      const answer = await send(asA, route!, pathOf(route!, a));
      expect(answer.status, `${method} ${path} with A's key: ${answer.text.slice(0, 300)}`).toBe(route!.status);
    }
    const created = await asA.rest('POST', `${API}/${a.ids.clientId}/apikey`, { name: 'made by A' });
    expect(created.status, created.text).toBe(201);
    const revoked = await asA.rest('DELETE', `${API}/${a.ids.clientId}/apikey/${created.body.id}`);
    expect(revoked.status, revoked.text).toBe(204);

    // And A's key is as blind to B as B's key is to A.
    const answer = await asA.rest('GET', `${API}/${b.ids.clientId}`);
    expect(problemMismatch(answer, [404])).toBe('');
    const create = await asA.rest('POST', API, { username: `op-${randomUUID()}`, emailAddress: 'op@example.org', password: 'op-password' });
    expect(problemMismatch(create, [404])).toBe('');
  });
});

// ── GraphQL ─────────────────────────────────────────────────────────────────

type IdName = 'clientId' | 'domainId' | 'embeddingId' | 'assetId' | 'themeId' | 'placeholderName' | 'localeName' | 'keyId' | 'searchTerm' | 'consentId' | 'scanId' | 'findingId' | 'complianceScanId';
/** How deep an id sits: a mixed call takes the shallow ones from B and the deeper ones from A. */
const DEPTH: Record<IdName, number> = { clientId: 0, searchTerm: 0, domainId: 1, keyId: 1, embeddingId: 2, themeId: 2, placeholderName: 2, localeName: 2, consentId: 2, scanId: 2, findingId: 2, complianceScanId: 2, assetId: 3 };

/**
 * Valid arguments per mutation: which argument carries which id of the world, and the others.
 * A mutation missing here fails the suite: add its entry.
 */
const MUTATIONS: Record<string, { ids: Record<string, IdName>; args?: (tag: string) => Record<string, unknown> }> = {
  createClient: { ids: {}, args: (tag) => ({ input: { username: `op-${tag}`, emailAddress: 'op@example.org', password: 'op-password' } }) },
  updateClient: { ids: { id: 'clientId' }, args: () => ({ input: { company: 'ACME' } }) },
  deleteClient: { ids: { id: 'clientId' } },
  createApiKey: { ids: { clientId: 'clientId' }, args: (tag) => ({ input: { name: `key ${tag}` } }) },
  revokeApiKey: { ids: { clientId: 'clientId', id: 'keyId' } },
  revokeOtherApiKeys: { ids: { clientId: 'clientId' } },
  createDomain: { ids: { clientId: 'clientId' }, args: () => ({ input: { name: 'shop.example.org' } }) },
  updateDomain: { ids: { clientId: 'clientId', id: 'domainId' }, args: () => ({ input: { country: 'DE' } }) },
  deleteDomain: { ids: { clientId: 'clientId', id: 'domainId' } },
  createPlaceholder: { ids: { clientId: 'clientId', domainId: 'domainId' }, args: (tag) => ({ input: { name: `p-${tag}`, value: 'x' } }) },
  // Revision numbers count within each domain: B's domain has a revision 2 as well.
  restoreRevision: { ids: { clientId: 'clientId', domainId: 'domainId' }, args: () => ({ number: 2 }) },
  replacePlaceholders: { ids: { clientId: 'clientId', domainId: 'domainId' }, args: (tag) => ({ placeholders: [{ name: `p-${tag}`, value: 'b' }] }) },
  updatePlaceholder: { ids: { clientId: 'clientId', domainId: 'domainId', name: 'placeholderName' }, args: () => ({ input: { value: 'changed' } }) },
  deletePlaceholder: { ids: { clientId: 'clientId', domainId: 'domainId', name: 'placeholderName' } },
  createLocale: { ids: { clientId: 'clientId', domainId: 'domainId' }, args: (tag) => ({ input: { name: localeNameOf(tag), widgetTitle: 'Hello' } }) },
  updateLocale: { ids: { clientId: 'clientId', domainId: 'domainId', name: 'localeName' }, args: () => ({ input: { widgetTitle: 'Changed' } }) },
  deleteLocale: { ids: { clientId: 'clientId', domainId: 'domainId', name: 'localeName' } },
  createEmbedding: { ids: { clientId: 'clientId', domainId: 'domainId' }, args: () => ({ input: embeddingPayload({ name: 'Vimeo' }) }) },
  updateEmbedding: { ids: { clientId: 'clientId', domainId: 'domainId', embeddingId: 'embeddingId' }, args: () => ({ input: { vendor: 'Someone' } }) },
  deleteEmbedding: { ids: { clientId: 'clientId', domainId: 'domainId', embeddingId: 'embeddingId' } },
  createEmbeddingAsset: { ids: { clientId: 'clientId', domainId: 'domainId', embeddingId: 'embeddingId' }, args: () => ({ input: { name: '_ga' } }) },
  updateEmbeddingAsset: {
    ids: { clientId: 'clientId', domainId: 'domainId', embeddingId: 'embeddingId', assetId: 'assetId' },
    args: () => ({ input: { lifetime: '1 day' } }),
  },
  deleteEmbeddingAsset: { ids: { clientId: 'clientId', domainId: 'domainId', embeddingId: 'embeddingId', assetId: 'assetId' } },
  createTheme: { ids: { clientId: 'clientId', domainId: 'domainId' }, args: () => ({ input: themePayload({ name: 'Second' }) }) },
  updateTheme: { ids: { clientId: 'clientId', domainId: 'domainId', themeId: 'themeId' }, args: () => ({ input: { customCss: 'a { color: red }' } }) },
  deleteTheme: { ids: { clientId: 'clientId', domainId: 'domainId', themeId: 'themeId' } },
  scanDomain: { ids: { clientId: 'clientId', domainId: 'domainId' } },
  startScan: { ids: { clientId: 'clientId', domainId: 'domainId' } },
  startComplianceScan: { ids: { clientId: 'clientId', domainId: 'domainId' } },
  dismissScanFinding: { ids: { clientId: 'clientId', domainId: 'domainId', id: 'findingId' } },
  setWebhook: { ids: { clientId: 'clientId' }, args: () => ({ input: { url: 'https://hooks.example.org/intruder' } }) },
  deleteWebhook: { ids: { clientId: 'clientId' } },
  importPresets: { ids: { clientId: 'clientId', domainId: 'domainId' }, args: () => ({ presets: [{ id: 200, active: true }] }) },
  applyLegalFindings: {
    ids: { clientId: 'clientId', domainId: 'domainId' },
    args: () => ({ findings: { address: { company: 'Intruder GmbH', city: 'Bonn' }, imprintUrl: 'https://evil.example/imprint' } }),
  },
  createEmbeddingsFromCookies: {
    ids: { clientId: 'clientId', domainId: 'domainId' },
    args: (tag) => ({ cookies: [{ name: '_ga', storageType: 'cookie' }, { name: `unknown-${tag}`, storageType: 'localStorage' }] }),
  },
};

/** Arguments of nested fields that take any (Type.field). */
const FIELD_ARGS: Record<string, { ids: Record<string, IdName>; args?: () => Record<string, unknown> }> = {
  'Client.domain': { ids: { id: 'domainId' } },
  'Domain.placeholder': { ids: { name: 'placeholderName' } },
  'Domain.locale': { ids: { name: 'localeName' } },
  'Domain.embedding': { ids: { id: 'embeddingId' } },
  'Domain.theme': { ids: { id: 'themeId' } },
  'Domain.embeddingsFromCookiesPlan': { ids: {}, args: () => ({ cookies: [{ name: '_ga', storageType: 'cookie' }] }) },
  'Embedding.asset': { ids: { id: 'assetId' } },
  'Domain.revisions': { ids: {} },
  'Domain.revision': { ids: {}, args: () => ({ number: 2 }) },
  'Domain.revisionDiff': { ids: {}, args: () => ({ number: 2 }) },
  'Domain.consents': { ids: {} },
  'Domain.consentCounts': { ids: {} },
  'Domain.consent': { ids: { consentId: 'consentId' } },
  'Domain.consentEvidence': { ids: { consentId: 'consentId' } },
  'Domain.scans': { ids: {} },
  'Domain.scan': { ids: { id: 'scanId' } },
  'Domain.scanComparison': { ids: { id: 'scanId' } },
  'Domain.complianceScans': { ids: {} },
  'Domain.complianceScan': { ids: { id: 'complianceScanId' } },
};

/** What a client key may do with each Query field. A field missing here fails the suite. */
const QUERIES: Record<string, 'A-scoped' | 'own-list' | 'shared'> = {
  client: 'A-scoped',
  clientBySearchTerm: 'A-scoped',
  domain: 'A-scoped',
  clients: 'own-list',
  presets: 'shared',
  preset: 'shared',
};
const QUERY_IDS: Record<string, Record<string, IdName>> = {
  client: { id: 'clientId' },
  clientBySearchTerm: { searchTerm: 'searchTerm' },
  domain: { clientId: 'clientId', id: 'domainId' },
};

/** The scalar fields of a type (one level), or nothing for a scalar: enough to see data leak. */
function selectionOf(type: GraphQLOutputType): string {
  const named = getNamedType(type);
  if (isLeafType(named)) return '';
  const scalars = Object.values((named as GraphQLObjectType).getFields())
    .filter((field) => isLeafType(getNamedType(field.type)) && field.args.every((arg) => !String(arg.type).endsWith('!')))
    .map((field) => field.name);
  return `{ __typename ${scalars.join(' ')} }`;
}

type Call = { text: string; declarations: string[]; variables: Record<string, unknown> };

/** `field(arg: $p_arg, …) selection`, with its variable declarations and values. */
function callOf(field: GraphQLField<unknown, unknown>, values: Record<string, unknown>, prefix: string, inner?: string): Call {
  const declarations: string[] = [];
  const variables: Record<string, unknown> = {};
  const args = field.args.map((arg: GraphQLArgument) => {
    if (!(arg.name in values)) {
      if (String(arg.type).endsWith('!')) throw new Error(`no value for argument ${arg.name} of ${field.name}; add one to the tables of this suite`);
      return '';
    }
    declarations.push(`$${prefix}_${arg.name}: ${String(arg.type)}`);
    variables[`${prefix}_${arg.name}`] = values[arg.name];
    return `${arg.name}: $${prefix}_${arg.name}`;
  }).filter(Boolean);
  const argText = args.length ? `(${args.join(', ')})` : '';
  return { text: `${field.name}${argText} ${inner ?? selectionOf(field.type)}`, declarations, variables };
}

const idValues = (ids: Record<string, IdName>, world: World) =>
  Object.fromEntries(Object.entries(ids).map(([arg, id]) => [arg, world.ids[id]]));

function operation(kind: 'query' | 'mutation', calls: Call[], body: string): { query: string; variables: Record<string, unknown> } {
  const declarations = calls.flatMap((call) => call.declarations);
  return {
    query: `${kind}${declarations.length ? `(${declarations.join(', ')})` : ''} { ${body} }`,
    variables: Object.assign({}, ...calls.map((call) => call.variables)),
  };
}

const queryType = schema.getQueryType()!;
const mutationType = schema.getMutationType()!;
const typeNamed = (name: string) => {
  const type = schema.getType(name);
  if (!isObjectType(type)) throw new Error(`${name} is not an object type`);
  return type;
};

/** '' when the answer is a NOT_FOUND error without data, else what is wrong. */
function notFoundMismatch(answer: GraphqlAnswer, secrets: string[] = aSecrets): string {
  const wrong: string[] = [];
  const codes = (answer.errors ?? []).map((error) => error.extensions?.code);
  if (codes.length === 0 || codes.some((code) => code !== 'NOT_FOUND')) wrong.push(`error codes ${JSON.stringify(codes)}`);
  const data = answer.data ? Object.values(answer.data).filter((value) => value !== null) : [];
  if (data.length > 0) wrong.push(`data ${JSON.stringify(answer.data).slice(0, 300)}`);
  const text = JSON.stringify(answer);
  for (const secret of secrets) if (text.includes(secret)) wrong.push(`leaks ${secret}`);
  return wrong.length ? `${wrong.join('; ')}: ${JSON.stringify(answer.errors).slice(0, 300)}` : '';
}

/** The query `root(ids of world) { field(args) }`, for a field of Client or Domain. */
function nestedQuery(root: 'client' | 'domain', parentType: 'Client' | 'Domain', fieldName: string, parentWorld: World, childWorld: World) {
  const field = typeNamed(parentType).getFields()[fieldName]!;
  const entry = FIELD_ARGS[`${parentType}.${fieldName}`];
  if (field.args.length > 0 && !entry) throw new Error(`${parentType}.${fieldName} takes arguments but has no entry in FIELD_ARGS of this suite`);
  const inner = callOf(field, { ...idValues(entry?.ids ?? {}, childWorld), ...entry?.args?.() }, 'f');
  const outer = callOf(queryType.getFields()[root]!, idValues(QUERY_IDS[root]!, parentWorld), 'p', `{ ${inner.text} }`);
  return operation('query', [outer, inner], outer.text);
}

describe('GraphQL: a client key on another client', () => {
  it('has an entry for every mutation and every Query field', () => {
    const mutations = Object.keys(mutationType.getFields()).sort();
    const missing = mutations.filter((name) => !(name in MUTATIONS));
    expect(missing, `mutations without valid arguments in MUTATIONS of test/tenant-isolation.test.ts: ${missing.join(', ')}`).toEqual([]);
    expect(Object.keys(MUTATIONS).sort(), 'MUTATIONS names a mutation the schema does not have').toEqual(mutations);
    const queries = Object.keys(queryType.getFields()).sort();
    const unknown = queries.filter((name) => !(name in QUERIES));
    expect(unknown, `Query fields without an entry in QUERIES of test/tenant-isolation.test.ts: ${unknown.join(', ')}`).toEqual([]);
    for (const [name, field] of Object.entries(mutationType.getFields())) {
      const entry = MUTATIONS[name]!;
      const given = new Set([...Object.keys(entry.ids), ...Object.keys(entry.args?.('x') ?? {})]);
      const required = field.args.filter((arg) => String(arg.type).endsWith('!')).map((arg) => arg.name);
      expect(required.filter((arg) => !given.has(arg)), `required arguments of ${name} missing from MUTATIONS`).toEqual([]);
    }
  });

  it("answers NOT_FOUND to every mutation with A's ids when B's key asks, scans nothing and changes nothing of A", async () => {
    const before = await snapshotOf(a.ids.clientId!);
    const scansBefore = scans.length;
    const asB = service.as(bKey);
    const failures: string[] = [];
    // Deleting the client last: a leak there would hide every other.
    const names = Object.keys(mutationType.getFields()).sort((x, y) => Number(x === 'deleteClient') - Number(y === 'deleteClient'));
    for (const name of names) {
      const entry = MUTATIONS[name];
      if (!entry) throw new Error(`mutation ${name} has no entry in MUTATIONS of test/tenant-isolation.test.ts: add its valid arguments`);
      checked.graphqlFields.add(`Mutation.${name}`);
      const call = callOf(mutationType.getFields()[name]!, { ...idValues(entry.ids, a), ...entry.args?.(randomUUID()) }, 'm');
      const { query, variables } = operation('mutation', [call], call.text);
      const answer = await asB.graphql(query, variables);
      const wrong = notFoundMismatch(answer);
      if (wrong) failures.push(`mutation ${name} ${JSON.stringify(variables).slice(0, 200)} with B's key: expected NOT_FOUND, got ${wrong}`);
    }
    expect(failures).toEqual([]);
    expect(scans.length - scansBefore, 'scanDomain refused to B must not scan').toBe(0);
    expect(await snapshotOf(a.ids.clientId!)).toBe(before);
  });

  it("answers NOT_FOUND to every mutation when B's own ids lead to one of A's objects", async () => {
    const before = await snapshotOf(a.ids.clientId!);
    const beforeB = await snapshotOf(b.ids.clientId!);
    const scansBefore = scans.length;
    const asB = service.as(bKey);
    const failures: string[] = [];
    let requests = 0;
    for (const [name, field] of Object.entries(mutationType.getFields())) {
      const entry = MUTATIONS[name]!;
      const ids = Object.entries(entry.ids).sort(([, x], [, y]) => DEPTH[x] - DEPTH[y]);
      for (let own = 1; own < ids.length; own++) {
        const theirs = ids.slice(own);
        if (theirs.every(([, id]) => a.ids[id] === b.ids[id])) continue;
        const values = { ...idValues(Object.fromEntries(ids.slice(0, own)), b), ...idValues(Object.fromEntries(theirs), a), ...entry.args?.(randomUUID()) };
        const call = callOf(field, values, 'm');
        const { query, variables } = operation('mutation', [call], call.text);
        requests++;
        const wrong = notFoundMismatch(await asB.graphql(query, variables));
        if (wrong) failures.push(`mutation ${name} with B's key and A's ${theirs.map(([arg]) => arg).join(', ')} ${JSON.stringify(variables).slice(0, 200)}: expected NOT_FOUND, got ${wrong}`);
      }
    }
    expect(requests).toBeGreaterThan(15);
    expect(failures).toEqual([]);
    expect(scans.length - scansBefore, 'a refused scan must not start one').toBe(0);
    expect(await snapshotOf(a.ids.clientId!)).toBe(before);
    expect(await snapshotOf(b.ids.clientId!)).toBe(beforeB);
  });

  it("answers NOT_FOUND to client, domain and every field beneath them with A's ids; B lists only B and reads the catalog", async () => {
    const before = await snapshotOf(a.ids.clientId!);
    const scansBefore = scans.length;
    const asB = service.as(bKey);
    const failures: string[] = [];
    const expectNotFound = async (label: string, request: { query: string; variables: Record<string, unknown> }) => {
      const wrong = notFoundMismatch(await asB.graphql(request.query, request.variables));
      if (wrong) failures.push(`${label} with B's key: expected NOT_FOUND, got ${wrong} (query ${request.query})`);
    };

    for (const [name, field] of Object.entries(queryType.getFields())) {
      const kind = QUERIES[name];
      if (!kind) throw new Error(`Query field ${name} has no entry in QUERIES of test/tenant-isolation.test.ts`);
      checked.graphqlFields.add(`Query.${name}`);
      if (kind === 'A-scoped') {
        const call = callOf(field, idValues(QUERY_IDS[name]!, a), 'q');
        await expectNotFound(`query ${name}`, operation('query', [call], call.text));
      }
    }
    for (const parent of ['Client', 'Domain'] as const) {
      const root = parent === 'Client' ? 'client' : 'domain';
      for (const fieldName of Object.keys(typeNamed(parent).getFields())) {
        checked.graphqlFields.add(`${parent}.${fieldName}`);
        await expectNotFound(`${root}(A) { ${fieldName} }`, nestedQuery(root, parent, fieldName, a, a));
      }
    }
    // The same fields reached through the client: client(A) { domain(A's domain) { … } }.
    for (const fieldName of ['placeholders', 'embeddings', 'themes', 'embedCodeSnippets']) {
      await expectNotFound(`client(A) { domain { ${fieldName} } }`, {
        query: `query($c: ID!, $d: ID!) { client(id: $c) { domain(id: $d) { ${fieldName} { __typename } } } }`,
        variables: { c: a.ids.clientId, d: a.ids.domainId },
      });
    }
    // B's own client and domain, one of A's objects beneath them.
    await expectNotFound('client(B) { domain(A) }', nestedQuery('client', 'Client', 'domain', b, a));
    await expectNotFound('domain(B, A)', {
      query: 'query($c: ID!, $d: ID!) { domain(clientId: $c, id: $d) { id name } }',
      variables: { c: b.ids.clientId, d: a.ids.domainId },
    });
    for (const fieldName of ['embedding', 'theme']) {
      await expectNotFound(`domain(B) { ${fieldName}(A) }`, nestedQuery('domain', 'Domain', fieldName, b, a));
    }
    checked.graphqlFields.add('Embedding.asset');
    await expectNotFound("domain(B) { embedding(B) { asset(A) } }", {
      query: 'query($c: ID!, $d: ID!, $e: ID!, $x: ID!) { domain(clientId: $c, id: $d) { embedding(id: $e) { asset(id: $x) { id name } } } }',
      variables: { c: b.ids.clientId, d: b.ids.domainId, e: b.ids.embeddingId, x: a.ids.assetId },
    });
    expect(failures).toEqual([]);

    const clients = await asB.graphql('{ clients { id username company } }');
    expect(clients.errors).toBeUndefined();
    expect(clients.data.clients.map((client: { id: string }) => client.id), 'B lists only B').toEqual([b.ids.clientId]);
    const presets = await asB.graphql('{ presets(first: 5) { id name } }');
    expect(presets.errors).toBeUndefined();
    expect(presets.data.presets.length, 'B reads the shared catalog').toBeGreaterThan(0);
    const onePreset = await asB.graphql('{ preset(id: 200) { id } }');
    expect(onePreset.errors).toBeUndefined();
    expect(onePreset.data.preset, 'B reads one service of the shared catalog').toEqual({ id: 200 });

    expect(scans.length - scansBefore, 'a refused scan must not start one').toBe(0);
    expect(await snapshotOf(a.ids.clientId!)).toBe(before);
  });

  it("answers A's own key on A's objects", async () => {
    const asA = service.as(aKey);
    const read = await asA.graphql(
      `query($c: ID!, $d: ID!, $e: ID!, $x: ID!) {
        clients { id }
        client(id: $c) { id apiKeys { id } domains { id } }
        domain(clientId: $c, id: $d) { id placeholders { name } embedding(id: $e) { asset(id: $x) { id } } themes { id } embedCodeSnippets { default } }
      }`,
      { c: a.ids.clientId, d: a.ids.domainId, e: a.ids.embeddingId, x: a.ids.assetId },
    );
    expect(read.errors).toBeUndefined();
    expect(read.data.clients).toEqual([{ id: a.ids.clientId }]);
    expect(read.data.domain.embedding.asset.id).toBe(a.ids.assetId);
    const write = await asA.graphql(
      'mutation($c: ID!, $d: ID!) { createPlaceholder(clientId: $c, domainId: $d, input: { name: "by-a", value: "x" }) { name } }',
      { c: a.ids.clientId, d: a.ids.domainId },
    );
    expect(write.errors).toBeUndefined();
    expect(write.data.createPlaceholder.name).toBe('by-a');
  });
});

// ── revoked keys and keys of deleted clients ────────────────────────────────

describe('keys that no longer hold', () => {
  const expectUnauthenticated = (answer: GraphqlAnswer, label: string) => {
    expect(answer.status, label).toBe(401);
    expect(answer.errors?.map((error) => error.extensions?.code), label).toEqual(['UNAUTHENTICATED']);
    expect(answer.data ?? null, label).toBeNull();
  };

  it('answers a revoked key 401 on every route and UNAUTHENTICATED in GraphQL', async () => {
    const before = await snapshotOf(a.ids.clientId!);
    const created = await createKey(a.ids.clientId!, 'to be revoked');
    const revokedKey = service.as(created.key);
    const warm = await revokedKey.rest('GET', `${API}/${a.ids.clientId}`); // the key ring now remembers it
    expect(warm.status, warm.text).toBe(200);
    const revoke = await service.rest('DELETE', `${API}/${a.ids.clientId}/apikey/${created.id}`);
    expect(revoke.status, revoke.text).toBe(204);

    const failures: string[] = [];
    for (const route of routesInOrder) {
      const path = pathOf(route, a);
      const wrong = problemMismatch(await send(revokedKey, route, path), [401]);
      if (wrong) failures.push(`${route.method} ${path} with a revoked key of A: expected 401 problem+json, got ${wrong}`);
    }
    expect(failures).toEqual([]);
    expectUnauthenticated(await revokedKey.graphql('{ clients { id } }'), 'clients');
    expectUnauthenticated(await revokedKey.graphql('{ presets { id } }'), 'presets');
    expectUnauthenticated(
      await revokedKey.graphql('query($c: ID!, $d: ID!) { domain(clientId: $c, id: $d) { id } }', { c: a.ids.clientId, d: a.ids.domainId }),
      'domain',
    );

    // Revoked through GraphQL by the client itself: the same.
    const second = await createKey(a.ids.clientId!, 'revoked through GraphQL');
    const ownRevoke = await service.as(second.key).graphql('mutation($c: ID!, $k: ID!) { revokeApiKey(clientId: $c, id: $k) }', {
      c: a.ids.clientId,
      k: second.id,
    });
    expect(ownRevoke.errors).toBeUndefined();
    expectUnauthenticated(await service.as(second.key).graphql('{ clients { id } }'), 'clients after revokeApiKey');
    expect(problemMismatch(await service.as(second.key).rest('GET', `${API}/${a.ids.clientId}`), [401])).toBe('');

    expect(await snapshotOf(a.ids.clientId!)).toBe(before);
  });

  it.each([
    { used: true, label: 'used before the deletion' },
    { used: false, label: 'never used before the deletion' },
  ])('answers the key of a deleted client ($label) 404 or 401 everywhere, and it sees nothing', async ({ used }) => {
    const before = await snapshotOf(a.ids.clientId!);
    const gone = await seedWorld(service);
    const goneKey = (await createKey(gone.ids.clientId!, 'of a client to be deleted')).key;
    const asGone = service.as(goneKey);
    if (used) {
      const warm = await asGone.rest('GET', `${API}/${gone.ids.clientId}`); // the key ring now remembers it
      expect(warm.status, warm.text).toBe(200);
    }
    const deleted = await service.rest('DELETE', `${API}/${gone.ids.clientId}`);
    expect(deleted.status, deleted.text).toBe(204);

    const failures: string[] = [];
    for (const route of routesInOrder) {
      for (const [whose, world] of [['its own (deleted) ids', gone], ["A's ids", a]] as const) {
        const path = pathOf(route, world);
        const answer = await send(asGone, route, path);
        const wrong = problemMismatch(answer, [401, 404]);
        if (wrong) failures.push(`${route.method} ${path} (${whose}) with the key of a deleted client: expected 404 or 401 problem+json, got ${wrong}`);
      }
    }
    const graphqlCalls: [string, string, Record<string, unknown>][] = [
      ['clients', '{ clients { id username } }', {}],
      ['presets', '{ presets(first: 5) { id } }', {}],
      ['client (own)', 'query($c: ID!) { client(id: $c) { id } }', { c: gone.ids.clientId }],
      ['domain (own)', 'query($c: ID!, $d: ID!) { domain(clientId: $c, id: $d) { id } }', { c: gone.ids.clientId, d: gone.ids.domainId }],
      ['domain (A)', 'query($c: ID!, $d: ID!) { domain(clientId: $c, id: $d) { id } }', { c: a.ids.clientId, d: a.ids.domainId }],
      ['createApiKey (own)', 'mutation($c: ID!) { createApiKey(clientId: $c, input: { name: "again" }) { key } }', { c: gone.ids.clientId }],
    ];
    for (const [label, query, variables] of graphqlCalls) {
      const answer = await asGone.graphql(query, variables);
      const codes = (answer.errors ?? []).map((error) => error.extensions?.code);
      const data = answer.data ? Object.values(answer.data).filter((value) => value !== null) : [];
      if (codes.length === 0 || codes.some((code) => code !== 'NOT_FOUND' && code !== 'UNAUTHENTICATED') || data.length > 0)
        failures.push(`GraphQL ${label} with the key of a deleted client: expected NOT_FOUND or UNAUTHENTICATED and no data, got ${JSON.stringify({ errors: answer.errors, data: answer.data }).slice(0, 300)}`);
    }
    expect(failures).toEqual([]);
    expect(await snapshotOf(a.ids.clientId!)).toBe(before);
  });
});
