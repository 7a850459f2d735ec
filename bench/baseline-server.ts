/**
 * The baseline: a bare Express 5 + pg server answering the benchmark's REST reads and writes
 * with hand-written SQL on the service's own tables — the least a correct implementation does,
 * which is what the service is measured against. Run by bench/run.ts:
 * `node bench/baseline-server.ts` with DATABASE_URL, ADMIN_API_KEY and PORT.
 *
 * What it does as the service does:
 * - every request but /stats carries the administrator's key (compared in constant time), or 401;
 * - every write body is parsed with the service's own contract schemas (the very schema objects
 *   its REST routes parse with, through the same `parsePayload`), or 400 listing the problems;
 * - every read and write checks, inside its own statement, that the domain is the client's in the
 *   URL (404 when not); every write first locks the domain's row `for no key update`, as the
 *   service's write transactions do (revision-recorder.ts, lockReachedDomains);
 * - a bulk replace of placeholders runs in one transaction holding that lock, so concurrent
 *   replaces of one domain queue instead of colliding on the unique names (and answering 500);
 * - an update that sends assets locks the embedding too and keeps the ids of current assets
 *   sent back; a `tcfVendor` is checked against an imported Global Vendor List.
 * What it leaves out: revisions, rate limits, metrics, logging, security headers — the
 * service's extra work, which counts against it.
 *
 * Statements are counted per statement sent, `begin` and `commit` included, as the service's
 * consent_config_db_statements_total counts them.
 */
import { timingSafeEqual } from 'node:crypto';
import express, { type NextFunction, type Request, type Response } from 'express';
import pg from 'pg';
import { assetDefaults, type AssetCreate } from '../src/features/embeddings/embedding-asset.contract.ts';
import { embeddingCreate, embeddingDefaults, embeddingUpdate } from '../src/features/embeddings/embedding.contract.ts';
import { placeholderReplaceAll } from '../src/features/placeholders/placeholder.contract.ts';
import { parsePayload } from '../src/kernel/contract/validate.ts';
import { ERROR_KINDS, invalid, notFound, ServiceError } from '../src/kernel/errors.ts';
import { isId, newId } from '../src/kernel/ids.ts';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
let statements = 0;
// Every statement reaches the server through a pooled client's `query` (pool.query too).
pool.on('connect', (client) => {
  const send = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    statements++;
    return send(...args);
  };
});
const query = (sql: string, params: unknown[] = []) => pool.query(sql, params);

// ── reads ───────────────────────────────────────────────────────────────────

const EMBEDDING_COLUMNS = `e.id, e.name, e.active, e.purpose, e.vendor, e.script_html_code, e.script_loader_group,
  e.script_markers, e.iframe_markers, e.hide_iframes_until_consent, e.exclude_urls_mode, e.exclude_from_urls,
  e.description, e.privacy_policy_url, e.what_data_is_collected, e.purpose_of_data_collection, e.legal_basis,
  e.place_of_processing, e.translations, e.tcf_vendor, e.tcf_purposes, e.tcf_special_features, e.google_consent_mode`;

const ASSETS = `coalesce((select json_agg(json_build_object('id', a.id, 'name', a.name, 'dynamic', a.dynamic,
  'storageType', a.storage_type, 'lifetime', a.lifetime, 'description', a.description, 'translations', a.translations)
  order by a.position) from embedding_asset a where a.embedding_id = e.id), '[]') as assets`;

type Row = Record<string, unknown>;
const camel = (column: string) => column.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
const snake = (field: string) => field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
/** A row of EMBEDDING_COLUMNS and ASSETS → the embedding as the service sends it. */
const toEmbedding = (row: Row) => Object.fromEntries(Object.entries(row).map(([column, value]) => [camel(column), value]));

const app = express();
app.use(express.json({ limit: '2mb' }));
const D = '/hosting/api/client/:clientId/domain/:domainId';

app.get('/stats', (_req, res) => {
  res.json({ statements });
});

const expectedKey = Buffer.from(`Bearer ${process.env.ADMIN_API_KEY ?? ''}`);
app.use((req, res, next) => {
  const sent = Buffer.from(req.headers.authorization ?? '');
  if (sent.length === expectedKey.length && timingSafeEqual(sent, expectedKey)) return next();
  res.status(401).json({ message: 'unauthenticated' });
});

/** Path ids that are not UUIDs name nothing (and would make PostgreSQL refuse the statement). */
for (const name of ['clientId', 'domainId', 'embeddingId']) {
  app.param(name, (_req, _res, next, value: string) => next(isId(value) ? undefined : notFound(value)));
}

