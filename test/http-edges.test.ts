import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restRoutes } from '../rest-adapter/routes.ts';
import type { RestRoute } from '../src/features/feature.ts';
import { routeLabel as label, samplePayload, seedWorld, stateOf, pathOf, type World } from './support/route-world.ts';
import { startScanningTestService } from './support/scanning-service.ts';
import type { HttpAnswer, TestService } from './support/service.ts';
import { SCAN_JOB_STATUSES } from '../src/features/scan-jobs/scan-job.contract.ts';

/**
 * The edges of the HTTP surface (SERVICE.md §3 "Rules that hold everywhere"), driven from the
 * REST route table: every route, path and body route found in `restRoutes` is covered, so a
 * new row is checked without touching this file (a new path parameter or body route needs a
 * seed id or a sample payload below, and the suite says so).
 */

let service: TestService;
let close: () => Promise<void>;
beforeAll(async () => {
  // A real scanner, so the scan route answers from a (fixture) website too.
  ({ service, close } = await startScanningTestService());
});
afterAll(() => close());

// ── the route table, read as data ───────────────────────────────────────────

const bodyRoutes = restRoutes.filter((route) => route.body !== undefined);
/** Whether the route's body is an array (bulk) payload: its schema accepts `[]`. */
const takesArray = (route: RestRoute) => route.body!.safeParse([]).success;

const ALL_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD'] as const;
const methodsByPath = new Map<string, Set<string>>();
for (const route of restRoutes) {
  const methods = methodsByPath.get(route.path) ?? new Set<string>();
  methods.add(route.method);
  // HEAD comes with GET, unless answering it would mean doing the GET's whole work (a scan).
  if (route.method === 'GET' && route.head !== false) methods.add('HEAD');
  methodsByPath.set(route.path, methods);
}
const notAllowed = [...methodsByPath].flatMap(([path, methods]) =>
  ALL_METHODS.filter((method) => !methods.has(method)).map((method) => ({ path, method, allow: [...methods].sort() })),
);

// ── assertions ──────────────────────────────────────────────────────────────

/** An RFC 9457 problem with the status; a 400 lists its problems in `errors`. */
function expectProblem(answer: HttpAnswer, status: number) {
  expect(answer.status, answer.text.slice(0, 500)).toBe(status);
  expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(answer.body).toMatchObject({
    type: expect.any(String),
    title: expect.any(String),
    status,
    detail: expect.any(String),
  });
  if (status === 400) {
    expect(Array.isArray(answer.body.errors)).toBe(true);
    for (const error of answer.body.errors) expect(error).toEqual({ path: expect.any(String), message: expect.any(String) });
  }
}

const json = { 'content-type': 'application/json' };

// ── the tests ───────────────────────────────────────────────────────────────

describe('a path that matches no route', () => {
  let world: World;
  beforeAll(async () => {
    world = await seedWorld(service);
  });

  const paths: [string, (w: World) => string][] = [
    ['/', () => '/'],
    ['/nothing-here', () => '/nothing-here'],
    ['/hosting/api', () => '/hosting/api'],
    ['/hosting/api/clients', () => '/hosting/api/clients'],
    ['a differently cased prefix', (w) => `/Hosting/API/client/${w.ids.clientId}`],
    ['an unknown collection under a domain', (w) => `${w.domain.base}/cookie`],
    ['a segment too many under a placeholder', (w) => `${w.domain.base}/placeholder/seeded/extra`],
    ['a segment too many under an asset', (w) => `${w.domain.base}/embedding/${w.ids.embeddingId}/asset/${w.ids.assetId}/more`],
  ];

  it.each(paths)('is 404 problem+json: %s', async (_, pathFor) => {
    for (const method of ['GET', 'POST', 'DELETE', 'PATCH']) {
      const answer = await service.raw({
        method,
        path: pathFor(world),
        ...(method === 'POST' || method === 'PATCH' ? { body: '{}', headers: json } : {}),
      });
      expectProblem(answer, 404);
    }
  });
});

