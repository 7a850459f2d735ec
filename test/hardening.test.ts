import {
  GraphQLObjectType,
  Lexer,
  Source,
  TokenKind,
} from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSRF_HEADER, GRAPHQL_LIMITS } from '../src/graphql/hardening.ts';
import { schema } from '../src/app/graphql-schema.ts';
import { API, createApiKey, createClient, createDomain, embeddingPayload, themePayload } from './support/fixtures.ts';
import { fullSelection, namedType, withoutRequiredArgs } from './support/schema-selection.ts';
import { ADMIN_KEY, type GraphqlAnswer, type HttpAnswer, type TestService, startTestService } from './support/service.ts';

/**
 * Hardening of the HTTP surface: the GraphQL Armor limits (each shown from both sides, with the
 * numbers of GRAPHQL_LIMITS), field suggestions, CSRF prevention, body limits, security headers,
 * CORS, rate limits and authentication.
 */

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

/** Tokens as GraphQL Armor counts them: every lexer token but <SOF> and <EOF>; comments are skipped. */
function tokenCount(document: string): number {
  const lexer = new Lexer(new Source(document));
  let count = 0;
  while (lexer.advance().kind !== TokenKind.EOF) count++;
  return count;
}

function expectAnswered(answer: GraphqlAnswer) {
  expect(answer.errors, JSON.stringify(answer.errors)).toBeUndefined();
  expect(answer.status).toBe(200);
  expect(answer.data).toBeTruthy();
}

/** Refused before execution with a GraphQL error naming the limit, never a 500 (the exact status: see below). */
function expectRefused(answer: GraphqlAnswer, message: RegExp) {
  expect(answer.status, JSON.stringify(answer.errors)).toBeLessThan(500);
  expect(answer.data ?? undefined).toBeUndefined();
  expect(answer.errors).toHaveLength(1);
  expect(answer.errors![0]!.message).toMatch(message);
  expect(answer.errors![0]!.extensions?.code).not.toBe('INTERNAL');
}

function expectProblem(answer: HttpAnswer, status: number) {
  expect(answer.status, answer.text.slice(0, 300)).toBe(status);
  expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(answer.body).toMatchObject({ type: expect.any(String), title: expect.any(String), status, detail: expect.any(String) });
}




/** The same, written as one fragment per type, as client code with colocated fragments does. */
function fragmentSelection(root: GraphQLObjectType): { spread: string; fragments: string } {
  const fragments = new Map<string, string>();
  const define = (type: GraphQLObjectType) => {
    if (fragments.has(type.name)) return;
    fragments.set(type.name, '');
    const fields = Object.values(type.getFields())
      .filter(withoutRequiredArgs)
      .map((field) => {
        const target = namedType(field.type);
        if (!(target instanceof GraphQLObjectType)) return field.name;
        define(target);
        return `${field.name} { ...${target.name}Fields }`;
      });
    fragments.set(type.name, `fragment ${type.name}Fields on ${type.name} { ${fields.join(' ')} }`);
  };
  define(root);
  return { spread: `...${root.name}Fields`, fragments: [...fragments.values()].join('\n') };
}

/** The longest chain of object fields below a type, as field names; fields with required arguments optional. */
function deepestPath(type: GraphQLObjectType, includeArgs: boolean, seen: Set<string> = new Set()): string[] {
  if (seen.has(type.name)) throw new Error(`the schema has a cycle through ${type.name}: depth is unbounded`);
  let best: string[] = [];
  for (const field of Object.values(type.getFields())) {
    if (!includeArgs && !withoutRequiredArgs(field)) continue;
    const target = namedType(field.type);
    const path = target instanceof GraphQLObjectType ? [field.name, ...deepestPath(target, includeArgs, new Set([...seen, type.name]))] : [field.name];
    if (path.length > best.length) best = path;
  }
  return best;
}

/** `{ __type { name ofType { name ofType { … } } } }` whose deepest field sits at `depth` (`__type` is 1). */
function introspectionChain(depth: number): string {
  let inner = 'name';
  for (let level = depth - 1; level >= 2; level--) inner = `name ofType { ${inner} }`;
  return `{ __type(name: "Client") { ${inner} } }`;
}