app.get(`${D}/embedding/:embeddingId`, async (req, res) => {
  const { rows } = await query(
    `select ${EMBEDDING_COLUMNS}, ${ASSETS} from embedding e join domain d on d.id = e.domain_id
     where e.id = $1 and d.id = $2 and d.client_id = $3`,
    [req.params.embeddingId, req.params.domainId, req.params.clientId],
  );
  if (rows.length === 0) throw notFound('embedding');
  res.json(toEmbedding(rows[0]));
});

/** Every embedding of the domain; the domain left-joined, so that one not the client's is a 404 and an empty one an empty list. */
app.get(`${D}/embedding`, async (req, res) => {
  const { rows } = await query(
    `select ${EMBEDDING_COLUMNS}, ${ASSETS} from domain d left join embedding e on e.domain_id = d.id
     where d.id = $1 and d.client_id = $2 order by e.id`,
    [req.params.domainId, req.params.clientId],
  );
  if (rows.length === 0) throw notFound('domain');
  res.json(rows.filter((row) => row.id !== null).map(toEmbedding));
});

/** The whole domain in one answer: what the service's GraphQL whole-domain query returns (whose it is checked with the placeholders). */
app.get(`${D}/whole`, async (req, res) => {
  const withLocales = req.query.locales !== undefined;
  const [placeholders, themes, embeddings, locales] = await Promise.all([
    query(
      `select p.name, p.value from domain d left join placeholder p on p.domain_id = d.id
       where d.id = $1 and d.client_id = $2 order by p.id`,
      [req.params.domainId, req.params.clientId],
    ),
    query('select * from theme where domain_id = $1 order by id', [req.params.domainId]),
    query(`select ${EMBEDDING_COLUMNS}, ${ASSETS} from embedding e where e.domain_id = $1 order by e.id`, [req.params.domainId]),
    withLocales ? query('select name, active, texts from locale where domain_id = $1 order by name', [req.params.domainId]) : undefined,
  ]);
  if (placeholders.rows.length === 0) throw notFound('domain');
  res.json({
    placeholders: placeholders.rows.filter((row) => row.name !== null),
    themes: themes.rows,
    embeddings: embeddings.rows.map(toEmbedding),
    ...(locales && { locales: locales.rows.map((row) => ({ name: row.name, active: row.active, ...row.texts })) }),
  });
});

// ── writes ──────────────────────────────────────────────────────────────────

/** The domain's row, if it is the client's ($1 domain, $2 client), locked as the service's writes lock it. */
const LOCKED_DOMAIN = 'select id from domain where id = $1 and client_id = $2 for no key update';

/** The embedding's written fields with the type of their column (a statement's parameters are cast to it). */
const EMBEDDING_FIELDS = {
  name: 'text', active: 'boolean', purpose: 'text', vendor: 'text', scriptHtmlCode: 'text', scriptLoaderGroup: 'text',
  scriptMarkers: 'jsonb', iframeMarkers: 'jsonb', hideIframesUntilConsent: 'boolean', excludeUrlsMode: 'text',
  excludeFromUrls: 'jsonb', description: 'text', privacyPolicyUrl: 'text', whatDataIsCollected: 'text',
  purposeOfDataCollection: 'text', legalBasis: 'text', placeOfProcessing: 'text', translations: 'jsonb',
  tcfVendor: 'int', tcfPurposes: 'jsonb', tcfSpecialFeatures: 'jsonb', googleConsentMode: 'jsonb',
} as const;
type EmbeddingField = keyof typeof EMBEDDING_FIELDS;
/** pg sends a JS array as a PostgreSQL array: JSON columns get their text. */
const columnValue = (field: EmbeddingField, value: unknown) => (EMBEDDING_FIELDS[field] === 'jsonb' ? JSON.stringify(value) : value);

/** The assets of a write as rows of `jsonb_to_recordset`: ids kept where `keep` has them, else new; positions in order. */
const assetRows = (inputs: AssetCreate[], keep: Set<string> = new Set()) =>
  inputs.map(({ id, ...fields }, position) => ({
    ...assetDefaults,
    ...fields,
    id: typeof id === 'string' && keep.has(id) ? id : newId(),
    position,
  }));
const ASSET_RECORDS = `jsonb_to_recordset($ASSETS::jsonb) as x(id uuid, position int, name text, dynamic boolean,
  "storageType" text, lifetime text, description text, translations jsonb)`;
