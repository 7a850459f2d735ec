import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SentStatement } from '../src/db/statements.ts';
import { createDomain, type DomainPath, embeddingPayload } from './support/fixtures.ts';
import { startTestService, type TestService } from './support/service.ts';

/**
 * Issue 37, item 10: on a database with large domains PostgreSQL's JIT compiled the service's
 * nested-JSON reads, for 250–300 ms a run where the work took 0.5 ms. The planner costs a domain's
 * embeddings (and their assets) at the average domain's size, whichever domain is asked for, so
 * the statistics of 100,000 embeddings in a few large domains put every read of a domain's
 * embeddings past `jit_above_cost`, that of a 50-embedding domain too. On the service's own
 * connections those reads are planned without JIT: the plans of what a request sends, for its
 * values and as the generic plan a prepared statement may settle on, have no "JIT" part.
 *
 * The embedded PGlite has no JIT: the test needs a PostgreSQL server.
 */

/** The domain asked for: 50 embeddings of 3 assets. */
const EMBEDDINGS = 50;
const ASSETS_PER_EMBEDDING = 3;
/** Beside it, 10 domains of 10,000 embeddings (its own, 200 times over): 100,000 embeddings, 300,000 assets. */
const LARGE_DOMAINS = 10;
const REPEATS = 200;

const WHOLE_DOMAIN = `query($c: ID!, $d: ID!) { domain(clientId: $c, id: $d) { name url locales
  placeholders { name value } themes { id name default }
  embeddings { id name active purpose vendor translations { locale name } assets { id name storageType lifetime description } } } }`;

describe.skipIf(!process.env.DATABASE_URL)('no JIT in the hot reads on real data (PostgreSQL only: the embedded PGlite has no JIT)', () => {
  let service: TestService;
  let domain: DomainPath;

  beforeAll(async () => {
    service = await startTestService();
    domain = await createDomain(service);
    for (let i = 0; i < EMBEDDINGS; i++) {
      const assets = Array.from({ length: ASSETS_PER_EMBEDDING }, (_, n) => ({ name: `cookie_${i}_${n}`, lifetime: '1 year', description: 'Keeps the session' }));
      const created = await service.rest('POST', `${domain.base}/embedding`, embeddingPayload({ name: `service ${i}`, assets }));
      expect(created.status).toBe(201);
    }
    await withAdminConnection(service.databaseUrl!, (client) => copyDomain(client, domain.domainId, LARGE_DOMAINS, REPEATS));
  }, 120_000);
  afterAll(() => service?.close());

  it.each([
    ['REST: the list of a domain’s 50 embeddings', () => service.rest('GET', `${domain.base}/embedding`)],
    ['GraphQL: the whole domain', () => service.graphql(WHOLE_DOMAIN, { c: domain.clientId, d: domain.domainId })],
  ] as const)('%s', async (_, request) => {
    const sent = await statementsOf(request);
    expect(sent.length).toBeGreaterThan(0);
    const pool = (await service.database.orm.em.getConnection().getNativeClient()) as unknown as pg.Pool;
    const connection = await pool.connect();
    try {
      for (const statement of sent) {
        for (const plan of await plansOf(connection, statement)) {
          expect(plan.JIT, `${plan.kind} plan of ${statement.query}`).toBeUndefined();
        }
      }
    } finally {
      connection.release();
    }
  });

  /** The selects one request sends (its answer a success). */
  async function statementsOf(request: () => Promise<{ status: number }>): Promise<SentStatement[]> {
    const sent: SentStatement[] = [];
    service.database.statements.watch = (statement) => sent.push(statement);
    try {
      const answer = await request();
      expect(answer.status).toBe(200);
    } finally {
      service.database.statements.watch = undefined;
    }
    return sent.filter((statement) => /^\s*(with|select)\b/i.test(statement.query));
  }
});

type Plan = { kind: 'custom' | 'generic'; JIT?: unknown };

/**
 * EXPLAIN ANALYZE of a statement as the service sends it: planned for its values, and the
 * generic plan a prepared statement is planned with once it has run five times.
 */
async function plansOf(connection: pg.PoolClient, { query, params }: SentStatement): Promise<Plan[]> {
  const text = numbered(query, params.length);
  const custom = await connection.query<{ 'QUERY PLAN': [{ JIT?: unknown }] }>(`explain (analyze, format json) ${text}`, [...params]);
  await connection.query(`prepare jit_probe as ${text}`);
  try {
    await connection.query('set plan_cache_mode = force_generic_plan');
    const values = params.map((value) => (value === null ? 'null' : connection.escapeLiteral(String(value))));
    const generic = await connection.query<{ 'QUERY PLAN': [{ JIT?: unknown }] }>(
      `explain (analyze, format json) execute jit_probe${values.length ? `(${values.join(', ')})` : ''}`,
    );
    return [
      { kind: 'custom', ...custom.rows[0]!['QUERY PLAN'][0] },
      { kind: 'generic', ...generic.rows[0]!['QUERY PLAN'][0] },
    ];
  } finally {
    await connection.query('reset plan_cache_mode');
    await connection.query('deallocate jit_probe');
  }
}

/** `?` → `$1`, `$2`, … (the service's statements use `?` for their values only). */
function numbered(query: string, count: number): string {
  const parts = query.split('?');
  expect(parts.length, query).toBe(count + 1);
  return parts.reduce((text, part, i) => `${text}$${i}${part}`);
}

async function withAdminConnection<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * `domains` new domains like the one of `domainId`, each with its embeddings `repeats` times over
 * and their assets, written in three statements without triggers or foreign-key checks
 * (`session_replication_role = replica`), then ANALYZEd. Every column is copied (whatever columns
 * the migrations have added) but the ids, which are md5 hashes of the original's id and the copy's
 * numbers, so that the copied rows find each other.
 */
async function copyDomain(client: pg.Client, domainId: string, domains: number, repeats: number): Promise<void> {
  const copy = async (table: string, from: string, replaced: Record<string, string>) => {
    const { rows } = await client.query<{ name: string }>(
      `select column_name as name from information_schema.columns where table_schema = current_schema() and table_name = $1 order by ordinal_position`,
      [table],
    );
    const columns = rows.map((row) => row.name);
    const values = columns.map((column) => replaced[column] ?? `t."${column}"`);
    const sql = `insert into "${table}" (${columns.map((column) => `"${column}"`).join(', ')}) select ${values.join(', ')} from ${from}`;
    await client.query(sql, [domainId, domains, repeats]);
  };
  const copyOfDomain = (column: string) => `md5(t."${column}"::text || '-' || n)::uuid`;
  const copyOfItem = (column: string) => `md5(t."${column}"::text || '-' || n || '-' || r)::uuid`;
  const copies = 'generate_series(1, $2::int) n, generate_series(1, $3::int) r';
  await client.query('set session_replication_role = replica');
  await copy('domain', `"domain" t, ${copies} where t.id = $1 and r = 1`, { id: copyOfDomain('id'), host: `'copy-' || n || '.example'` });
  await copy('embedding', `"embedding" t, ${copies} where t.domain_id = $1`, { id: copyOfItem('id'), domain_id: copyOfDomain('domain_id') });
  await copy('embedding_asset', `"embedding_asset" t join "embedding" e on e.id = t.embedding_id, ${copies} where e.domain_id = $1`, {
    id: copyOfItem('id'),
    embedding_id: copyOfItem('embedding_id'),
  });
  await client.query('reset session_replication_role');
  await client.query('analyze "domain", "embedding", "embedding_asset"');
}