/**
 * The same chain cut into fragments, each at most `perFragment` levels deep on its own: a new
 * fragment starts every `perFragment` levels, and their depths add up.
 */
function fragmentChain(depth: number, perFragment: number): string {
  const fragments: string[] = [];
  const levels = (level: number): string => (level === depth ? 'name' : `name ofType { ${open(level + 1)} }`);
  const open = (level: number): string => {
    if ((level - 2) % perFragment !== 0) return levels(level);
    const name = `F${fragments.length}`;
    const index = fragments.push('') - 1;
    fragments[index] = `fragment ${name} on __Type { ${levels(level)} }`;
    return `...${name}`;
  };
  return `{ __type(name: "Client") { ${open(2)} } }\n${fragments.join('\n')}`;
}

/** Aliased `presets(first: …) { id name }`, whose estimated cost is 5 per row (object 2, two scalars 1.5 each). */
function presetsCostQuery(rows: number): { query: string; aliases: number; cost: number } {
  const firsts = range(Math.ceil(rows / 1000)).map((i) => Math.min(1000, rows - i * 1000));
  return {
    query: `{ ${firsts.map((first, i) => `p${i}: presets(first: ${first}) { id name }`).join(' ')} }`,
    aliases: firsts.length,
    cost: rows * (2 + 1.5 * 2),
  };
}

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

