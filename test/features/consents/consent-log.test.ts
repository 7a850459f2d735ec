import { randomUUID } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { type ConsentRecord } from '../../../src/features/consents/consent-log.contract.ts';
import { exportConsents } from '../../../src/features/consents/consent-log.operations.ts';
import { CSV_COLUMNS, EXPORT_BATCH, exportConsentCsv } from '../../../src/features/consents/consent-log.ts';
import { maintainConsentPartitions } from '../../../src/features/consents/consent-records.ts';
import { createRequestContext } from '../../../src/kernel/context.ts';
import { createApiKey, createClient, embeddingPayload, unknownId } from '../../support/fixtures.ts';
import { ADMIN_KEY } from '../../support/service.ts';
import { useServiceWithDomain } from '../../support/service-with-domain.ts';
import type { GraphqlAnswer, HttpAnswer } from '../../support/service.ts';

/**
 * The consent log as operators read it: a keyset-paged listing, counts per day and choice, the
 * history of one consent id and a CSV export, over REST and GraphQL, reached only through the
 * domain and its client. Records are seeded by the banner's POST /consent, or in SQL where the
 * test needs chosen instants (ranges, ties, microseconds).
 */
const { service, domain, client } = useServiceWithDomain({ service: { consentsPerMinutePerAddress: 1_000 } });

const revision = 'b'.repeat(64);
const DAY_MS = 86_400_000;

/** Midnight UTC of the first of the month two months back, and `days` days after it. */
const now = new Date();
const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 2, 1));
const day = (days: number) => new Date(monthStart.getTime() + days * DAY_MS).toISOString().slice(0, 10);

beforeAll(async () => {
  // The months the seeded instants fall in: from three months back to this one (the service made this one and the next two).
  const past = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 3, 15));
  await maintainConsentPartitions(service.database.orm, { retentionDays: 3650, now: past, monthsAhead: 5 });
});

const connection = () => service.database.orm.em.fork().getConnection();

type Seed = {
  at: string;
  choice?: 'all' | 'necessary' | 'custom';
  consentId?: string;
  categories?: string[];
  services?: string[];
  origin?: string;
  path?: string;
};

/** One record per seed, at its instant (ISO 8601, microseconds kept). */
async function seed(...seeds: Seed[]): Promise<void> {
  for (const record of seeds) {
    await connection().execute(
      `insert into "consent_record" ("domain_id", "received_at", "consent_id", "client_id", "choice", "categories", "services", "revision", "locale", "origin", "path", "address")
       values (?, ?::timestamptz, ?::uuid, ?, ?, ?::jsonb, ?::jsonb, ?, 'de_DE', ?, ?, '203.0.113.0')`,
      [
        domain.domainId,
        record.at,
        record.consentId ?? randomUUID(),
        client.id,
        record.choice ?? 'all',
        JSON.stringify(record.categories ?? ['necessary']),
        JSON.stringify(record.services ?? [randomUUID()]),
        revision,
        record.origin ?? 'https://www.example.org',
        record.path ?? '/',
      ],
    );
  }
}

/** `count` records, one per `step` back from `newest`, choices in turn all, necessary, custom. */
async function seedMany(count: number, newest: string, step = '1 microsecond'): Promise<void> {
  await connection().execute(
    `insert into "consent_record" ("domain_id", "received_at", "consent_id", "client_id", "choice", "categories", "services", "revision", "locale", "origin", "path", "address")
     select ?, ?::timestamptz - n * ?::interval, gen_random_uuid(), ?, (array['all', 'necessary', 'custom'])[1 + n % 3], '["necessary"]', '[]', ?, 'de_DE', 'https://www.example.org', '/', '203.0.113.0'
     from generate_series(0, ? - 1) n`,
    [domain.domainId, newest, step, client.id, revision, count],
  );
}