describe('a known path with a method it does not take', () => {
  let world: World;
  beforeAll(async () => {
    world = await seedWorld(service);
  });

  it('covers every path of the table', () => {
    expect(methodsByPath.size).toBeGreaterThan(0);
    expect(notAllowed.length).toBeGreaterThan(0);
  });

  it.each(notAllowed)('$method $path is 405 with Allow: $allow', async ({ path, method, allow }) => {
    const before = await stateOf(service, world);
    const answer = await service.raw({
      method,
      path: pathOf({ path }, world),
      ...(method === 'GET' || method === 'DELETE' || method === 'HEAD' ? {} : { body: '{}', headers: json }),
    });
    if (method === 'HEAD') {
      // A HEAD answer has no body to hold the problem.
      expect(answer.status).toBe(405);
      expect(answer.text).toBe('');
    } else {
      expectProblem(answer, 405);
    }
    const header = answer.headers.get('allow');
    expect(header, 'Allow header').not.toBeNull();
    expect(header!.split(',').map((m) => m.trim()).sort()).toEqual(allow);
    expect(await stateOf(service, world)).toEqual(before);
  });
});

describe.each(bodyRoutes.map((route) => [label(route), route] as const))('bodies of %s', (_, route) => {
  let world: World;
  beforeAll(async () => {
    world = await seedWorld(service);
  });

  /** Sends the body, expects the problem, and proves nothing changed. */
  async function refused(body: string | Buffer, status: number, headers: Record<string, string> = json) {
    const before = await stateOf(service, world);
    const answer = await service.raw({ method: route.method, path: pathOf(route, world), body, headers });
    expectProblem(answer, status);
    expect(await stateOf(service, world)).toEqual(before);
    return answer;
  }

  it('refuses a body over 2 MiB with 413', async () => {
    const filler = 'x'.repeat(2 * 1024 * 1024 + 1024);
    const body = takesArray(route) ? `[${JSON.stringify(filler)}]` : JSON.stringify({ name: filler });
    await refused(body, 413);
  });

  it.each([
    ['"{not json"', '{not json'],
    ['an empty body', ''],
    ['a truncated document', '{"name": "a"'],
    ['a trailing comma', '{"name": "a",}'],
    ['single quotes', "{'name': 'a'}"],
  ])('refuses a body that is not JSON (%s) with 400 and an errors array', async (_, body) => {
    await refused(body, 400);
  });

  const wrongShapes: [string, string][] = [
    ['a bare string', '"just a string"'],
    ['a bare number', '42'],
    ['null', 'null'],
    ['true', 'true'],
  ];
  if (takesArray(route)) {
    wrongShapes.push(['an object where an array belongs', '{}'], ['an object with index keys', '{"0": {"name": "a", "value": "b"}}']);
  } else {
    wrongShapes.push(['an array where an object belongs', '[]'], ['an array of an object', '[{}]']);
  }
  it.each(wrongShapes)('refuses JSON of the wrong shape (%s) with 400 pointing at the payload', async (_, body) => {
    const answer = await refused(body, 400);
    expect(answer.body.errors).toContainEqual({ path: '', message: expect.any(String) });
  });

  it('refuses a body that is not valid UTF-8 with 400 (bad bytes are not stored as U+FFFD)', async () => {
    const sample = Buffer.from(JSON.stringify(samplePayload(route)));
    // The bytes go inside the first string value, where a lenient decoder would keep them.
    const at = sample.indexOf('":"') + 3;
    const body = at > 2 ? Buffer.concat([sample.subarray(0, at), Buffer.from([0xc3, 0x28, 0xff]), sample.subarray(at)]) : Buffer.concat([sample, Buffer.from([0xff])]);
    const answer = await refused(body, 400);
    expect(answer.body.errors).toEqual([{ path: '', message: expect.stringContaining('UTF-8') }]);
  });

  // What the service does: the REST router parses every body as JSON whatever content type it
  // claims (rest-adapter/router.ts), so a valid JSON body under text/plain or with no content
  // type at all is read like application/json. Shown here with an unknown property: the 400
  // points at that property, which only a parsed body can do.
  it.each([
    ['text/plain', { 'content-type': 'text/plain' }],
    ['application/x-www-form-urlencoded', { 'content-type': 'application/x-www-form-urlencoded' }],
    ['no content type', {}],
  ])('parses a JSON body sent as %s (a 400 names the unknown property)', async (_, headers) => {
    const array = takesArray(route);
    const body = Buffer.from(array ? '[{"notAField": 1}]' : '{"notAField": 1}');
    const answer = await refused(body, 400, headers);
    expect(answer.body.errors).toContainEqual({ path: array ? '/0/notAField' : '/notAField', message: expect.any(String) });
  });
});