describe('GraphQL limits', () => {
  describe('depth', () => {
    it('the schema is too shallow to exceed the limit with real fields; its deepest query is answered', async () => {
      const deepestWithArgs = deepestPath(schema.getQueryType()!, true);
      const deepest = deepestPath(schema.getQueryType()!, false);
      // The deepest chains of real fields are six long, below a domain (clients → domains →
      // embeddings → assets → translations → locale, or → complianceScans → scans → error → kind).
      expect(deepestWithArgs.length).toBeLessThan(GRAPHQL_LIMITS.depth);
      expect(deepest.slice(0, 2)).toEqual(['clients', 'domains']);
      expect(deepest).toHaveLength(6);
      const query = deepest.reduceRight((inner, field) => (inner ? `${field} { ${inner} }` : field), '');
      expectAnswered(await service.graphql(`{ ${query} }`));
    });

    it('answers introspection nested exactly to the limit and refuses one level more', async () => {
      expectAnswered(await service.graphql(introspectionChain(GRAPHQL_LIMITS.depth)));
      expectRefused(
        await service.graphql(introspectionChain(GRAPHQL_LIMITS.depth + 1)),
        new RegExp(`depth limit of ${GRAPHQL_LIMITS.depth} exceeded, found ${GRAPHQL_LIMITS.depth + 1}`),
      );
    });

    it('counts the depth of nested fragments, each shallow on its own', async () => {
      const perFragment = Math.ceil(GRAPHQL_LIMITS.depth / 3);
      expectAnswered(await service.graphql(fragmentChain(GRAPHQL_LIMITS.depth, perFragment)));
      expectRefused(
        await service.graphql(fragmentChain(GRAPHQL_LIMITS.depth + 1, perFragment)),
        new RegExp(`depth limit of ${GRAPHQL_LIMITS.depth} exceeded, found ${GRAPHQL_LIMITS.depth + 1}`),
      );
    });
  });

  it('aliases: answers the limit of aliased fields and refuses one more', async () => {
    const aliased = (n: number) => `{ ${range(n).map((i) => `c${i}: clients { id }`).join(' ')} }`;
    expectAnswered(await service.graphql(aliased(GRAPHQL_LIMITS.aliases)));
    expectRefused(
      await service.graphql(aliased(GRAPHQL_LIMITS.aliases + 1)),
      new RegExp(`Aliases limit of ${GRAPHQL_LIMITS.aliases} exceeded, found ${GRAPHQL_LIMITS.aliases + 1}`),
    );
  });

  it('aliases in fragments count too', async () => {
    const half = Math.ceil((GRAPHQL_LIMITS.aliases + 1) / 2);
    const fields = (from: number) => range(half).map((i) => `c${from + i}: clients { id }`).join(' ');
    const query = `{ ...A ...B } fragment A on Query { ${fields(0)} } fragment B on Query { ${fields(half)} }`;
    expectRefused(await service.graphql(query), new RegExp(`Aliases limit of ${GRAPHQL_LIMITS.aliases} exceeded`));
  });

  it('directives: answers the limit of @include and refuses one more', async () => {
    const directed = (n: number) => `{ ${range(n).map((i) => `t${i}: __typename @include(if: true)`).join(' ')} }`;
    const inside = await service.graphql(directed(GRAPHQL_LIMITS.directives));
    expectAnswered(inside);
    expect(Object.keys(inside.data)).toHaveLength(GRAPHQL_LIMITS.directives);
    expectRefused(
      await service.graphql(directed(GRAPHQL_LIMITS.directives + 1)),
      new RegExp(`Directives limit of ${GRAPHQL_LIMITS.directives} exceeded, found ${GRAPHQL_LIMITS.directives + 1}`),
    );
  });

  it('tokens: answers a document of exactly the limit and refuses one token more', async () => {
    // `{` … `}` around aliased __typename (3 tokens each, no alias counted), topped up with bare __typename.
    const body = GRAPHQL_LIMITS.tokens - 2;
    const aliased = Math.floor(body / 3);
    const document = (extra: number) =>
      `{ ${range(aliased).map((i) => `t${i}: __typename`).join(' ')} ${'__typename '.repeat(body - aliased * 3 + extra)}}`;
    expect(tokenCount(document(0))).toBe(GRAPHQL_LIMITS.tokens);
    expect(tokenCount(document(1))).toBe(GRAPHQL_LIMITS.tokens + 1);
    expectAnswered(await service.graphql(document(0)));
    expectRefused(await service.graphql(document(1)), new RegExp(`Token limit of ${GRAPHQL_LIMITS.tokens} exceeded`));
  });

  it('cost: answers a query estimated at the limit and refuses one estimated just above it', async () => {
    const inside = presetsCostQuery(Math.floor(GRAPHQL_LIMITS.cost / 5));
    const over = presetsCostQuery(Math.floor(GRAPHQL_LIMITS.cost / 5) + 1);
    expect(inside.cost).toBeLessThanOrEqual(GRAPHQL_LIMITS.cost);
    expect(over.cost).toBeGreaterThan(GRAPHQL_LIMITS.cost);
    // Neither hits another limit first.
    expect(over.aliases).toBeLessThanOrEqual(GRAPHQL_LIMITS.aliases);
    expect(tokenCount(over.query)).toBeLessThan(GRAPHQL_LIMITS.tokens);
    expectAnswered(await service.graphql(inside.query));
    expectRefused(await service.graphql(over.query), new RegExp(`Cost limit of ${GRAPHQL_LIMITS.cost} exceeded, found ${over.cost}`));
  });

  it("a dashboard's whole-domain query (every field without required arguments) stays inside every limit", async () => {
    const path = await createDomain(service, 'www.hardening.example');
    for (const [suffix, payload] of [
      ['/embedding', embeddingPayload()],
      ['/theme', themePayload()],
      ['/placeholder', { name: 'company', value: 'Example Ltd' }],
    ] as const) {
      const created = await service.rest('POST', `${path.base}${suffix}`, payload);
      expect(created.status, created.text).toBe(201);
    }
    const domain = fullSelection(schema.getType('Domain') as GraphQLObjectType);
    const client = fullSelection(schema.getType('Client') as GraphQLObjectType);
    const one = await service.graphql(`{ domain(clientId: "${path.clientId}", id: "${path.domainId}") { ${domain} } }`);
    expectAnswered(one);
    expect(one.data.domain.embeddings[0].assets).toHaveLength(2);
    expect(one.data.domain.themes).toHaveLength(1);
    const all = await service.graphql(`{ clients { ${client} } }`);
    expectAnswered(all);
  });

  it("the same whole-domain query written with one fragment per type (as clients colocate them) stays inside every limit", async () => {
    const path = await createDomain(service, 'www.fragments.example');
    const { spread, fragments } = fragmentSelection(schema.getType('Domain') as GraphQLObjectType);
    const answer = await service.graphql(`{ domain(clientId: "${path.clientId}", id: "${path.domainId}") { ${spread} } }\n${fragments}`);
    expectAnswered(answer);
  });

  it('refusals by the limits are HTTP 400, like the validation errors Yoga itself reports', async () => {
    // GraphQL over HTTP, application/graphql-response+json: an answer without `data` must be 4xx.
    const aliased = `{ ${range(GRAPHQL_LIMITS.aliases + 1).map((i) => `c${i}: clients { id }`).join(' ')} }`;
    const directed = `{ ${range(GRAPHQL_LIMITS.directives + 1).map((i) => `t${i}: __typename @include(if: true)`).join(' ')} }`;
    const refusals = {
      unknownField: '{ clientz { id } }',
      tokens: `{ ${'__typename '.repeat(GRAPHQL_LIMITS.tokens)}}`,
      depth: introspectionChain(GRAPHQL_LIMITS.depth + 1),
      aliases: aliased,
      directives: directed,
      cost: presetsCostQuery(Math.floor(GRAPHQL_LIMITS.cost / 5) + 1).query,
    };
    const statuses: Record<string, number> = {};
    for (const [name, query] of Object.entries(refusals)) statuses[name] = (await service.graphql(query)).status;
    expect(statuses).toEqual(Object.fromEntries(Object.keys(refusals).map((name) => [name, 400])));
  });
});