const RECORD_FIELDS = 'id consentId receivedAt choice categories services revision locale origin path address originMatches signal manipulationPrevention tcString acString gppString';
const VARIABLE_TYPES: Record<string, string> = { from: 'String', to: 'String', after: 'String', first: 'Int', consentId: 'String!' };
/** A query of the domain's `fields`, declaring the variables they use. */
const DOMAIN_QUERY = (fields: string) => {
  const used = [...new Set([...fields.matchAll(/\$(\w+)/g)].map((match) => match[1]!))];
  const declared = ['$clientId: ID!', '$domainId: ID!', ...used.map((name) => `$${name}: ${VARIABLE_TYPES[name]}`)].join(', ');
  return `query(${declared}) { domain(clientId: $clientId, id: $domainId) { ${fields} } }`;
};
const gql = (fields: string, variables: Record<string, unknown> = {}) =>
  service.graphql(DOMAIN_QUERY(fields), { clientId: domain.clientId, domainId: domain.domainId, ...variables });

const listPath = (query: Record<string, string | number>) =>
  `${domain.base}/consent?${new URLSearchParams(Object.entries(query).map(([key, value]) => [key, String(value)]))}`;

/** Every page of the REST listing, and how many there were. */
async function restPages(query: Record<string, string | number>): Promise<{ records: ConsentRecord[]; pages: number[] }> {
  const records: ConsentRecord[] = [];
  const pages: number[] = [];
  let after: string | null = null;
  do {
    const answer: HttpAnswer = await service.rest('GET', listPath({ ...query, ...(after ? { after } : {}) }));
    expect(answer.status, answer.text).toBe(200);
    records.push(...answer.body.records);
    pages.push(answer.body.records.length);
    after = answer.body.nextCursor;
  } while (after);
  return { records, pages };
}

/** Newest first by (receivedAt, id): microsecond ISO strings and lower-case UUIDs sort as PostgreSQL sorts them. */
const newestFirst = (a: ConsentRecord, b: ConsentRecord) =>
  a.receivedAt === b.receivedAt ? (a.id < b.id ? 1 : -1) : a.receivedAt < b.receivedAt ? 1 : -1;

const csvCells = (record: ConsentRecord) => [
  record.receivedAt,
  record.consentId,
  record.choice,
  record.categories.join(' '),
  record.services.join(' '),
  record.revision,
  record.locale,
  record.origin,
  record.path,
  record.address,
  record.id,
  record.originMatches === null ? '' : String(record.originMatches),
  record.signal ?? '',
  String(record.manipulationPrevention),
  record.tcString ?? '',
  record.acString ?? '',
  record.gppString ?? '',
];