describe('array payloads', () => {
  const bulk = restRoutes.find((route) => route.method === 'PUT' && route.path.endsWith('/placeholder'));
  let world: World;
  beforeAll(async () => {
    world = await seedWorld(service);
  });
  const items = (count: number) => Array.from({ length: count }, (_, i) => ({ name: `p${i}`, value: `v${i}` }));

  it('refuses a bulk replace of 1,001 placeholders with 400 and stores none', async () => {
    expect(bulk).toBeDefined();
    const before = await stateOf(service, world);
    const answer = await service.rest('PUT', pathOf(bulk!, world), items(1001));
    expectProblem(answer, 400);
    expect(answer.body.errors.length).toBeGreaterThan(0);
    expect(await stateOf(service, world)).toEqual(before);
  });

  it('takes a bulk replace of exactly 1,000 placeholders (201)', async () => {
    const answer = await service.rest('PUT', pathOf(bulk!, world), items(1000));
    expect(answer.status, answer.text.slice(0, 500)).toBe(201);
    expect(answer.body).toHaveLength(1000);
    const stored = await service.rest('GET', pathOf(bulk!, world));
    expect(stored.body).toEqual(items(1000));
  });

  it('takes a body just under 2 MiB (not 413)', async () => {
    const create = restRoutes.find((route) => route.method === 'POST' && route.path.endsWith('/placeholder'))!;
    const value = 'x'.repeat(2 * 1024 * 1024 - 100);
    const answer = await service.rest('POST', pathOf(create, world), { name: 'big', value });
    expect(answer.status, answer.text.slice(0, 500)).toBe(201);
    expect(answer.body.value).toHaveLength(value.length);
  });
});

describe('success answers', () => {
  it.each(restRoutes.map((route) => [label(route), route] as const))(
    '%s answers its status, as JSON, as the media type it produces, or (204) with an empty body',
    async (_, route) => {
      const world = await seedWorld(service);
      const answer = await service.raw({
        method: route.method,
        path: pathOf(route, world),
        ...(route.body ? { body: JSON.stringify(samplePayload(route)), headers: json } : {}),
      });
      expect(answer.status, answer.text.slice(0, 500)).toBe(route.status);
      if (route.status === 204) {
        expect(answer.text).toBe('');
        expect(answer.headers.get('content-length') ?? '0').toBe('0');
      } else if (route.produces) {
        expect(answer.headers.get('content-type')).toBe(`${route.produces}; charset=utf-8`);
        expect(answer.text).not.toBe('');
      } else {
        expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
        expect(() => JSON.parse(answer.text)).not.toThrow();
      }
    },
  );

  it.each(bodyRoutes.map((route) => [label(route), route] as const))(
    '%s takes a valid JSON body sent as text/plain like application/json',
    async (_, route) => {
      const world = await seedWorld(service);
      const answer = await service.raw({
        method: route.method,
        path: pathOf(route, world),
        body: JSON.stringify(samplePayload(route)),
        headers: { 'content-type': 'text/plain' },
      });
      expect(answer.status, answer.text.slice(0, 500)).toBe(route.status);
      expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    },
  );
});