describe('field suggestions', () => {
  let development: TestService;
  beforeAll(async () => {
    development = await startTestService({ development: true });
  });
  afterAll(() => development.close());

  it('a misspelled field gets no "Did you mean" by default, and does in development', async () => {
    const hidden = await service.graphql('{ clientz { id } }');
    expectRefused(hidden, /Cannot query field "clientz" on type "Query"/);
    expect(hidden.errors![0]!.message).not.toMatch(/Did you mean/);
    const shown = await development.graphql('{ clientz { id } }');
    expectRefused(shown, /Cannot query field "clientz" on type "Query"\. Did you mean "clients?"/);
  });

  it('misspelled arguments, types and literal input fields get no suggestion either', async () => {
    for (const query of [
      '{ presets(frist: 1) { id } }',
      '{ ...F } fragment F on Qeury { clients { id } }',
      'mutation { createApiKey(clientId: "x", input: { nmae: "k" }) { id } }',
    ]) {
      const answer = await service.graphql(query);
      expect(answer.status, query).toBe(400);
      for (const error of answer.errors ?? []) expect(error.message, query).not.toMatch(/Did you mean/);
      const shown = await development.graphql(query);
      expect(shown.errors!.map((error) => error.message).join('\n'), query).toMatch(/Did you mean/);
    }
  });

  it('a misspelled input field in variables gets no suggestion', async () => {
    const query = 'mutation ($input: ApiKeyInput!) { createApiKey(clientId: "x", input: $input) { id } }';
    const answer = await service.graphql(query, { input: { nmae: 'k' } });
    expect(answer.status).toBe(400);
    expect(answer.errors).toHaveLength(1);
    // As REST answers the same payload: each problem at its JSON pointer, no suggestion.
    expect(answer.errors![0]!.extensions).toEqual({
      code: 'BAD_USER_INPUT',
      errors: [
        { path: '/name', message: 'is required' },
        { path: '/nmae', message: 'is not a property of this payload' },
      ],
    });
    expect(JSON.stringify(answer.errors)).not.toMatch(/Did you mean/);
  });
});