const ASSET_INSERT = `insert into embedding_asset (id, embedding_id, position, name, dynamic, storage_type, lifetime,
  description, translations, created_at, updated_at)`;
const ASSET_VALUES = 'x.id, $EMBEDDING, x.position, x.name, x.dynamic, x."storageType", x.lifetime, x.description, x.translations, now(), now()';

/**
 * The `vendor` a write's `tcfVendor` stands for, as the service checks it (tcf-vendor.lookup.ts):
 * without an imported list any id is taken; with one it must name a vendor of it not deleted.
 * No statement when the write sets no vendor id.
 */
async function withTcfVendorName<T extends { tcfVendor?: number | null; vendor?: string }>(fields: T): Promise<T> {
  if (fields.tcfVendor === undefined || fields.tcfVendor === null) return fields;
  const { rows } = await query(
    `select list.vendor_list_version as version, v.name, (v.deleted_date is not null and v.deleted_date <= now()) as deleted
     from (select vendor_list_version from tcf_vendor limit 1) as list left join tcf_vendor v on v.id = $1`,
    [fields.tcfVendor],
  );
  const found = rows[0] as { version: number; name: string | null; deleted: boolean } | undefined;
  if (!found) return fields;
  if (found.name === null || found.deleted) {
    throw invalid('the payload is invalid: 1 problem', [{ path: '/tcfVendor', message: `is not a vendor of the imported Global Vendor List (version ${found.version})` }]);
  }
  return { ...fields, vendor: found.name };
}

/** Create: one statement — lock and ownership, the embedding, its assets. */
app.post(`${D}/embedding`, async (req, res) => {
  const { id: _ignored, assets = [], ...sent } = await withTcfVendorName(parsePayload(embeddingCreate, req.body));
  const fields = { ...embeddingDefaults, ...sent } as Record<EmbeddingField, unknown>;
  const names = Object.keys(EMBEDDING_FIELDS) as EmbeddingField[];
  const id = newId();
  const rows = assetRows(assets);
  const params: unknown[] = [req.params.domainId, req.params.clientId, id, JSON.stringify(rows), ...names.map((name) => columnValue(name, fields[name]))];
  const { rowCount } = await query(
    `with d as (${LOCKED_DOMAIN}),
     e as (insert into embedding (id, domain_id, ${names.map(snake).join(', ')}, created_at, updated_at)
           select $3::uuid, d.id, ${names.map((name, i) => `$${i + 5}::${EMBEDDING_FIELDS[name]}`).join(', ')}, now(), now() from d
           returning id),
     a as (${ASSET_INSERT} select ${ASSET_VALUES.replace('$EMBEDDING', 'e.id')} from e, ${ASSET_RECORDS.replace('$ASSETS', '$4')})
     select id from e`,
    params,
  );
  if (!rowCount) throw notFound('domain');
  res.status(201).json({ id, ...fields, assets: rows.map(({ position: _position, ...asset }) => asset) });
});

/** The SET list of an update's fields, its parameters numbered from `first`. */
function setList(fields: Partial<Record<EmbeddingField, unknown>>, first: number): [string, unknown[]] {
  const names = (Object.keys(fields) as EmbeddingField[]).filter((name) => name in EMBEDDING_FIELDS && fields[name] !== undefined);
  const sets = names.map((name, i) => `${snake(name)} = $${first + i}::${EMBEDDING_FIELDS[name]}`);
  return [[...sets, 'updated_at = now()'].join(', '), names.map((name) => columnValue(name, fields[name]))];
}

/** Update: an update that sends no assets is one statement; one that sends assets replaces them too. */
app.put(`${D}/embedding/:embeddingId`, async (req, res) => {
  const { id: _ignored, assets, ...fields } = await withTcfVendorName(parsePayload(embeddingUpdate, req.body));
  const scope = { clientId: req.params.clientId, domainId: req.params.domainId, embeddingId: req.params.embeddingId };
  res.json(toEmbedding(assets === undefined ? await updateFields(scope, fields) : await updateWithAssets(scope, fields, assets)));
});

type Scope = { clientId: string; domainId: string; embeddingId: string };

/** One statement: lock and ownership, the update, the embedding as it now reads. */
async function updateFields(scope: Scope, fields: Partial<Record<EmbeddingField, unknown>>): Promise<Row> {
  const [sets, values] = setList(fields, 4);
  const { rows } = await query(
    `with d as (${LOCKED_DOMAIN})
     update embedding e set ${sets} from d where e.id = $3 and e.domain_id = d.id
     returning ${EMBEDDING_COLUMNS}, ${ASSETS}`,
    [scope.domainId, scope.clientId, scope.embeddingId, ...values],
  );
  if (rows.length === 0) throw notFound('embedding');
  return rows[0] as Row;
}