describe('the consent log over REST', () => {
  it('lists what the banner sent, newest first, with every field and the instant to the microsecond', async () => {
    const consentId = randomUUID();
    const embedding = await service.rest('POST', `${domain.base}/embedding`, embeddingPayload({ purpose: 'a717ff5' }));
    expect(embedding.status, embedding.text).toBe(201);
    const services = [embedding.body.id];
    const shown = (await service.rest('GET', `${domain.base}/revision?limit=1`)).body.revisions[0].hash;
    const receipts = [];
    for (const [choice, url] of [['all', 'https://www.example.org/shop/cart?session=secret'], ['custom', 'https://attacker.example/shop/cart']] as const) {
      const answer = await fetch(`${service.baseUrl}/consent`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ domain: domain.domainId, consentId, choice, categories: ['necessary', 'analytics'], services, revision: shown, locale: 'de_DE', url }),
      });
      expect(answer.status).toBe(201);
      receipts.push(await answer.json());
    }

    const answer = await service.rest('GET', `${domain.base}/consent`);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.nextCursor).toBeNull();
    expect(answer.body.records).toEqual([
      expect.objectContaining({ consentId, choice: 'custom' }),
      expect.objectContaining({ consentId, choice: 'all' }),
    ]);
    const [newest] = answer.body.records;
    expect(newest).toEqual({
      id: expect.any(String),
      consentId,
      receivedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/),
      choice: 'custom',
      categories: ['necessary', 'analytics'],
      services,
      revision: shown,
      locale: 'de_DE',
      origin: 'https://attacker.example',
      path: '/shop/cart',
      address: '127.0.0.0',
      // A page foreign to the domain: kept, and flagged.
      originMatches: false,
      signal: null,
      manipulationPrevention: false,
      tcString: null,
      acString: null,
      gppString: null,
    });
    expect(answer.body.records[1]).toMatchObject({ origin: 'https://www.example.org', originMatches: true });
    // The receipt has milliseconds; the log keeps the microseconds.
    expect(newest.receivedAt.slice(0, 23)).toBe(receipts[1].receivedAt.slice(0, 23));
  });

  it('pages through 250 records 100 at a time, each exactly once, 20 of them sharing one instant across a page boundary', async () => {
    const newest = `${day(10)}T12:00:00.000000Z`;
    // 230 records a microsecond apart (many per millisecond), and 20 more at the instant of the 95th.
    await seedMany(230, newest);
    const tie = `${day(10)}T11:59:59.999905Z`;
    await seed(...Array.from({ length: 20 }, () => ({ at: tie })));

    const { records, pages } = await restPages({ from: day(10), to: day(11), limit: 100 });
    expect(pages).toEqual([100, 100, 50]);
    expect(new Set(records.map((record) => record.id)).size).toBe(250);
    expect(records).toEqual([...records].sort(newestFirst));
    expect(records.filter((record) => record.receivedAt === tie)).toHaveLength(21);
    expect(records[0]!.receivedAt).toBe(newest);

    // The same, 7 at a time: the ties are cut many times.
    const small = await restPages({ from: day(10), to: day(11), limit: 7 });
    expect(small.records.map((record) => record.id)).toEqual(records.map((record) => record.id));
    // The export reads its batches by the same keyset.
    const csv: string[] = [];
    for await (const chunk of exportConsentCsv(service.database.orm.em.fork(), domain.domainId, { from: day(10), to: day(11) }, { batchSize: 7 })) {
      csv.push(chunk);
    }
    expect(csv).toHaveLength(1 + Math.ceil(250 / 7));
    expect((parse(csv.join('')) as string[][]).slice(1).map((row) => row[10])).toEqual(records.map((record) => record.id));
  });

  it('reads only the range: from inclusive, to exclusive, dates as UTC midnight; by default the last 30 days', async () => {
    await seed(
      { at: `${day(3)}T00:00:00Z`, choice: 'necessary' },
      { at: `${day(3)}T23:59:59.999999Z` },
      { at: `${day(4)}T00:00:00Z` },
      { at: `${day(2)}T23:59:59.999999Z` },
      { at: new Date(now.getTime() - 3_600_000).toISOString() },
      { at: new Date(now.getTime() - 40 * DAY_MS).toISOString() },
    );
    const between = async (query: Record<string, string>) =>
      (await restPages(query)).records.map((record) => record.receivedAt);

    expect(await between({ from: day(3), to: day(4) })).toEqual([`${day(3)}T23:59:59.999999Z`, `${day(3)}T00:00:00.000000Z`]);
    expect(await between({ from: `${day(3)}T00:00:00.000001Z`, to: `${day(4)}T00:00:00.000001Z` })).toEqual([
      `${day(4)}T00:00:00.000000Z`,
      `${day(3)}T23:59:59.999999Z`,
    ]);
    // An offset; its `+` unencoded arrives as a space, and still counts as `+`.
    const plusOne = await service.rest('GET', `${domain.base}/consent?from=${day(3)}T01:00:00+01:00&to=${day(3)}T02:00:00%2B01:00`);
    expect(plusOne.status, plusOne.text).toBe(200);
    expect(plusOne.body.records.map((record: ConsentRecord) => record.choice)).toEqual(['necessary']);

    const recent = await between({});
    expect(recent).toHaveLength(1);
    expect(Date.parse(recent[0]!)).toBeGreaterThan(now.getTime() - 2 * 3_600_000);
    expect(await between({ from: new Date(now.getTime() - 41 * DAY_MS).toISOString() })).toHaveLength(2);
  });

  it('counts records per UTC day and choice, every day of the range, with zeros', async () => {
    await seed(
      { at: `${day(5)}T00:00:00Z`, choice: 'all' },
      { at: `${day(5)}T12:00:00Z`, choice: 'all' },
      { at: `${day(5)}T23:59:59.999999Z`, choice: 'custom' },
      { at: `${day(7)}T08:00:00Z`, choice: 'necessary' },
      { at: `${day(8)}T00:00:00Z`, choice: 'all' },
    );
    const answer = await service.rest('GET', `${domain.base}/consent/counts?from=${day(5)}&to=${day(8)}`);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual([
      { day: day(5), all: 2, necessary: 0, custom: 1, total: 3 },
      { day: day(6), all: 0, necessary: 0, custom: 0, total: 0 },
      { day: day(7), all: 0, necessary: 1, custom: 0, total: 1 },
    ]);
    // Partial days at both ends.
    const partial = await service.rest('GET', `${domain.base}/consent/counts?from=${day(5)}T12:00:00Z&to=${day(7)}T08:00:00.000001Z`);
    expect(partial.body.map((count: { total: number }) => count.total)).toEqual([2, 0, 1]);
    // An empty range has no days; the default is the last 30 days up to now (31 days touched).
    expect((await service.rest('GET', `${domain.base}/consent/counts?from=${day(5)}&to=${day(5)}`)).body).toEqual([]);
    const recent = await service.rest('GET', `${domain.base}/consent/counts`);
    expect(recent.body).toHaveLength(31);
    expect(recent.body.at(-1).day).toBe(now.toISOString().slice(0, 10));
  });

  it('exports the range as a CSV attachment: a header, then every row of the listing, formulas defused', async () => {
    await seedMany(30, `${day(12)}T18:00:00Z`, '1 minute');
    await seed(
      { at: `${day(12)}T09:00:00Z`, origin: '=HYPERLINK("https://evil.example","x")', path: '@SUM(A1:A9)' },
      { at: `${day(12)}T09:00:01Z`, origin: '+1', path: '-2+3' },
      { at: `${day(12)}T09:00:02Z`, path: '/a,"quoted"\npath', categories: ['necessary', 'analytics'], services: [randomUUID(), randomUUID()] },
    );
    const answer = await service.raw({ method: 'GET', path: `${domain.base}/consent/export?from=${day(12)}&to=${day(13)}` });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    // (quoted or not: the name is a token)
    expect(answer.headers.get('content-disposition')?.replaceAll('"', '')).toBe(`attachment; filename=consents-${domain.domainId}-${day(12)}-${day(13)}.csv`);

    const rows = parse(answer.text) as string[][];
    expect(rows[0]).toEqual([...CSV_COLUMNS]);
    const listing = (await restPages({ from: day(12), to: day(13), limit: 1000 })).records;
    expect(listing).toHaveLength(33);
    const defuse = (cell: string) => (/^[=+\-@]/.test(cell) ? `'${cell}` : cell);
    expect(rows.slice(1)).toEqual(listing.map((record) => csvCells(record).map(defuse)));

    const cellsOf = (path: string) => rows.find((row) => row[8] === path);
    expect(cellsOf("'@SUM(A1:A9)")?.[7]).toBe(`'=HYPERLINK("https://evil.example","x")`);
    expect(cellsOf("'-2+3")?.[7]).toBe("'+1");
    expect(cellsOf('/a,"quoted"\npath')?.[3]).toBe('necessary analytics');
    // What the listing sends is what was stored.
    expect(listing.map((record) => record.origin)).toContain('+1');

    // A named range with a time: the file name says it without colons; HEAD would do the whole export.
    const timed = await service.raw({ method: 'GET', path: `${domain.base}/consent/export?from=${day(12)}T09:00:00Z&to=${day(12)}T09:00:01.5Z` });
    expect(timed.headers.get('content-disposition')).toContain(`consents-${domain.domainId}-${day(12)}T090000Z-${day(12)}T090001Z.csv`);
    expect(parse(timed.text)).toHaveLength(3);
    expect((await service.raw({ method: 'HEAD', path: `${domain.base}/consent/export` })).status).toBe(405);
  });

  it('streams a large export in batches: 12,000 rows come as several chunks, none over a batch', async () => {
    await seedMany(12_000, `${day(20)}T12:00:00Z`, '1 second');
    const ctx = createRequestContext(service.database.orm, service.services, { kind: 'admin' }, 'test');
    const answer = await exportConsents(ctx, domain, { from: day(20), to: day(21) });
    const chunks: string[] = [];
    for await (const chunk of answer.body) chunks.push(chunk);
    expect(chunks.length).toBeGreaterThan(2);
    const lines = chunks.map((chunk) => chunk.split('\r\n').length - 1);
    expect(lines[0]).toBe(1);
    expect(Math.max(...lines)).toBeLessThanOrEqual(EXPORT_BATCH);
    expect(lines.reduce((a, b) => a + b, 0)).toBe(12_001);
    const ids = (parse(chunks.join('')) as string[][]).slice(1).map((row) => row[10]);
    expect(new Set(ids).size).toBe(12_000);

    const viaRest = await service.raw({ method: 'GET', path: `${domain.base}/consent/export?from=${day(20)}&to=${day(21)}` });
    expect(viaRest.text).toBe(chunks.join(''));

    // A download given up half-way stops the export; the service goes on answering.
    const leaving = new AbortController();
    const download = await fetch(`${service.baseUrl}${domain.base}/consent/export?from=${day(20)}&to=${day(21)}`, {
      headers: { authorization: `Bearer ${ADMIN_KEY}` },
      signal: leaving.signal,
    });
    await download.body!.getReader().read();
    leaving.abort();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await service.rest('GET', `${domain.base}/consent?from=${day(20)}&to=${day(21)}&limit=1`)).status).toBe(200);
  });

  it('reads the history of one consent id, newest first; 404 for one without records or no UUID', async () => {
    const consentId = randomUUID();
    await seed(
      { at: `${day(14)}T10:00:00Z`, consentId, choice: 'all' },
      { at: `${day(15)}T10:00:00Z`, consentId, choice: 'custom' },
      { at: `${day(16)}T10:00:00Z`, consentId, choice: 'necessary' },
      { at: `${day(15)}T11:00:00Z` },
    );
    const answer = await service.rest('GET', `${domain.base}/consent/${consentId}`);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.map((record: ConsentRecord) => [record.choice, record.consentId])).toEqual([
      ['necessary', consentId],
      ['custom', consentId],
      ['all', consentId],
    ]);
    for (const missing of [unknownId(), 'not-a-uuid']) {
      const notFound = await service.rest('GET', `${domain.base}/consent/${missing}`);
      expect(notFound.status).toBe(404);
      expect(notFound.body.detail).toContain(`consent ${missing}`);
    }
  });

  it('answers 404 for every route to a key of another client, and serves its own client', async () => {
    const consentId = randomUUID();
    await seed({ at: new Date(now.getTime() - 60_000).toISOString(), consentId });
    const other = await createClient(service);
    const stranger = service.as((await createApiKey(service, other.id, 'other')).key);
    const owner = service.as((await createApiKey(service, client.id, 'own')).key);
    const paths = ['/consent', '/consent/counts', '/consent/export', `/consent/${consentId}`];
    for (const path of paths) {
      expect((await stranger.rest('GET', `${domain.base}${path}`)).status, path).toBe(404);
      expect((await stranger.rest('GET', `/hosting/api/client/${other.id}/domain/${domain.domainId}${path}`)).status, path).toBe(404);
      expect((await owner.rest('GET', `${domain.base}${path}`)).status, path).toBe(200);
    }
    const viaGraphql = await stranger.graphql(DOMAIN_QUERY(`consents { records { id } } consentCounts { day } consent(consentId: $consentId) { id }`), {
      clientId: domain.clientId,
      domainId: domain.domainId,
      consentId,
    });
    expect(viaGraphql.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect((await service.rest('GET', `/hosting/api/client/${client.id}/domain/${unknownId()}/consent`)).status).toBe(404);
  });

  it.each([
    ['/consent', 'limit=0', '/limit'],
    ['/consent', 'limit=1001', '/limit'],
    ['/consent', 'limit=ten', '/limit'],
    ['/consent', 'from=yesterday', '/from'],
    ['/consent', 'to=2026-02-30', '/to'],
    ['/consent', 'from=0000-01-01', '/from'],
    ['/consent', 'after=not-a-cursor', '/after'],
    ['/consent', `after=${Buffer.from(`2026-01-01T00:00:00.000000Z ${unknownId()}x`).toString('base64url')}`, '/after'],
    ['/consent', 'from=2026-03-02&to=2026-03-01', '/to'],
    ['/consent', 'colour=red', '/colour'],
    ['/consent/counts', 'from=2025-01-01&to=2026-02-06', '/to'],
    ['/consent/counts', 'to=2026-03-01T10:00:00', '/to'],
    ['/consent/export', 'from=2026-03-02&to=2026-03-01', '/to'],
    ['/consent/export', 'limit=10', '/limit'],
  ])('answers 400 naming the parameter: %s?%s', async (path, query, pointer) => {
    const answer = await service.rest('GET', `${domain.base}${path}?${query}`);
    expect(answer.status, answer.text).toBe(400);
    expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(answer.body.errors.map((error: { path: string }) => error.path)).toEqual([pointer]);
  });

  it('takes a range of exactly 400 days for the counts', async () => {
    const answer = await service.rest('GET', `${domain.base}/consent/counts?from=2025-01-01&to=2026-02-05`);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toHaveLength(400);
  });
});

