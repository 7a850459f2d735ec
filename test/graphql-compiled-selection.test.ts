import fc from 'fast-check';
import { type GraphQLField, GraphQLObjectType } from 'graphql';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { schema } from '../src/app/graphql-schema.ts';
import { compileSelections } from '../src/graphql/selection-sql/index.ts';
import { API, createApiKey, createClient, embeddingPayload, themePayload, unknownId } from './support/fixtures.ts';
import { fullSelection, namedType, withoutRequiredArgs } from './support/schema-selection.ts';
import { type GraphqlAnswer, startTestService, type TestClient, type TestService } from './support/service.ts';

/**
 * A root's selection compiled into one statement (src/graphql/selection-sql) answers exactly
 * what the usual path answers — the same data, in the same order, and the same errors — for
 * every kind of selection: whole types, fragments, aliases, directives with variables, fields
 * with arguments inside, other callers' keys, unknown ids. Each query is asked twice of the same
 * service and data: compiled, then with compiling switched off for the service.
 */

let service: TestService;

type Seeded = {
  clientId: string;
  username: string;
  domainId: string;
  /** A second domain of the client, with one embedding. */
  smallDomainId: string;
  embeddingId: string;
  assetId: string;
  themeId: string;
  /** The one embedding of the small domain, and one of its assets. */
  smallEmbeddingId: string;
  smallAssetId: string;
  key: string;
};

let a: Seeded;
let b: Seeded;

async function seed(tag: string): Promise<Seeded> {
  const client = await createClient(service, { company: `Company ${tag}`, features: { canUseIAB: true } });
  const domains = `${API}/${client.id}/domain`;
  const domain = await service.rest('POST', domains, {
    name: `https://shop-${tag}.example.org:8443/store/`,
    country: 'DE',
    consentResetBeforeDate: '2024-01-31',
    consentSharingDomains: ['a.example', 'b.example'],
    tcfVendorBlacklist: [30, 4],
    whitelabel: true,
    locales: ['en_US', 'de_DE'],
  });
  expect(domain.status, domain.text).toBe(201);
  const base = `${domains}/${domain.body.id}`;
  const embeddings = [];
  for (let i = 0; i < 4; i++) {
    const created = await service.rest(
      'POST',
      `${base}/embedding`,
      embeddingPayload({
        name: `Service ${i}`,
        active: i % 2 === 0,
        tcfVendor: i === 1 ? 755 : null,
        tcfPurposes: i === 1 ? [1, 3] : [],
        googleConsentMode: i === 2 ? ['ad_storage', 'analytics_storage'] : [],
        scriptMarkers: [`marker-${i}`],
        translations: { de_DE: { name: `Dienst ${i}`, description: 'Beschreibung' }, fr: { name: `Service ${i} (fr)` } },
        assets: Array.from({ length: i + 1 }, (_, n) => ({
          name: `cookie_${i}_${n}`,
          dynamic: n % 2 === 1,
          storageType: n === 0 ? 'cookie' : 'localStorage',
          lifetime: `${n + 1} days`,
          translations: n === 0 ? { de_DE: { lifetime: `${n + 1} Tage` } } : {},
        })),
      }),
    );
    expect(created.status, created.text).toBe(201);
    embeddings.push(created.body);
  }
  const theme = await service.rest('POST', `${base}/theme`, themePayload({ name: 'Corporate', default: true }));
  expect(theme.status, theme.text).toBe(201);
  expect((await service.rest('POST', `${base}/theme`, themePayload({ name: 'Dark', customCss: '.x { color: red }' }))).status).toBe(201);
  const placeholders = [{ name: 'company', value: 'ACME' }, { name: 'p0', value: 'zero' }, { name: 'Zeta', value: 'z' }];
  expect((await service.rest('PUT', `${base}/placeholder`, placeholders)).status).toBeLessThan(300);
  expect((await service.rest('POST', `${base}/locale`, { name: 'fr', widgetTitle: 'Bonjour', active: false })).status).toBe(201);
  expect((await service.rest('POST', `${base}/locale`, { name: 'af' })).status).toBe(201);

  const small = await service.rest('POST', domains, { name: `www.${tag}.example.net` });
  expect(small.status, small.text).toBe(201);
  const one = await service.rest('POST', `${domains}/${small.body.id}/embedding`, embeddingPayload({ name: 'Only' }));
  expect(one.status, one.text).toBe(201);
  const key = await createApiKey(service, client.id, `dashboard ${tag}`);
  return {
    clientId: client.id,
    username: client.username,
    domainId: domain.body.id,
    smallDomainId: small.body.id,
    embeddingId: embeddings[2].id,
    assetId: embeddings[2].assets[1].id,
    themeId: theme.body.id,
    smallEmbeddingId: one.body.id,
    smallAssetId: one.body.assets[1].id,
    key: key.key,
  };
}