describe('CSRF prevention', () => {
  const get = `/graphql?query=${encodeURIComponent('{__typename}')}`;

  it(`refuses a GET without the ${CSRF_HEADER} header (403) and answers it with the header`, async () => {
    const refused = await service.raw({ method: 'GET', path: get, headers: { accept: 'application/json' } });
    expect(refused.status, refused.text).toBe(403);
    expect(refused.body.errors[0].message).toMatch(/CSRF/);
    expect(refused.body.data).toBeUndefined();
    const answered = await service.raw({ method: 'GET', path: get, headers: { accept: 'application/json', [CSRF_HEADER]: '1' } });
    expect(answered.status, answered.text).toBe(200);
    expect(answered.body).toEqual({ data: { __typename: 'Query' } });
  });

  it('refuses POSTs a form could send (text/plain, urlencoded, multipart); answers application/json', async () => {
    const body = JSON.stringify({ query: '{ __typename }' });
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const refused = await service.raw({ method: 'POST', path: '/graphql', body, headers: { 'content-type': type, accept: 'application/json' } });
      expect(refused.status, `${type}: ${refused.text}`).toBe(403);
    }
    const answered = await service.raw({
      method: 'POST',
      path: '/graphql',
      body,
      headers: { 'content-type': 'application/json', accept: 'application/json' },
    });
    expect(answered.status, answered.text).toBe(200);
    expect(answered.body).toEqual({ data: { __typename: 'Query' } });
  });
});

describe('/graphql request bodies', () => {
  const LIMIT = 2 * 1024 * 1024;
  const padded = (size: number) => {
    const json = JSON.stringify({ query: '{ __typename }' });
    return Buffer.from(json + ' '.repeat(size - json.length));
  };
  const post = (body: string | Buffer) =>
    service.raw({ method: 'POST', path: '/graphql', body, headers: { 'content-type': 'application/json', accept: 'application/json' } });

  it('answers a body of exactly 2 MiB and refuses one byte more with 413', async () => {
    const inside = await post(padded(LIMIT));
    expect(inside.status, inside.text.slice(0, 300)).toBe(200);
    expect(inside.body).toEqual({ data: { __typename: 'Query' } });
    expectProblem(await post(padded(LIMIT + 1)), 413);
  });

  it('refuses a body that is not JSON with 400', async () => {
    for (const body of ['{ __typename }', '{"query": "{ __typename }"', 'query=%7B__typename%7D']) {
      expectProblem(await post(body), 400);
    }
  });
});

// ── HTTP hardening ──────────────────────────────────────────────────────────

function cspDirectives(header: string | null): Map<string, string[]> {
  expect(header).toBeTruthy();
  return new Map(
    header!
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...sources]) => [name!.toLowerCase(), sources]),
  );
}

/** Whether a CSP source list lets the page at `self` load `url` (origins, 'self' and schemes only). */
function allows(sources: string[] | undefined, url: string, self: string): boolean {
  const target = new URL(url, self);
  return (sources ?? []).some((source) => {
    if (source === "'self'") return target.origin === new URL(self).origin;
    if (/^[a-z][a-z0-9+.-]*:$/.test(source)) return target.protocol === source;
    if (source.startsWith("'")) return false;
    return target.origin === new URL(source).origin;
  });
}