/**
 * In a transaction that locks the domain and the embedding (as the service locks the embedding
 * whose assets it replaces): drops the assets not sent back, writes the sent ones in order (a
 * sent id of a current asset keeps it), then the fields.
 */
function updateWithAssets(scope: Scope, fields: Partial<Record<EmbeddingField, unknown>>, assets: AssetCreate[]): Promise<Row> {
  return inTransaction(async (client) => {
    const { rows: found } = await client.query(
      `select coalesce((select array_agg(a.id) from embedding_asset a where a.embedding_id = e.id), '{}') as assets
       from domain d join embedding e on e.domain_id = d.id
       where d.id = $1 and d.client_id = $2 and e.id = $3 for no key update of d, e`,
      [scope.domainId, scope.clientId, scope.embeddingId],
    );
    if (found.length === 0) throw notFound('embedding');
    const rows = assetRows(assets, new Set(found[0].assets as string[]));
    await client.query(
      `with dropped as (delete from embedding_asset where embedding_id = $1 and id <> all($2::uuid[]))
       ${ASSET_INSERT} select ${ASSET_VALUES.replace('$EMBEDDING', '$1::uuid')} from ${ASSET_RECORDS.replace('$ASSETS', '$3')}
       on conflict (id) do update set position = excluded.position, name = excluded.name, dynamic = excluded.dynamic,
         storage_type = excluded.storage_type, lifetime = excluded.lifetime, description = excluded.description,
         translations = excluded.translations, updated_at = now()`,
      [scope.embeddingId, rows.map((row) => row.id), JSON.stringify(rows)],
    );
    const [sets, values] = setList(fields, 2);
    const { rows: updated } = await client.query(
      `update embedding e set ${sets} where e.id = $1 returning ${EMBEDDING_COLUMNS}, ${ASSETS}`,
      [scope.embeddingId, ...values],
    );
    return updated[0] as Row;
  });
}

/** Delete: one statement — lock and ownership, the delete (its assets go by the foreign key's cascade). */
app.delete(`${D}/embedding/:embeddingId`, async (req, res) => {
  const { rowCount } = await query(
    `with d as (${LOCKED_DOMAIN}) delete from embedding e using d where e.id = $3 and e.domain_id = d.id`,
    [req.params.domainId, req.params.clientId, req.params.embeddingId],
  );
  if (!rowCount) throw notFound('embedding');
  res.status(204).end();
});

/**
 * Bulk replace: the domain's placeholders become exactly the items, in a transaction holding the
 * domain's lock. Each statement after the lock reads what the replaces before it committed (a
 * single statement could not: its snapshot predates the wait for the lock).
 */
app.put(`${D}/placeholder`, async (req, res) => {
  const items = parsePayload(placeholderReplaceAll, req.body);
  await inTransaction(async (client) => {
    const { rowCount } = await client.query(LOCKED_DOMAIN, [req.params.domainId, req.params.clientId]);
    if (!rowCount) throw notFound('domain');
    await client.query('delete from placeholder where domain_id = $1', [req.params.domainId]);
    if (items.length === 0) return;
    await client.query(
      `insert into placeholder (id, domain_id, name, value, created_at, updated_at)
       select x.id, $1::uuid, x.name, x.value, now(), now() from jsonb_to_recordset($2::jsonb) as x(id uuid, name text, value text)`,
      [req.params.domainId, JSON.stringify(items.map((item) => ({ id: newId(), name: item.name, value: item.value })))],
    );
  });
  res.status(201).json(items.map(({ name, value }) => ({ name, value })));
});

async function inTransaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    const result = await work(client);
    await client.query('commit');
    return result;
  } catch (error) {
    await client.query('rollback');
    throw error;
  } finally {
    client.release();
  }
}

// Express 5 hands the rejections of async handlers here.
app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
  if (error instanceof ServiceError) return void res.status(ERROR_KINDS[error.kind].status).json({ message: error.message, errors: error.problems });
  const status = (error as { status?: unknown }).status;
  if (typeof status === 'number' && status >= 400 && status < 500) return void res.status(status).json({ message: String(error) });
  console.error(error);
  res.status(500).json({ message: 'internal error' });
});

app.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('baseline ready'));