beforeAll(async () => {
  service = await startTestService();
  a = await seed('a');
  b = await seed('b');
}, 120_000);
afterAll(() => service.close());

type Compared = { compiled: GraphqlAnswer; statements: { compiled: number; plain: number } };

/** The query asked compiled, then not: the answers must be the same, byte for byte. */
async function bothWays(query: string, variables: Record<string, unknown> = {}, as: TestClient = service): Promise<Compared> {
  const counter = service.database.statements;
  let before = counter.total;
  const compiled = await as.graphql(query, variables);
  const compiledStatements = counter.total - before;
  compileSelections(service.services, false);
  let plain: GraphqlAnswer;
  try {
    before = counter.total;
    plain = await as.graphql(query, variables);
  } finally {
    compileSelections(service.services, true);
  }
  const plainStatements = counter.total - before;
  expect(compiled.status).toBe(plain.status);
  expect(JSON.stringify({ data: compiled.data, errors: compiled.errors })).toBe(JSON.stringify({ data: plain.data, errors: plain.errors }));
  return { compiled, statements: { compiled: compiledStatements, plain: plainStatements } };
}

const objectType = (name: string) => schema.getType(name) as GraphQLObjectType;

const DOMAIN = 'query($c: ID!, $d: ID!) { domain(clientId: $c, id: $d) { SELECTION } }';
const domainQuery = (selection: string) => DOMAIN.replace('SELECTION', selection);