describe('what success answers say besides their body', () => {
  const creates = restRoutes.filter((route) => route.location);

  it.each(creates.map((route) => [label(route), route] as const))('%s says where the new resource is (Location)', async (_, route) => {
    const world = await seedWorld(service);
    const answer = await service.rest(route.method, pathOf(route, world), route.body ? samplePayload(route) : undefined);
    expect(answer.status, answer.text.slice(0, 300)).toBe(201);
    const location = answer.headers.get('location');
    expect(location, 'Location').toMatch(/^\/hosting\/api\/client\//);
    const readable = restRoutes.some((other) => other.method === 'GET' && new RegExp(`^${other.path.replace(/:\w+/g, '[^/]+')}$`).test(location!));
    if (readable) {
      const read = await service.rest('GET', location!);
      expect(read.status).toBe(200);
      if (answer.body.status === 'queued') {
        // A queued job (a scan, a compliance scan) may have been taken by a worker in between:
        // the read names the same job, in its state now.
        const stable = Object.fromEntries(['id', 'url', 'trigger', 'domainId'].filter((key) => key in answer.body).map((key) => [key, answer.body[key]]));
        expect(read.body).toMatchObject(stable);
        expect(SCAN_JOB_STATUSES).toContain(read.body.status);
      } else {
        // The read says at least what the create answered (a revision's read adds its configuration).
        expect(read.body).toMatchObject(answer.body);
      }
    } else {
      // An API key has no read route: its address is where it is revoked, and the list holds it.
      expect(location).toBe(`${pathOf(route, world)}/${answer.body.id}`);
      expect((await service.rest('GET', pathOf(route, world))).body.map((key: { id: string }) => key.id)).toContain(answer.body.id);
    }
  });

  it('every create of one resource has a Location; bulk creates have none', () => {
    const single = restRoutes.filter((route) => route.status === 201 && !route.body?.safeParse([]).success);
    expect(single.map(label).sort()).toEqual(creates.map(label).sort());
  });

  it('the answer that shows a new API key may not be stored by any cache (REST and GraphQL)', async () => {
    const world = await seedWorld(service);
    const rest = await service.rest('POST', `/hosting/api/client/${world.ids.clientId}/apikey`, { name: 'cache test' });
    expect(rest.status).toBe(201);
    expect(rest.headers.get('cache-control')).toBe('no-store');
    const viaGraphql = await service.raw({
      method: 'POST',
      path: '/graphql',
      body: JSON.stringify({ query: 'mutation($c: ID!) { createApiKey(clientId: $c, input: { name: "gql" }) { key } }', variables: { c: world.ids.clientId } }),
      headers: json,
    });
    expect(viaGraphql.body.data.createApiKey.key).toMatch(/^dcs_/);
    expect(viaGraphql.headers.get('cache-control')).toBe('no-store');
  });

  it('HEAD of a scan is 405 and starts no crawl; HEAD of a read answers its headers', async () => {
    const world = await seedWorld(service);
    const scans = async () => {
      const metrics = await service.raw({ method: 'GET', path: '/metrics' });
      return [...metrics.text.matchAll(/^consent_config_scan_duration_seconds_count\{[^}]*\} (\d+)$/gm)].reduce((sum, [, n]) => sum + Number(n), 0);
    };
    const before = await scans();
    const head = await service.raw({ method: 'HEAD', path: `${world.domain.base}/onboarding/scan` });
    expect(head.status).toBe(405);
    expect(head.headers.get('allow')).toBe('GET');
    expect(await scans()).toBe(before);
    const read = await service.raw({ method: 'HEAD', path: world.domain.base });
    expect(read.status).toBe(200);
    expect(read.headers.get('content-type')).toMatch(/^application\/json/);
  });
});

describe('GraphQL edges', () => {
  it('serves GraphiQL to a browser (GET /graphql, Accept: text/html)', async () => {
    const answer = await service.raw({ method: 'GET', path: '/graphql', headers: { accept: 'text/html' } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
    expect(answer.text).toMatch(/<html/i);
    expect(answer.text).toMatch(/graphiql/i);
  });

  it('answers a syntax error with a GraphQL error, not a 500', async () => {
    const answer = await service.graphql('query { clients { id ');
    expect(answer.status).toBeLessThan(500);
    expect(answer.data ?? undefined).toBeUndefined();
    expect(answer.errors?.[0]?.message).toMatch(/syntax error/i);
  });

  it('answers an unknown field with a GraphQL error, not a 500', async () => {
    const answer = await service.graphql('query { clients { id noSuchField } }');
    expect(answer.status).toBeLessThan(500);
    expect(answer.data ?? undefined).toBeUndefined();
    expect(answer.errors?.[0]?.message).toMatch(/noSuchField/);
  });

  it('answers a body that is not JSON with an error, not a 500', async () => {
    const answer = await service.raw({ method: 'POST', path: '/graphql', body: '{not json', headers: json });
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
  });

  it('refuses a body that is not valid UTF-8 with 400, running nothing', async () => {
    const world = await seedWorld(service);
    const before = await stateOf(service, world);
    const document = JSON.stringify({
      query: 'mutation($c: ID!, $d: ID!, $v: String!) { createPlaceholder(clientId: $c, domainId: $d, input: { name: "bytes", value: $v }) { name } }',
      variables: { c: world.ids.clientId, d: world.ids.domainId, v: 'MARK' },
    });
    const [head, tail] = document.split('MARK');
    const answer = await service.raw({ method: 'POST', path: '/graphql', body: Buffer.concat([Buffer.from(head!), Buffer.from([0xff, 0xfe]), Buffer.from(tail!)]), headers: json });
    expectProblem(answer, 400);
    expect(await stateOf(service, world)).toEqual(before);
  });
});
