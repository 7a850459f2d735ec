import { Writable } from 'node:stream';
import fc from 'fast-check';
import {
  getNamedType,
  getNullableType,
  getVariableValues,
  GraphQLError,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLObjectType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  type OperationDefinitionNode,
  parse,
} from 'graphql';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toPointer } from '../src/kernel/contract/validate.ts';
import { DOCUMENT_CACHE_BYTES, ERROR_CACHE_BYTES, graphqlCaches } from '../src/graphql/document-cache.ts';
import { notFound } from '../src/kernel/errors.ts';
import { classifyError, createErrorReporter } from '../src/graphql/errors.ts';
import { CSRF_HEADER, GRAPHQL_LIMITS, MAX_NESTING } from '../src/graphql/hardening.ts';
import { schema } from '../src/app/graphql-schema.ts';
import { MAX_VARIABLE_PROBLEMS, variableErrors } from '../src/graphql/variable-errors.ts';
import { validInputValue, wrongInputValue } from './support/arbitraries.ts';
import { API, createDomain, embeddingPayload, unknownId } from './support/fixtures.ts';
import { fullSelection } from './support/schema-selection.ts';
import { type HttpAnswer, type TestService, startTestService } from './support/service.ts';

/**
 * Items 5, 8 and 9: what a GraphQL document may cost (its size, its tokens with comments, the
 * bytes the caches keep), what reaches the log of a refused request (nothing of its values), and
 * how bad requests are answered (400 on every answer type, variable errors with paths).
 */

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

let service: TestService;
/** Every line the service logged, parsed, from level trace up. */
const logLines: { raw: string; level: number; [key: string]: unknown }[] = [];
beforeAll(async () => {
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const raw of String(chunk).split('\n').filter(Boolean)) logLines.push({ ...JSON.parse(raw), raw });
      done();
    },
  });
  service = await startTestService({ logger: pino({ level: 'trace' }, sink) });
});
afterAll(() => service.close());

const ACCEPTS = {
  'application/json': { accept: 'application/json' },
  'application/graphql-response+json': { accept: 'application/graphql-response+json' },
  'no Accept header': {},
} satisfies Record<string, Record<string, string>>;

/** POSTs a document (and variables) with the given Accept header, as a dashboard would. */
function post(query: string | undefined, variables?: unknown, headers: Record<string, string> = ACCEPTS['application/json']): Promise<HttpAnswer> {
  return service.raw({ method: 'POST', path: '/graphql', body: JSON.stringify({ query, variables }), headers: { 'content-type': 'application/json', ...headers } });
}

function expectRefused(answer: HttpAnswer, code: string, message?: RegExp) {
  expect(answer.status, answer.text.slice(0, 400)).toBe(400);
  expect(answer.body.data ?? undefined).toBeUndefined();
  expect(answer.body.errors?.length, answer.text.slice(0, 400)).toBeGreaterThan(0);
  expect(answer.body.errors[0].extensions?.code, answer.text.slice(0, 400)).toBe(code);
  if (message) expect(answer.body.errors[0].message).toMatch(message);
}

/** `{ __typename }` padded with a comment to exactly `bytes` bytes of UTF-8 (`é` is two). */
function paddedDocument(bytes: number, unit = 'x', tag = ''): string {
  const head = `{ __typename }\n# ${tag} `;
  const room = bytes - Buffer.byteLength(head);
  const unitBytes = Buffer.byteLength(unit);
  const document = head + unit.repeat(Math.floor(room / unitBytes)) + 'x'.repeat(room % unitBytes);
  expect(Buffer.byteLength(document)).toBe(bytes);
  return document;
}


// ── item 5: document size, tokens, caches ──────────────────────────────────