describe('the compiled answer is the usual answer', () => {
  it('every field of a domain, its lists and everything in them', async () => {
    const { compiled } = await bothWays(domainQuery(fullSelection(objectType('Domain'))), { c: a.clientId, d: a.domainId });
    expect(compiled.errors).toBeUndefined();
    expect(compiled.data.domain.embeddings).toHaveLength(4);
    expect(compiled.data.domain.localeTexts.map((locale: { name: string }) => locale.name)).toEqual(['af', 'de_DE', 'en_US', 'fr']);
  });

  it('the whole domain of a dashboard in one statement', async () => {
    const { compiled, statements } = await bothWays(
      domainQuery('id name url placeholders { name value } themes { id name default } embeddings { id name assets { id name } }'),
      { c: a.clientId, d: a.domainId },
    );
    expect(compiled.errors).toBeUndefined();
    expect(statements).toEqual({ compiled: 1, plain: 4 });
  });

  it('every field of a client, its domains and everything in them', async () => {
    const { compiled } = await bothWays(`query($c: ID!) { client(id: $c) { ${fullSelection(objectType('Client'))} } }`, { c: a.clientId });
    expect(compiled.errors).toBeUndefined();
    expect(compiled.data.client.domains).toHaveLength(2);
  });

  it('every client, as the administrator and as a client key', async () => {
    const query = `{ clients { ${fullSelection(objectType('Client'))} } }`;
    const admin = await bothWays(query);
    expect(admin.compiled.errors).toBeUndefined();
    expect(admin.compiled.data.clients.length).toBeGreaterThanOrEqual(2);
    const own = await bothWays(query, {}, service.as(a.key));
    expect(own.compiled.data.clients.map((client: { id: string }) => client.id)).toEqual([a.clientId]);
  });

  it('named and inline fragments, aliases of one field with different selections, __typename', async () => {
    const query = `query($c: ID!, $d: ID!) {
      domain(clientId: $c, id: $d) {
        __typename
        ...Settings
        ... on Domain { host: name url }
        first: embeddings { id name ...Assets }
        second: embeddings { __typename vendor translations { locale name } assets { __typename storageType translations { locale lifetime } } }
        placeholders { ... on Placeholder { name } }
        other: placeholders { value }
        themes { ...Theme }
        localeTexts { name active ... { widgetTitle purposeNames { purpose text } } }
      }
    }
    fragment Settings on Domain { id clientId country locales consentResetBeforeDate tcfVendorBlacklist }
    fragment Assets on Embedding { assets { id name dynamic } }
    fragment Theme on Theme { id name default logoImage customCss widgetButtons }`;
    const { compiled, statements } = await bothWays(query, { c: a.clientId, d: a.domainId });
    expect(compiled.errors).toBeUndefined();
    expect(statements.compiled).toBe(1);
  });

  it('@include and @skip with variables: the same document with other values', async () => {
    const query = `query($c: ID!, $d: ID!, $with: Boolean!, $without: Boolean!) {
      domain(clientId: $c, id: $d) {
        name
        embeddings @include(if: $with) { id assets @skip(if: $without) { name } }
        ... @include(if: $without) { placeholders { name } }
        ...More @skip(if: $with)
        themes { name default @include(if: $with) }
      }
    }
    fragment More on Domain { url localeTexts { name } }`;
    for (const [withIt, withoutIt] of [[true, false], [false, true], [true, true], [false, false], [true, false]]) {
      const { compiled } = await bothWays(query, { c: a.clientId, d: a.domainId, with: withIt, without: withoutIt });
      expect(compiled.errors).toBeUndefined();
    }
  });

  it('@include and @skip with literals', async () => {
    const { compiled } = await bothWays(
      domainQuery('name embeddings @include(if: false) { id } themes @skip(if: false) { id } placeholders @skip(if: true) { name }'),
      { c: a.clientId, d: a.domainId },
    );
    expect(compiled.data.domain).toEqual({ name: 'shop-a.example.org', themes: expect.any(Array) });
  });

  it('a list repeated, one occurrence skipped: what the skipped one selects through a fragment is not sent', async () => {
    const query = `query($c: ID!, $d: ID!, $off: Boolean!, $v: Boolean!) {
      domain(clientId: $c, id: $d) { tcfUrlMacroAutoAppend embeddings @skip(if: $off) { ... @include(if: $v) { assets { id } } } ...Part }
    }
    fragment Part on Domain { embeddings { tcfVendor } }`;
    const skipped = await bothWays(query, { c: a.clientId, d: a.domainId, off: true, v: true });
    expect(skipped.compiled.errors).toBeUndefined();
    expect(skipped.compiled.data.domain.embeddings).toEqual([{ tcfVendor: null }, { tcfVendor: 755 }, { tcfVendor: null }, { tcfVendor: null }]);
    const kept = await bothWays(query, { c: a.clientId, d: a.domainId, off: false, v: true });
    expect(kept.compiled.data.domain.embeddings.map((embedding: { assets: unknown[] }) => embedding.assets.length)).toEqual([1, 2, 3, 4]);
  });

  it('fields with arguments inside: embedding(id:), asset(id:), placeholder(name:), theme(id:), locale(name:)', async () => {
    const query = `query($c: ID!, $d: ID!, $e: ID!, $a: ID!, $t: ID!) {
      domain(clientId: $c, id: $d) {
        name
        embedding(id: $e) { id name asset(id: $a) { id name lifetime } assets { name } }
        embeddings { id name }
        placeholder(name: "company") { name value }
        theme(id: $t) { id name default }
        locale(name: "fr") { name widgetTitle active }
        revisions { revisions { number } }
      }
    }`;
    const { compiled } = await bothWays(query, { c: a.clientId, d: a.domainId, e: a.embeddingId, a: a.assetId, t: a.themeId });
    expect(compiled.errors).toBeUndefined();
    expect(compiled.data.domain.embedding.asset.id).toBe(a.assetId);
  });

  it("asset(id:) of the embeddings of a compiled domain, beside their assets or without them", async () => {
    const query = `query($c: ID!, $d: ID!, $a: ID!) {
      domain(clientId: $c, id: $d) {
        embeddings { name asset(id: $a) { id name storageType } }
        again: embeddings { assets { lifetime } first: asset(id: $a) { description } }
      }
    }`;
    const { compiled, statements } = await bothWays(query, { c: a.clientId, d: a.smallDomainId, a: a.smallAssetId });
    expect(compiled.errors).toBeUndefined();
    expect(compiled.data.domain.embeddings[0].asset.id).toBe(a.smallAssetId);
    expect(statements.compiled).toBe(1);
    // An id no asset has: NOT_FOUND on the field, as always.
    const missing = await bothWays(query, { c: a.clientId, d: a.smallDomainId, a: unknownId() });
    expect(missing.compiled.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });

  it("a client's domain and domains below a client the query found otherwise (by search term)", async () => {
    const query = `query($term: String!, $d: ID!) {
      clientBySearchTerm(searchTerm: $term) {
        id
        domains { id name embeddings { name assets { name } } placeholders { name } }
        domain(id: $d) { name themes { name } localeTexts { name widgetTitle } }
      }
    }`;
    const { compiled } = await bothWays(query, { term: a.username, d: a.domainId });
    expect(compiled.errors).toBeUndefined();
    const other = await bothWays(query, { term: a.username, d: b.domainId });
    expect(other.compiled.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });

  it('a client with its domains, each domain asked for again by id', async () => {
    const query = `query($c: ID!, $d: ID!) { client(id: $c) { username domains { name embeddings { id } } one: domain(id: $d) { url } } }`;
    const { compiled } = await bothWays(query, { c: a.clientId, d: a.smallDomainId });
    expect(compiled.errors).toBeUndefined();
  });

  it('a domain returned by a mutation: its lists read as they always are', async () => {
    const query = `mutation($c: ID!, $d: ID!) { updateDomain(clientId: $c, id: $d, input: { country: "AT" }) {
      name country embeddings { name assets { name } } placeholders { name } themes { name } localeTexts { name } } }`;
    const { compiled } = await bothWays(query, { c: a.clientId, d: a.smallDomainId });
    expect(compiled.errors).toBeUndefined();
  });
});

describe('the same access and the same errors', () => {
  const whole = domainQuery('name embeddings { name assets { name } } placeholders { name } themes { name }');

  it("a client key reaches its own domain and client, and nothing of another client's", async () => {
    const asA = service.as(a.key);
    const own = await bothWays(whole, { c: a.clientId, d: a.domainId }, asA);
    expect(own.compiled.errors).toBeUndefined();
    expect(own.statements.compiled).toBe(1);
    for (const variables of [
      { c: b.clientId, d: b.domainId },
      { c: a.clientId, d: b.domainId },
      { c: b.clientId, d: a.domainId },
    ]) {
      const refused = await bothWays(whole, variables, asA);
      expect(refused.compiled.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
      expect(refused.compiled.data).toBeNull();
    }
    const client = `query($c: ID!) { client(id: $c) { id domains { id name } } }`;
    expect((await bothWays(client, { c: a.clientId }, asA)).compiled.errors).toBeUndefined();
    expect((await bothWays(client, { c: b.clientId }, asA)).compiled.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    const byId = `query($c: ID!, $d: ID!) { client(id: $c) { domain(id: $d) { name embeddings { name } } } }`;
    expect((await bothWays(byId, { c: a.clientId, d: b.domainId }, asA)).compiled.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });

  it('unknown, malformed and upper-case ids of domains and clients', async () => {
    const cases = [
      { c: a.clientId, d: unknownId() },
      { c: unknownId(), d: a.domainId },
      { c: unknownId(), d: unknownId() },
      { c: 'nope', d: a.domainId },
      { c: a.clientId, d: 'nope' },
      { c: a.clientId, d: a.domainId.toUpperCase() },
      { c: a.clientId.toUpperCase(), d: a.domainId },
      { c: a.clientId, d: b.domainId },
    ];
    for (const variables of cases) {
      const { compiled } = await bothWays(whole, variables);
      expect(compiled.errors?.[0]?.extensions?.code, JSON.stringify(variables)).toBe('NOT_FOUND');
    }
    const client = `query($c: ID!) { client(id: $c) { id username domains { id name placeholders { name } } } }`;
    for (const c of [unknownId(), 'nope', a.clientId.toUpperCase(), '']) await bothWays(client, { c });
  });
});

describe('only what is asked for', () => {
  it('selects the columns of the fields selected, and the lists selected', async () => {
    const spy = vi.spyOn(service.database.orm.config.getLogger(), 'logQuery');
    let queries: string[];
    try {
      const answer = await service.graphql(domainQuery('name themes { name }'), { c: a.clientId, d: a.domainId });
      expect(answer.errors).toBeUndefined();
      queries = spy.mock.calls.map(([context]) => String(context.query));
    } finally {
      spy.mockRestore();
    }
    expect(queries).toHaveLength(1);
    const [sql] = queries;
    expect(sql).toContain('"host"');
    expect(sql).toContain('"theme"');
    expect(sql).not.toContain('"tcf_vendor_blacklist"');
    expect(sql).not.toContain('"embedding"');
    expect(sql).not.toContain('"primary_button_background_color"');
    expect(sql).not.toContain(a.domainId); // the ids are the statement's parameters, not part of its text
  });
});

// ── random selections of a domain ───────────────────────────────────────────

/** Fields a random selection may take: those without required arguments. */
const selectable = (type: GraphQLObjectType) => Object.values(type.getFields()).filter(withoutRequiredArgs);

/** One field of a random selection, with an alias, a directive or a sub-selection of its own. */
function fieldArbitrary(field: GraphQLField<unknown, unknown>, depth: number): fc.Arbitrary<string> {
  const target = namedType(field.type);
  const sub: fc.Arbitrary<string> =
    target instanceof GraphQLObjectType
      ? depth > 0
        ? selectionArbitrary(target, depth - 1).map((inner) => ` { ${inner} }`)
        : fc.constant(` { ${fullSelection(target)} }`)
      : fc.constant('');
  return fc
    .record({
      alias: fc.constantFrom('', '', '', `${field.name}A: `, `${field.name}B: `),
      directive: fc.constantFrom('', '', '', '', ' @include(if: $on)', ' @skip(if: $off)', ' @include(if: $v)', ' @skip(if: true)'),
      sub,
    })
    .map(({ alias, directive, sub: inner }) => `${alias}${field.name}${directive}${inner}`);
}

/** A random selection of the type's fields, some in inline fragments, with __typename now and then. */
function selectionArbitrary(type: GraphQLObjectType, depth: number): fc.Arbitrary<string> {
  // Fields of objects (a domain's lists) drawn apart from the scalars, so that most selections have some.
  const objects = selectable(type).filter((field) => namedType(field.type) instanceof GraphQLObjectType);
  const scalars = selectable(type).filter((field) => !objects.includes(field));
  return fc
    .tuple(
      fc.subarray(scalars, { maxLength: Math.min(scalars.length, depth >= 2 ? 5 : 3) }),
      fc.subarray(objects, { maxLength: Math.min(objects.length, depth >= 2 ? 3 : 2) }),
    )
    .map(([some, more]) => [...some, ...more])
    .filter((fields) => fields.length > 0)
    .chain((fields) => fc.tuple(...fields.map((field) => fieldArbitrary(field, depth))))
    .chain((parts) =>
      fc.record({
        parts: fc.constant(parts),
        wrap: fc.constantFrom('', '', '', `... on ${type.name}`, '... @include(if: $v)'),
        typename: fc.boolean(),
      }),
    )
    .map(({ parts, wrap, typename }) => {
      const body = `${typename ? '__typename ' : ''}${parts.join(' ')}`;
      return wrap ? `${wrap} { ${body} }` : body;
    });
}

/** Fields of a domain with arguments, answered by their own resolvers beside the compiled ones. */
const withArguments = (seeded: Seeded) => [
  `embedding(id: "${seeded.embeddingId}") { id name assets { name } }`,
  'placeholder(name: "p0") { name value }',
  `theme(id: "${seeded.themeId}") { name }`,
  'locale(name: "fr") { widgetTitle }',
];

describe('random selections of a domain', () => {
  it('answer the same compiled and not', async () => {
    let clean = 0;
    let runs = 0;
    const domainType = objectType('Domain');
    await fc.assert(
      fc.asyncProperty(
        selectionArbitrary(domainType, 2),
        fc.option(selectionArbitrary(domainType, 1), { nil: undefined }),
        fc.subarray(withArguments(a), { maxLength: 2 }),
        fc.record({ on: fc.boolean(), off: fc.boolean(), v: fc.boolean() }),
        fc.constantFrom(a.domainId, a.smallDomainId),
        async (selection, fragment, extra, flags, domainId) => {
          // The fields with arguments name what the larger domain has.
          const withArgs = domainId === a.domainId ? extra.join(' ') : '';
          const body =
            `{ domain(clientId: $c, id: $d) { ${selection} ${withArgs}${fragment ? ' ...Part' : ''} } }` +
            (fragment ? ` fragment Part on Domain { ${fragment} }` : '');
          // Only the flags the document uses are declared: an unused variable is a validation error.
          const used = Object.entries(flags).filter(([name]) => new RegExp(`\\$${name}\\b`).test(body));
          const query = `query($c: ID!, $d: ID!${used.map(([name]) => `, $${name}: Boolean!`).join('')}) ${body}`;
          const { compiled, statements } = await bothWays(query, { c: a.clientId, d: domainId, ...Object.fromEntries(used) });
          // Never more statements than the usual path: one for the domain and its lists, the others' own.
          expect(statements.compiled).toBeLessThanOrEqual(statements.plain);
          runs++;
          if (!compiled.errors) clean++;
        },
      ),
      { numRuns: 60 },
    );
    // Most documents stay within the limits on aliases, directives and cost, and are answered without errors.
    expect(clean).toBeGreaterThan(runs * 0.8);
  }, 300_000);
});