function expectSecurityHeaders(headers: Headers) {
  const csp = cspDirectives(headers.get('content-security-policy'));
  expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
  expect(csp.get('default-src')).toEqual(["'self'"]);
  const scripts = csp.get('script-src') ?? [];
  expect(scripts).toContain("'self'");
  for (const source of scripts) expect(["'self'", "'unsafe-inline'", 'https://unpkg.com']).toContain(source);
  expect(csp.get('object-src')).toEqual(["'none'"]);
  expect(headers.get('x-content-type-options')).toBe('nosniff');
  expect(headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
  expect(headers.get('referrer-policy')).toBe('no-referrer');
  expect(headers.get('x-frame-options')).toBe('SAMEORIGIN');
  expect(headers.get('x-powered-by')).toBeNull();
}

describe('security headers', () => {
  it('the GraphiQL page answers without a key, with the headers, and loads scripts only from itself', async () => {
    const page = await service.as(null).raw({ method: 'GET', path: '/graphql', headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.text).toMatch(/graphiql/i);
    expectSecurityHeaders(page.headers);
    const csp = cspDirectives(page.headers.get('content-security-policy'));
    const scriptSources = [...page.text.matchAll(/<script[^>]*\ssrc=["']?([^"'\s>]+)/gi)].map((match) => match[1]!);
    expect(scriptSources.length).toBeGreaterThan(0);
    for (const src of scriptSources) expect(allows(csp.get('script-src'), src, service.baseUrl), src).toBe(true);
  });

  it('the policy allows scripts and styles from this service only: no CDN, no inline script', async () => {
    const page = await service.as(null).raw({ method: 'GET', path: '/graphql', headers: { accept: 'text/html' } });
    const csp = cspDirectives(page.headers.get('content-security-policy'));
    expect(allows(csp.get('script-src'), 'https://unpkg.com/x.js', service.baseUrl)).toBe(false);
    expect(allows(csp.get('style-src'), 'https://unpkg.com/x.css', service.baseUrl)).toBe(false);
    expect(allows(csp.get('connect-src'), 'https://unpkg.com/x.js', service.baseUrl)).toBe(false);
    // Every script element of the page names a file of this service (the options are JSON data, not code).
    for (const [element] of page.text.matchAll(/<script[^>]*>/gi)) {
      expect(element, element).toMatch(/\ssrc="\/graphiql\/|type="application\/json"/);
    }
  });

  it('JSON answers carry them too: GraphQL, REST, problems and health', async () => {
    const answers = [
      await service.raw({
        method: 'POST',
        path: '/graphql',
        body: JSON.stringify({ query: '{ __typename }' }),
        headers: { 'content-type': 'application/json' },
      }),
      await service.rest('GET', API),
      await service.as(null).rest('GET', API),
      await service.rest('GET', `${API}/nowhere/at/all`),
      await service.as(null).rest('GET', '/healthz'),
    ];
    for (const answer of answers) {
      expect(answer.headers.get('content-type')).toMatch(/json/);
      expectSecurityHeaders(answer.headers);
    }
  });
});

const corsHeaders = (headers: Headers) => [...headers.keys()].filter((name) => name.startsWith('access-control-'));

describe('CORS', () => {
  const DASHBOARD = 'https://dash.example';
  const STRANGER = 'https://evil.example';
  let withCors: TestService;
  beforeAll(async () => {
    withCors = await startTestService({ corsOrigins: [DASHBOARD] });
  });
  afterAll(() => withCors.close());

  const preflight = (target: TestService, origin: string, path = '/graphql') =>
    target.as(null).raw({
      method: 'OPTIONS',
      path,
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
    });
  const postFrom = (target: TestService, origin: string) =>
    target.raw({
      method: 'POST',
      path: '/graphql',
      body: JSON.stringify({ query: '{ __typename }' }),
      headers: { origin, 'content-type': 'application/json', accept: 'application/json' },
    });

  it('a preflight from a configured origin is allowed, with Authorization and Content-Type', async () => {
    for (const path of ['/graphql', API]) {
      const answer = await preflight(withCors, DASHBOARD, path);
      expect(answer.status, path).toBeLessThan(300);
      expect(answer.headers.get('access-control-allow-origin'), path).toBe(DASHBOARD);
      const allowed = (answer.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(/\s*,\s*/);
      expect(allowed, path).toEqual(expect.arrayContaining(['authorization', 'content-type']));
      expect(answer.headers.get('access-control-allow-methods'), path).toMatch(/POST/);
    }
    const actual = await postFrom(withCors, DASHBOARD);
    expect(actual.status).toBe(200);
    expect(actual.headers.get('access-control-allow-origin')).toBe(DASHBOARD);
  });

  it('an origin not listed gets no Access-Control-Allow-Origin, on preflight or request', async () => {
    const pre = await preflight(withCors, STRANGER);
    expect(pre.headers.get('access-control-allow-origin')).toBeNull();
    const actual = await postFrom(withCors, STRANGER);
    expect(actual.status).toBe(200);
    expect(actual.headers.get('access-control-allow-origin')).toBeNull();
    expect(actual.headers.get('access-control-allow-credentials')).toBeNull();
    const rest = await withCors.raw({ method: 'GET', path: API, headers: { origin: STRANGER } });
    expect(rest.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('with no origins configured there are no CORS headers at all', async () => {
    const pre = await preflight(service, DASHBOARD);
    expect(corsHeaders(pre.headers)).toEqual([]);
    const actual = await postFrom(service, DASHBOARD);
    expect(actual.status).toBe(200);
    expect(corsHeaders(actual.headers)).toEqual([]);
    const rest = await service.raw({ method: 'GET', path: API, headers: { origin: DASHBOARD } });
    expect(corsHeaders(rest.headers)).toEqual([]);
  });
});

describe('rate limits', () => {
  const PER_MINUTE = 5;
  let limited: TestService;
  beforeAll(async () => {
    limited = await startTestService({ rateLimitPerMinute: PER_MINUTE, failedAuthenticationsPerMinute: PER_MINUTE });
  });
  afterAll(() => limited.close());

  function expectRateLimited(answer: HttpAnswer) {
    expectProblem(answer, 429);
    const retryAfter = answer.headers.get('retry-after');
    expect(retryAfter).toMatch(/^\d+$/);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(retryAfter)).toBeLessThanOrEqual(60);
    expect(answer.headers.get('ratelimit-policy')).toMatch(new RegExp(`q=${PER_MINUTE}\\b`));
    expect(answer.headers.get('ratelimit')).toMatch(/r=0\b/);
  }

  it(`the ${PER_MINUTE + 1}th request with one key in a minute is 429 with Retry-After; another key still gets answers`, async () => {
    // Two of the administrator's requests: a client and its key.
    const client = await createClient(limited);
    const clientKey = limited.as((await createApiKey(limited, client.id, 'dashboard')).key);

    for (const i of range(PER_MINUTE)) {
      const answer = await clientKey.rest('GET', `${API}/${client.id}`);
      expect(answer.status, `request ${i + 1}: ${answer.text}`).toBe(200);
      expect(answer.headers.get('ratelimit')).toMatch(new RegExp(`r=${PER_MINUTE - 1 - i}\\b`));
    }
    expectRateLimited(await clientKey.rest('GET', `${API}/${client.id}`));
    const graphql = await clientKey.graphql('{ __typename }');
    expect(graphql.status).toBe(429);
    expect(graphql.errors?.[0]?.extensions?.code).toBe('RATE_LIMITED');

    // The administrator has used 2 of its 5.
    const other = await limited.rest('GET', `${API}/${client.id}`);
    expect(other.status, other.text).toBe(200);
  });

  it('requests with a missing or wrong key are limited by address; a valid key is never refused for them', async () => {
    // A client key made before the lock-out and never used yet: nothing remembers it as valid.
    const client = await createClient(limited);
    const unused = (await createApiKey(limited, client.id, 'fresh')).key;
    const anonymous = limited.as(null);
    for (const i of range(PER_MINUTE)) {
      const answer = await (i % 2 === 0 ? anonymous : limited.as('dcs_wrongwrongwrongwrong')).rest('GET', API);
      expect(answer.status, `request ${i + 1}`).toBe(401);
    }
    expectRateLimited(await anonymous.rest('GET', API));
    expectRateLimited(await limited.as('dcs_anotherwrongkeyxxxxxx').rest('GET', API));
    const graphql = await anonymous.graphql('{ __typename }');
    expect(graphql.status).toBe(429);
    expect(graphql.errors?.[0]?.extensions?.code).toBe('RATE_LIMITED');
    // Valid keys from the same address pass: the administrator's and one never seen before.
    const fresh = await limited.as(unused).rest('GET', `${API}/${client.id}`);
    expect(fresh.status, fresh.text).toBe(200);
    expect((await limited.as(null).rest('GET', `${API}/${client.id}?apiKey=${unused}`)).status).toBe(200);
    // The public pages still answer.
    expect((await anonymous.rest('GET', '/healthz')).status).toBe(200);
  });
});

describe('failed authentications behind a reverse proxy (TRUST_PROXY)', () => {
  const PER_MINUTE = 3;
  const from = (service: TestService, address: string, key: string) =>
    service.as(key).raw({ method: 'GET', path: API, headers: { 'x-forwarded-for': address } });

  it('counts each client address the trusted proxy names apart', async () => {
    const behindProxy = await startTestService({ failedAuthenticationsPerMinute: PER_MINUTE, trustProxy: 'loopback' });
    try {
      for (const _ of range(PER_MINUTE)) expect((await from(behindProxy, '203.0.113.7', 'dcs_wrongwrongwrongwrong')).status).toBe(401);
      expect((await from(behindProxy, '203.0.113.7', 'dcs_wrongwrongwrongwrong')).status).toBe(429);
      // Another visitor behind the same proxy is not locked out by the first one's failures.
      expect((await from(behindProxy, '198.51.100.9', 'dcs_wrongwrongwrongwrong')).status).toBe(401);
    } finally {
      await behindProxy.close();
    }
  });

  it('without the setting, X-Forwarded-For is not believed: a client cannot dodge the limit by inventing addresses', async () => {
    const direct = await startTestService({ failedAuthenticationsPerMinute: PER_MINUTE });
    try {
      for (const i of range(PER_MINUTE)) expect((await from(direct, `203.0.113.${i + 1}`, 'dcs_wrongwrongwrongwrong')).status).toBe(401);
      expect((await from(direct, '198.51.100.9', 'dcs_wrongwrongwrongwrong')).status).toBe(429);
    } finally {
      await direct.close();
    }
  });
});

describe('authentication', () => {
  it('without a key REST is 401 problem+json with WWW-Authenticate: Bearer', async () => {
    const answer = await service.as(null).rest('GET', API);
    expectProblem(answer, 401);
    expect(answer.headers.get('www-authenticate')).toBe('Bearer');
  });

  it('without a key /graphql is HTTP 401 with an UNAUTHENTICATED error', async () => {
    const answer = await service.as(null).graphql('{ clients { id } }');
    expect(answer.status).toBe(401);
    expect(answer.data ?? undefined).toBeUndefined();
    expect(answer.errors![0]!.extensions?.code).toBe('UNAUTHENTICATED');
    const raw = await service.as(null).raw({
      method: 'POST',
      path: '/graphql',
      body: JSON.stringify({ query: '{ __typename }' }),
      headers: { 'content-type': 'application/json' },
    });
    expect(raw.headers.get('www-authenticate')).toBe('Bearer');
    // Asking for HTML does not make an operation public.
    const operation = await service.as(null).raw({
      method: 'GET',
      path: `/graphql?query=${encodeURIComponent('{ clients { id } }')}`,
      headers: { accept: 'text/html', [CSRF_HEADER]: '1' },
    });
    expect(operation.status).toBe(401);
  });

  it('/healthz and the GraphiQL page answer without a key', async () => {
    const health = await service.as(null).rest('GET', '/healthz');
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: 'ok' });
    const page = await service.as(null).raw({ method: 'GET', path: '/graphql', headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
  });

  it('takes the key as ?apiKey= and as Authorization: Bearer', async () => {
    const query = await service.as(null).rest('GET', `${API}?apiKey=${ADMIN_KEY}`);
    expect(query.status, query.text).toBe(200);
    const bearer = await service.as(null).raw({ method: 'GET', path: API, headers: { authorization: `Bearer ${ADMIN_KEY}` } });
    expect(bearer.status, bearer.text).toBe(200);
    const graphql = await service.as(null).raw({
      method: 'POST',
      path: `/graphql?apiKey=${ADMIN_KEY}`,
      body: JSON.stringify({ query: '{ __typename }' }),
      headers: { 'content-type': 'application/json' },
    });
    expect(graphql.status, graphql.text).toBe(200);
  });

  it('a wrong key is 401, as a header or in the query', async () => {
    const wrong = `${ADMIN_KEY}x`;
    const viaHeader = await service.as(wrong).rest('GET', API);
    expectProblem(viaHeader, 401);
    expect(viaHeader.headers.get('www-authenticate')).toBe('Bearer');
    expect(viaHeader.body.detail).toMatch(/not valid/);
    expectProblem(await service.as(null).rest('GET', `${API}?apiKey=${wrong}`), 401);
    const graphql = await service.as(wrong).graphql('{ __typename }');
    expect(graphql.status).toBe(401);
    expect(graphql.errors![0]!.extensions?.code).toBe('UNAUTHENTICATED');
  });
});