describe('the size of a document', () => {
  it(`answers a document of exactly ${GRAPHQL_LIMITS.documentBytes} bytes and refuses one byte more with 400, before parsing`, async () => {
    for (const unit of ['x', 'é']) {
      const inside = await post(paddedDocument(GRAPHQL_LIMITS.documentBytes, unit, `inside ${unit}`));
      expect(inside.status, inside.text.slice(0, 300)).toBe(200);
      expect(inside.body).toEqual({ data: { __typename: 'Query' } });
      const over = paddedDocument(GRAPHQL_LIMITS.documentBytes + 1, unit, `over ${unit}`);
      expectRefused(await post(over), 'GRAPHQL_PARSE_FAILED', new RegExp(`at most ${GRAPHQL_LIMITS.documentBytes} are allowed`));
      // Refused before the cache: neither the document nor an error is kept under its text.
      expect(graphqlCaches.documents.has(over)).toBe(false);
      expect(graphqlCaches.errors.has(over)).toBe(false);
    }
  });

  it('refuses an oversized document however it comes (here as a form, with the CSRF header)', async () => {
    const query = paddedDocument(GRAPHQL_LIMITS.documentBytes + 1);
    const answer = await service.raw({
      method: 'POST',
      path: '/graphql',
      body: new URLSearchParams({ query }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', [CSRF_HEADER]: '1' },
    });
    expectRefused(answer, 'GRAPHQL_PARSE_FAILED');
  });

  it('refuses 320 distinct comment-padded documents of up to 2 MB with 400; the caches keep none of them', async () => {
    const documentsBefore = graphqlCaches.documents.calculatedSize;
    const errorsBefore = graphqlCaches.errors.calculatedSize;
    const sizes = fc.sample(fc.integer({ min: GRAPHQL_LIMITS.documentBytes + 1, max: 2 * 1024 * 1024 - 100 }), { numRuns: 320, seed: 5 });
    const statuses = new Map<number, number>();
    for (const [i, size] of sizes.entries()) {
      const answer = await post(paddedDocument(size, 'x', `document ${i}`));
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      if (answer.status !== 400) expectRefused(answer, 'GRAPHQL_PARSE_FAILED');
    }
    expect(Object.fromEntries(statuses)).toEqual({ 400: 320 });
    expect(graphqlCaches.documents.calculatedSize).toBe(documentsBefore);
    expect(graphqlCaches.errors.calculatedSize).toBe(errorsBefore);
  }, 120_000);
});

describe('tokens: comments count', () => {
  /** `{ __typename … }` with `fields` more fields and `comments` comment lines: 3 + fields + comments tokens. */
  const document = (fields: number, comments: number) =>
    `{ __typename ${'__typename '.repeat(fields)}}\n${range(comments).map((i) => `# comment ${i}`).join('\n')}`;

  it(`answers ${GRAPHQL_LIMITS.tokens} tokens of which most are comments, and refuses one comment more`, async () => {
    const comments = GRAPHQL_LIMITS.tokens - 3 - 10;
    const inside = await post(document(10, comments));
    expect(inside.status, inside.text.slice(0, 300)).toBe(200);
    expectRefused(await post(document(10, comments + 1)), 'GRAPHQL_PARSE_FAILED', new RegExp(`Token limit of ${GRAPHQL_LIMITS.tokens} exceeded`));
  });

  it('counts comments and other tokens alike, wherever the comments are', async () => {
    // Comments between every token, before the first and after the last.
    const tokens = ['{', '__typename', '}'];
    const interleaved = (perGap: number) => tokens.map((token) => `${'#c\n'.repeat(perGap)}${token}`).join('\n') + '\n#end'.repeat(perGap);
    const perGap = Math.floor((GRAPHQL_LIMITS.tokens - tokens.length) / (tokens.length + 1));
    const count = (gap: number) => tokens.length + gap * (tokens.length + 1);
    expect(count(perGap)).toBeLessThanOrEqual(GRAPHQL_LIMITS.tokens);
    expect((await post(interleaved(perGap))).status).toBe(200);
    expectRefused(await post(`${interleaved(perGap)}\n${'#more\n'.repeat(GRAPHQL_LIMITS.tokens - count(perGap) + 1)}`), 'GRAPHQL_PARSE_FAILED', /Token limit/);
  });
});

describe('the caches are bounded by bytes', () => {
  it(`keeps at most ${DOCUMENT_CACHE_BYTES} bytes of parsed documents, however many large documents come`, async () => {
    // ~60 KB each, inside every limit: 1,500 comments of 36 characters. Estimated at ~360 KB each.
    const documents = range(400).map((i) => `query Padded${i} { __typename }\n${range(1_500).map((line) => `# ${i} ${line} ${'p'.repeat(28)}`).join('\n')}`);
    expect(Buffer.byteLength(documents[0]!)).toBeLessThan(GRAPHQL_LIMITS.documentBytes);
    let largest = 0;
    for (const document of documents) {
      const answer = await post(document);
      expect(answer.status, answer.text.slice(0, 300)).toBe(200);
      largest = Math.max(largest, graphqlCaches.documents.calculatedSize);
    }
    expect(largest).toBeLessThanOrEqual(DOCUMENT_CACHE_BYTES);
    expect(graphqlCaches.documents.maxSize).toBe(DOCUMENT_CACHE_BYTES);
    // Some were kept, the oldest dropped; what is kept is estimated above its text.
    const kept = documents.filter((document) => graphqlCaches.documents.has(document));
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(documents.length);
    expect(graphqlCaches.documents.has(documents.at(-1)!)).toBe(true);
    expect(graphqlCaches.documents.has(documents[0]!)).toBe(false);
    expect(graphqlCaches.documents.calculatedSize / kept.length).toBeGreaterThan(2 * documents[0]!.length);
  }, 120_000);

  it(`keeps at most ${ERROR_CACHE_BYTES} bytes of parse errors`, async () => {
    let largest = 0;
    for (const i of range(300)) {
      const answer = await post(`{ broken${i} ( \n# ${'e'.repeat(60_000)}`);
      expectRefused(answer, 'GRAPHQL_PARSE_FAILED', /Syntax Error/);
      largest = Math.max(largest, graphqlCaches.errors.calculatedSize);
    }
    expect(largest).toBeLessThanOrEqual(ERROR_CACHE_BYTES);
    expect(largest).toBeGreaterThan(ERROR_CACHE_BYTES / 2);
  }, 60_000);

  it("still caches a dashboard's whole-domain query: the second request takes the parsed document from the cache", async () => {
    const path = await createDomain(service, 'www.cached.example');
    const created = await service.rest('POST', `${path.base}/embedding`, embeddingPayload());
    expect(created.status, created.text).toBe(201);
    const query = `query WholeDomain { domain(clientId: "${path.clientId}", id: "${path.domainId}") { ${fullSelection(schema.getType('Domain') as GraphQLObjectType)} } }`;
    const first = await post(query);
    expect(first.status, first.text.slice(0, 300)).toBe(200);
    const parsed = graphqlCaches.documents.peek(query);
    expect(parsed?.kind).toBe('Document');
    const second = await post(query);
    expect(second.body).toEqual(first.body);
    // Parsed again, the cache would hold a new document object.
    expect(graphqlCaches.documents.peek(query)).toBe(parsed);
  });
});

// ── item 8: what is logged ─────────────────────────────────────────────────

describe('logs of refused GraphQL requests', () => {
  const EMAIL = 'alice.secret@example.org';
  const NAME = 'Zebediah-Quackenbush';
  const KEY = `dcs_${'k3y'.repeat(14)}`;
  const PAD = 'PADDING-SECRET-';

  it('hold no variable, document or argument value, nothing at warn or above, and a few hundred bytes a request', async () => {
    const path = await createDomain(service, 'www.logs.example');
    const embedding = embeddingPayload({ vendor: `${NAME} <${EMAIL}>` });
    (embedding.assets as Record<string, unknown>[])[1]!.dynamic = 'yes';
    const requests: (() => Promise<HttpAnswer>)[] = [
      // Bad input the resolver's validation finds (zod): an e-mail address and a name, a key beside them.
      () => post('mutation UpdateOperator($id: ID!, $input: ClientUpdateInput!) { updateClient(id: $id, input: $input) { id } }', {
        id: path.clientId,
        input: { emailAddress: `not an address ${EMAIL}`, firstName: NAME },
        apiKey: KEY,
      }),
      // Bad input coercion finds: a Boolean that is a string; the key as an unknown field.
      () => post('mutation AddEmbedding($c: ID!, $d: ID!, $input: EmbeddingCreateInput!) { createEmbedding(clientId: $c, domainId: $d, input: $input) { id } }', {
        c: path.clientId,
        d: path.domainId,
        input: { ...embedding, apiKey: KEY },
      }),
      // Not found, with the key as an unused variable.
      () => post('query Operator($id: ID!) { client(id: $id) { id } }', { id: unknownId(), apiKey: KEY }),
      // A GET without the CSRF header, carrying the key in its variables.
      () => service.raw({
        method: 'GET',
        path: `/graphql?query=${encodeURIComponent('{ __typename }')}&variables=${encodeURIComponent(JSON.stringify({ apiKey: KEY }))}`,
        headers: { accept: 'application/json' },
      }),
      // A syntax error in a document that quotes the e-mail address.
      () => post(`query Broken { clients(filter: "${EMAIL}" { id }`),
      // Invalid documents quoting the key: an unknown field, a subscription.
      () => post(`query Unknown { client(id: "${KEY}") { nope } }`),
      () => post(`subscription Watch { client(id: "${KEY}") { id } }`),
      // One 2 MB variable, of the wrong type beside a right one.
      () => post('mutation Big($id: ID!, $input: ClientUpdateInput!) { updateClient(id: $id, input: $input) { id } }', {
        id: path.clientId,
        input: { company: 7, lastName: PAD.repeat(130_000) },
      }),
      // The same 2 MB in a string the resolver's validation refuses.
      () => post('mutation Big2($id: ID!, $input: ClientUpdateInput!) { updateClient(id: $id, input: $input) { id } }', {
        id: path.clientId,
        input: { lastName: PAD.repeat(130_000) },
      }),
      // An oversized document, of the e-mail address over and over.
      () => post(`{ __typename }\n# ${EMAIL.repeat(5_000)}`),
    ];
    logLines.length = 0;
    const statuses: number[] = [];
    for (const request of requests) statuses.push((await request()).status);
    // Refused by the resolver's validation (a result with `data: null`, 200), by coercion or as a document (400).
    expect(statuses).toEqual([200, 400, 200, 403, 400, 400, 400, 400, 200, 400]);

    expect(logLines.length).toBeGreaterThan(0);
    for (const line of logLines) {
      for (const secret of [EMAIL, NAME, KEY, PAD, 'k3yk3y']) expect(line.raw, `a log line quotes ${secret}`).not.toContain(secret);
      expect(line.level, line.raw).toBeLessThan(40);
    }
    const bytes = logLines.reduce((sum, line) => sum + line.raw.length + 1, 0);
    expect(bytes / requests.length).toBeLessThan(2_048);
    // Each refusal is there at debug, with the operation's name and the code, for whoever looks.
    const refusals = logLines.filter((line) => line.level === 20 && line.msg === 'GraphQL request refused');
    expect(refusals.map((line) => [line.operation, line.code])).toEqual(
      expect.arrayContaining([
        ['UpdateOperator', 'BAD_USER_INPUT'],
        ['AddEmbedding', 'BAD_USER_INPUT'],
        ['Operator', 'NOT_FOUND'],
        [undefined, 'FORBIDDEN'],
        [undefined, 'GRAPHQL_PARSE_FAILED'],
        ['Unknown', 'GRAPHQL_VALIDATION_FAILED'],
        ['Watch', 'GRAPHQL_VALIDATION_FAILED'],
        ['Big', 'BAD_USER_INPUT'],
        ['Big2', 'BAD_USER_INPUT'],
      ]),
    );
    // An operation's errors once, with its name (not again, nameless, by the error mask).
    expect(refusals.filter((line) => line.code === 'NOT_FOUND').map((line) => line.operation)).toEqual(['Operator']);
  }, 60_000);

  it('an unexpected error is logged at error with the operation name, the code and the stack, nothing else of it', () => {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    const report = createErrorReporter(pino({ level: 'trace' }, sink));
    const failure = Object.assign(new TypeError(`cannot read ${'x'.repeat(1_000)}`), { parameters: [EMAIL, KEY], sql: `select '${EMAIL}'` });
    // Reported from the operation's result, then seen by the mask: logged once.
    expect(report(failure, { operation: 'Dashboard', beforeMask: true })).toMatchObject({ code: 'INTERNAL', expected: false });
    expect(report(failure)).toMatchObject({ code: 'INTERNAL', expected: false });
    expect(lines).toHaveLength(1);
    const [line] = lines as [{ level: number; operation: string; code: string; err: { type: string; stack: string } }];
    expect(line).toMatchObject({ level: 50, operation: 'Dashboard', code: 'INTERNAL', err: { type: 'TypeError' } });
    expect(Object.keys(line.err).sort()).toEqual(['stack', 'type']);
    expect(line.err.stack).toMatch(/^TypeError: cannot read x+…\n {4}at /);
    expect(JSON.stringify(line)).not.toContain(EMAIL);
    expect(JSON.stringify(line).length).toBeLessThan(failure.stack!.length);
  });

  it("the executor's own errors at a field are unexpected (a resolver broke the schema), unless about arguments", () => {
    const nonNull = new GraphQLError('Cannot return null for non-nullable field Query.client.', { path: ['client'] });
    expect(classifyError(nonNull)).toMatchObject({ code: 'INTERNAL', expected: false });
    const argument = new GraphQLError('Argument "id" of non-null type "ID!" must not be null.', { path: ['client'] });
    expect(classifyError(argument)).toMatchObject({ code: 'BAD_USER_INPUT', expected: true });
    expect(classifyError(new GraphQLError('Syntax Error: Unexpected <EOF>.'))).toMatchObject({ code: 'BAD_USER_INPUT', expected: true });
    expect(classifyError(new GraphQLError('not found', { path: ['client'], originalError: notFound('client') }))).toMatchObject({ code: 'NOT_FOUND', expected: true });
  });
});

// ── item 9: statuses, subscriptions, variable errors ───────────────────────

describe('document errors are HTTP 400 whatever the client accepts', () => {
  const refusals: Record<string, { query: string | undefined; code: string }> = {
    syntax: { query: '{ clients { id }', code: 'GRAPHQL_PARSE_FAILED' },
    'unknown field': { query: '{ clientz { id } }', code: 'GRAPHQL_VALIDATION_FAILED' },
    subscription: { query: 'subscription { __typename }', code: 'GRAPHQL_VALIDATION_FAILED' },
    depth: { query: `{ __type(name: "Client") { ${'ofType { '.repeat(GRAPHQL_LIMITS.depth)}name${' }'.repeat(GRAPHQL_LIMITS.depth)} } }`, code: 'GRAPHQL_VALIDATION_FAILED' },
    aliases: { query: `{ ${range(GRAPHQL_LIMITS.aliases + 1).map((i) => `c${i}: clients { id }`).join(' ')} }`, code: 'GRAPHQL_VALIDATION_FAILED' },
    directives: { query: `{ ${range(GRAPHQL_LIMITS.directives + 1).map((i) => `t${i}: __typename @include(if: true)`).join(' ')} }`, code: 'GRAPHQL_VALIDATION_FAILED' },
    tokens: { query: `{ ${'__typename '.repeat(GRAPHQL_LIMITS.tokens)}}`, code: 'GRAPHQL_PARSE_FAILED' },
    cost: { query: `{ ${range(5).map((i) => `p${i}: presets(first: 1000) { id name }`).join(' ')} }`, code: 'GRAPHQL_VALIDATION_FAILED' },
    nesting: { query: `{ __typename(a: ${'['.repeat(MAX_NESTING)}${']'.repeat(MAX_NESTING)}) }`, code: 'GRAPHQL_PARSE_FAILED' },
    size: { query: `{ __typename }\n#${' '.repeat(GRAPHQL_LIMITS.documentBytes)}`, code: 'GRAPHQL_PARSE_FAILED' },
    'no document': { query: undefined, code: 'BAD_REQUEST' },
  };

  it.each(Object.entries(ACCEPTS))('with %s', async (_name, headers) => {
    const answers: Record<string, [number, string]> = {};
    for (const [name, { query }] of Object.entries(refusals)) {
      const answer = await post(query, undefined, headers);
      answers[name] = [answer.status, answer.body.errors?.[0]?.extensions?.code];
    }
    expect(answers).toEqual(Object.fromEntries(Object.entries(refusals).map(([name, { code }]) => [name, [400, code]])));
  });

  it('a subscription is invalid (the schema has none), not an unexpected error, and nothing is logged at error', async () => {
    logLines.length = 0;
    const answer = await post('subscription OnChange { __typename }');
    expectRefused(answer, 'GRAPHQL_VALIDATION_FAILED', /subscription operation is not supported/);
    expect(logLines.filter((line) => line.level >= 40)).toEqual([]);
  });
});

describe('variables of the wrong type: BAD_USER_INPUT with paths, as REST answers', () => {
  const CREATE_EMBEDDING = 'mutation($c: ID!, $d: ID!, $input: EmbeddingCreateInput!) { createEmbedding(clientId: $c, domainId: $d, input: $input) { id } }';

  it('paths of the same bad embedding are those REST answers, relative to the variable; 400 on every answer type', async () => {
    const path = await createDomain(service, 'www.variables.example');
    const bad = embeddingPayload();
    (bad.assets as Record<string, unknown>[])[1]!.dynamic = 'yes';
    const rest = await service.rest('POST', `${path.base}/embedding`, bad);
    expect(rest.status).toBe(400);
    expect(rest.body.errors.map((error: { path: string }) => error.path)).toEqual(['/assets/1/dynamic']);
    for (const headers of Object.values(ACCEPTS)) {
      const answer = await post(CREATE_EMBEDDING, { c: path.clientId, d: path.domainId, input: bad }, headers);
      expectRefused(answer, 'BAD_USER_INPUT', /^Variable "\$input" got an invalid value: 1 problem\.$/);
      expect(answer.body.errors).toHaveLength(1);
      expect(answer.body.errors[0].extensions.errors).toEqual([{ path: '/assets/1/dynamic', message: 'Invalid input: expected Boolean, received string' }]);
      expect(answer.text).not.toContain('"yes"');
    }
  });

  it('lists every variable in error, a missing one and unknown and missing fields with their own paths', async () => {
    const path = await createDomain(service, 'www.variables-all.example');
    const { name: _name, ...nameless } = embeddingPayload();
    const input = { ...nameless, tcfVendor: 'twelve', 'odd/key~': 1, assets: [{ name: 'a', lifetime: 5 }] };
    const answer = await post(CREATE_EMBEDDING, { c: path.clientId, input });
    expectRefused(answer, 'BAD_USER_INPUT');
    const errors = answer.body.errors as { message: string; extensions: { code: string; errors: { path: string; message: string }[] } }[];
    expect(errors.map((error) => error.message)).toEqual([
      'Variable "$d" of required type "ID!" was not provided.',
      'Variable "$input" got an invalid value: 4 problems.',
    ]);
    expect(errors[0]!.extensions.errors).toEqual([{ path: '', message: 'is required' }]);
    expect(errors[1]!.extensions.errors).toEqual(
      expect.arrayContaining([
        { path: '/name', message: 'is required' },
        { path: '/odd~1key~0', message: 'is not a property of this payload' },
        { path: '/tcfVendor', message: 'Invalid input: expected Int, received string' },
        { path: '/assets/0/lifetime', message: 'Invalid input: expected String, received integer' },
      ]),
    );
    // REST names the same places in the same body (it lists the missing domain in its path instead).
    const rest = await service.rest('POST', `${path.base}/embedding`, input);
    expect(rest.body.errors.map((error: { path: string }) => error.path).sort()).toEqual(errors[1]!.extensions.errors.map((error) => error.path).sort());
  });

  it(`lists at most ${MAX_VARIABLE_PROBLEMS} problems, and says there are more`, async () => {
    const path = await createDomain(service, 'www.variables-many.example');
    const input = embeddingPayload({ assets: range(1_001).map(() => ({ name: 7 })) });
    const answer = await post(CREATE_EMBEDDING, { c: path.clientId, d: path.domainId, input });
    expectRefused(answer, 'BAD_USER_INPUT', /the request has more/);
    expect(answer.body.errors[0].extensions.errors).toHaveLength(MAX_VARIABLE_PROBLEMS);
    expect(answer.text.length).toBeLessThan(20_000);
  });

  // ── generated cases, checked against graphql-js's own coercion ──

  type Segment = string | number;
  type Edit = { variable: string; path: Segment[] };

  const mutationFields = Object.values(schema.getMutationType()!.getFields()).filter((field) => field.args.length > 0);
  const documentOf = (field: GraphQLField<unknown, unknown>) => {
    const declared = field.args.map((arg) => `$${arg.name}: ${String(arg.type)}`).join(', ');
    const passed = field.args.map((arg) => `${arg.name}: $${arg.name}`).join(', ');
    return parse(`mutation(${declared}) { ${field.name}(${passed})${isObjectType(getNamedType(field.type)) ? ' { __typename }' : ''} }`);
  };

  /** A place in a value: the type expected there, and whether it is a field that must be given. */
  type Node = { path: Segment[]; type: GraphQLInputType; value: unknown; required: boolean };
  /** Every place in a value. */
  function nodesOf(type: GraphQLInputType, value: unknown, path: Segment[] = [], required = false): Node[] {
    const here: Node = { path, type, value, required };
    const inner = getNullableType(type);
    if (isListType(inner) && Array.isArray(value)) return [here, ...value.flatMap((item, i) => nodesOf(inner.ofType as GraphQLInputType, item, [...path, i]))];
    if (isInputObjectType(inner) && value !== null && typeof value === 'object') {
      const fields = inner.getFields();
      return [
        here,
        ...Object.entries(value).flatMap(([key, item]) => {
          const field = fields[key];
          return field ? nodesOf(field.type, item, [...path, key], isNonNullType(field.type) && field.defaultValue === undefined) : [];
        }),
      ];
    }
    return [here];
  }

  const setAt = (root: unknown, path: Segment[], change: (parent: Record<string | number, unknown>, key: Segment) => void) => {
    let parent = root as Record<string | number, unknown>;
    for (const segment of path.slice(0, -1)) parent = parent[segment] as Record<string | number, unknown>;
    change(parent, path.at(-1)!);
  };
  const related = (a: Segment[], b: Segment[]) => a.every((segment, i) => i >= b.length || b[i] === segment) || b.every((segment, i) => i >= a.length || a[i] === segment);

  type Kind = 'wrong' | 'unknown' | 'drop';
  /** Valid variables for a mutation, then 1–3 edits in unrelated places, each making one problem at a known path. */
  const generatedCase = fc
    .constantFrom(...mutationFields)
    .chain((field) =>
      fc.tuple(
        fc.constant(field),
        fc.tuple(...field.args.map((arg) => validInputValue(arg.type))),
        fc.array(fc.tuple(fc.constantFrom<Kind>('wrong', 'wrong', 'unknown', 'drop'), fc.nat(), fc.nat(), fc.string({ minLength: 1, maxLength: 6 }), fc.nat()), { minLength: 1, maxLength: 3 }),
      ),
    )
    .map(([field, values, edits]) => {
      const variables: Record<string, unknown> = Object.fromEntries(field.args.map((arg, i) => [arg.name, structuredClone(values[i])]));
      const expected: Edit[] = [];
      for (const [kind, argPick, nodePick, key, valuePick] of edits) {
        const arg = field.args[argPick % field.args.length]!;
        if (!(arg.name in variables)) continue;
        const taken = expected.filter((edit) => edit.variable === arg.name).map((edit) => edit.path);
        const nodes = nodesOf(arg.type, variables[arg.name]).filter((node) => !taken.some((path) => related(path, node.path)));
        if (kind === 'wrong') {
          const node = nodes[nodePick % Math.max(1, nodes.length)];
          if (!node) continue;
          const value = fc.sample(wrongInputValue(node.type), { numRuns: 1, seed: valuePick })[0];
          if (node.path.length === 0) variables[arg.name] = value;
          else setAt(variables[arg.name], node.path, (parent, at) => (parent[at] = value));
          expected.push({ variable: arg.name, path: node.path });
        } else if (kind === 'unknown') {
          const objects = nodes.filter((node) => isInputObjectType(getNullableType(node.type)) && node.value !== null && typeof node.value === 'object');
          const node = objects[nodePick % Math.max(1, objects.length)];
          const fields = node && (getNullableType(node.type) as { getFields(): Record<string, unknown> }).getFields();
          if (!node || Object.hasOwn(fields!, key) || Object.hasOwn(node.value as object, key)) continue;
          Object.defineProperty(node.value, key, { value: 1, enumerable: true, writable: true, configurable: true });
          expected.push({ variable: arg.name, path: [...node.path, key] });
        } else {
          const dropped = nodes.filter((node) => node.required);
          const node = dropped[nodePick % Math.max(1, dropped.length)];
          if (!node) {
            if (!isNonNullType(arg.type) || expected.some((edit) => edit.variable === arg.name)) continue;
            delete variables[arg.name];
            expected.push({ variable: arg.name, path: [] });
            continue;
          }
          setAt(variables[arg.name], node.path, (parent, at) => delete parent[at]);
          expected.push({ variable: arg.name, path: node.path });
        }
      }
      // As the service receives them: JSON.
      return { field, variables: JSON.parse(JSON.stringify(variables)) as Record<string, unknown>, expected };
    });

  it('generated cases: every problem at the path of its edit, relative to its variable; valid exactly when graphql-js says so', () => {
    let checked = 0;
    fc.assert(
      fc.property(generatedCase, ({ field, variables, expected }) => {
        const document = documentOf(field);
        const errors = variableErrors(document, schema, undefined, variables);
        const operation = document.definitions[0] as OperationDefinitionNode;
        const graphqlJs = getVariableValues(schema, operation.variableDefinitions ?? [], variables, { maxErrors: 1_000 });
        expect(errors.length > 0).toBe('errors' in graphqlJs);
        const reported = errors.flatMap((error) => {
          const variable = /^Variable "\$(\w+)"/.exec(error.message)![1]!;
          expect(error.extensions.code).toBe('BAD_USER_INPUT');
          return (error.extensions.errors as { path: string }[]).map((problem) => `${variable} ${problem.path}`);
        });
        expect(reported.sort()).toEqual(expected.map((edit) => `${edit.variable} ${toPointer(edit.path)}`).sort());
        for (const error of errors) expect(error.message).not.toMatch(/got invalid value/);
        checked += 1;
      }),
      { numRuns: 600, seed: 9 },
    );
    expect(checked).toBe(600);
  });

  it('generated cases over HTTP: the same paths in the answer, 400, nothing stored', async () => {
    const path = await createDomain(service, 'www.variables-http.example');
    const ids: Record<string, string> = { clientId: path.clientId, domainId: path.domainId, id: path.clientId };
    const before = await service.rest('GET', `${API}/${path.clientId}`);
    const cases = fc.sample(generatedCase, { numRuns: 120, seed: 11 }).filter(({ expected }) => expected.length > 0).slice(0, 60);
    expect(cases).toHaveLength(60);
    for (const { field, variables, expected } of cases) {
      // Real ids where the case left valid ones: the request fails on its variables, not a missing object.
      for (const [name, value] of Object.entries(variables)) if (typeof value === 'string' && ids[name]) variables[name] = ids[name];
      const query = documentOf(field).loc!.source.body;
      const answer = await post(query, variables);
      expect(answer.status, answer.text.slice(0, 400)).toBe(400);
      const reported = (answer.body.errors as { message: string; extensions: { code: string; errors: { path: string }[] } }[]).flatMap((error) => {
        expect(error.extensions.code).toBe('BAD_USER_INPUT');
        const variable = /^Variable "\$(\w+)"/.exec(error.message)![1]!;
        return error.extensions.errors.map((problem) => `${variable} ${problem.path}`);
      });
      expect(reported.sort(), `${field.name} ${JSON.stringify(variables).slice(0, 300)}`).toEqual(expected.map((edit) => `${edit.variable} ${toPointer(edit.path)}`).sort());
    }
    expect((await service.rest('GET', `${API}/${path.clientId}`)).body).toEqual(before.body);
  }, 60_000);
});