describe('the consent log over GraphQL', () => {
  it('lists the same pages as REST, and counts the same', async () => {
    await seedMany(45, `${day(9)}T20:00:00Z`, '1 hour');
    const rest = (await restPages({ from: day(8), to: day(11), limit: 20 })).records;

    const records: ConsentRecord[] = [];
    let after: string | null = null;
    let pages = 0;
    do {
      const answer: GraphqlAnswer = await gql(`consents(from: $from, to: $to, after: $after, first: $first) { records { ${RECORD_FIELDS} } nextCursor }`, {
        from: day(8),
        to: day(11),
        first: 20,
        after,
      });
      expect(answer.errors).toBeUndefined();
      records.push(...answer.data.domain.consents.records);
      after = answer.data.domain.consents.nextCursor;
      pages++;
    } while (after);
    expect(pages).toBe(3);
    expect(records).toEqual(rest);

    const counts = await gql('consentCounts(from: $from, to: $to) { day all necessary custom total }', { from: day(8), to: day(11) });
    expect(counts.errors).toBeUndefined();
    const restCounts = await service.rest('GET', `${domain.base}/consent/counts?from=${day(8)}&to=${day(11)}`);
    expect(counts.data.domain.consentCounts).toEqual(restCounts.body);
    expect(restCounts.body.map((count: { total: number }) => count.total)).toEqual([24, 21, 0]);
  });

  it('reads the history of one consent id; NOT_FOUND for one without records', async () => {
    const consentId = randomUUID();
    await seed({ at: `${day(14)}T10:00:00Z`, consentId, choice: 'all' }, { at: `${day(15)}T10:00:00Z`, consentId, choice: 'necessary' });
    const history = await gql(`consent(consentId: $consentId) { ${RECORD_FIELDS} }`, { consentId });
    expect(history.errors).toBeUndefined();
    expect(history.data.domain.consent).toEqual((await service.rest('GET', `${domain.base}/consent/${consentId}`)).body);
    const missing = await gql(`consent(consentId: $consentId) { id }`, { consentId: unknownId() });
    expect(missing.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });

  it('refuses bad arguments as BAD_USER_INPUT, naming them', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ first: 0 }, '/first'],
      [{ from: 'yesterday' }, '/from'],
      [{ after: 'nope' }, '/after'],
      [{ from: '2026-03-02', to: '2026-03-01' }, '/to'],
    ];
    for (const [variables, pointer] of cases) {
      const answer = await gql('consents(from: $from, to: $to, after: $after, first: $first) { nextCursor }', variables);
      expect(answer.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
      expect(answer.errors?.[0]?.extensions?.errors?.map((error) => error.path)).toEqual([pointer]);
    }
    const counts = await gql('consentCounts(from: $from, to: $to) { day }', { from: '2024-01-01', to: '2026-01-01' });
    expect(counts.errors?.[0]?.extensions?.errors).toEqual([{ path: '/to', message: 'must be at most 400 days after from' }]);
  });
});
