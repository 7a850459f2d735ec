/**
 * The baseline: a bare Express 5 + pg server answering the benchmark's REST reads and writes
 * with hand-written SQL on the service's own tables. No validation, no auth, no ORM — the
 * floor the service is measured against. Run by bench/run.ts: `node bench/baseline-server.ts`
 * with DATABASE_URL and PORT.
 */
import { randomUUID } from 'node:crypto';
import express from 'express';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
let statements = 0;
const query = (sql: string, params: unknown[] = []) => {
  statements++;
  return pool.query(sql, params);
};

const EMBEDDING_COLUMNS = `e.id, e.name, e.active, e.purpose, e.vendor, e.script_html_code, e.script_loader_group,
  e.script_markers, e.iframe_markers, e.hide_iframes_until_consent, e.exclude_urls_mode, e.exclude_from_urls,
  e.description, e.privacy_policy_url, e.what_data_is_collected, e.purpose_of_data_collection, e.legal_basis,
  e.place_of_processing, e.translations, e.tcf_vendor, e.tcf_purposes, e.tcf_special_features, e.google_consent_mode`;

const ASSETS = `coalesce((select json_agg(json_build_object('id', a.id, 'name', a.name, 'dynamic', a.dynamic,
  'storageType', a.storage_type, 'lifetime', a.lifetime, 'description', a.description, 'translations', a.translations)
  order by a.position) from embedding_asset a where a.embedding_id = e.id), '[]') as assets`;

type Row = Record<string, unknown>;
const toEmbedding = (row: Row) => ({
  id: row.id,
  name: row.name,
  active: row.active,
  purpose: row.purpose,
  vendor: row.vendor,
  scriptHtmlCode: row.script_html_code,
  scriptLoaderGroup: row.script_loader_group,
  scriptMarkers: row.script_markers,
  iframeMarkers: row.iframe_markers,
  hideIframesUntilConsent: row.hide_iframes_until_consent,
  excludeUrlsMode: row.exclude_urls_mode,
  excludeFromUrls: row.exclude_from_urls,
  description: row.description,
  privacyPolicyUrl: row.privacy_policy_url,
  whatDataIsCollected: row.what_data_is_collected,
  purposeOfDataCollection: row.purpose_of_data_collection,
  legalBasis: row.legal_basis,
  placeOfProcessing: row.place_of_processing,
  translations: row.translations,
  tcfVendor: row.tcf_vendor,
  tcfPurposes: row.tcf_purposes,
  tcfSpecialFeatures: row.tcf_special_features,
  googleConsentMode: row.google_consent_mode,
  assets: row.assets,
});

const app = express();
app.use(express.json({ limit: '2mb' }));
const D = '/hosting/api/client/:clientId/domain/:domainId';

app.get('/stats', (_req, res) => {
  res.json({ statements });
});

app.get(`${D}/embedding/:embeddingId`, async (req, res) => {
  const { rows } = await query(
    `select ${EMBEDDING_COLUMNS}, ${ASSETS} from embedding e join domain d on d.id = e.domain_id
     where e.id = $1 and d.id = $2 and d.client_id = $3`,
    [req.params.embeddingId, req.params.domainId, req.params.clientId],
  );
  if (rows.length === 0) return void res.status(404).end();
  res.json(toEmbedding(rows[0]));
});

app.get(`${D}/embedding`, async (req, res) => {
  const { rows } = await query(
    `select ${EMBEDDING_COLUMNS}, ${ASSETS} from embedding e join domain d on d.id = e.domain_id
     where d.id = $1 and d.client_id = $2 order by e.id`,
    [req.params.domainId, req.params.clientId],
  );
  res.json(rows.map(toEmbedding));
});

/** The whole domain in one answer: what the service's GraphQL whole-domain query returns. */
app.get(`${D}/whole`, async (req, res) => {
  const withLocales = req.query.locales !== undefined;
  const [placeholders, themes, embeddings, locales] = await Promise.all([
    query('select name, value from placeholder where domain_id = $1 order by id', [req.params.domainId]),
    query('select * from theme where domain_id = $1 order by id', [req.params.domainId]),
    query(`select ${EMBEDDING_COLUMNS}, ${ASSETS} from embedding e where e.domain_id = $1 order by e.id`, [req.params.domainId]),
    withLocales ? query('select name, active, texts from locale where domain_id = $1 order by name', [req.params.domainId]) : undefined,
  ]);
  res.json({
    placeholders: placeholders.rows,
    themes: themes.rows,
    embeddings: embeddings.rows.map(toEmbedding),
    ...(locales && { locales: locales.rows.map((row) => ({ name: row.name, active: row.active, ...row.texts })) }),
  });
});

app.post(`${D}/embedding`, async (req, res) => {
  const body = req.body as { name: string; purpose: string };
  const id = randomUUID();
  const now = new Date();
  await query(
    `insert into embedding (id, domain_id, name, active, purpose, vendor, script_html_code, script_loader_group,
       script_markers, iframe_markers, hide_iframes_until_consent, exclude_urls_mode, exclude_from_urls, description,
       privacy_policy_url, what_data_is_collected, purpose_of_data_collection, legal_basis, place_of_processing,
       translations, tcf_vendor, tcf_purposes, tcf_special_features, google_consent_mode, created_at, updated_at)
     values ($1, $2, $3, true, $4, '', '', '', '[]', '[]', false, '', '[]', '', '', '', '', '', '', '{}', null, '[]', '[]', '[]', $5, $5)`,
    [id, req.params.domainId, body.name, body.purpose, now],
  );
  res.status(201).json({ id, name: body.name, purpose: body.purpose, assets: [] });
});

app.put(`${D}/embedding/:embeddingId`, async (req, res) => {
  const body = req.body as { name?: string };
  const { rowCount } = await query('update embedding set name = coalesce($1, name), updated_at = now() where id = $2 and domain_id = $3', [
    body.name ?? null,
    req.params.embeddingId,
    req.params.domainId,
  ]);
  if (!rowCount) return void res.status(404).end();
  res.json({ id: req.params.embeddingId });
});

app.delete(`${D}/embedding/:embeddingId`, async (req, res) => {
  const { rowCount } = await query('delete from embedding where id = $1 and domain_id = $2', [req.params.embeddingId, req.params.domainId]);
  res.status(rowCount ? 204 : 404).end();
});

app.put(`${D}/placeholder`, async (req, res) => {
  const items = req.body as { name: string; value: string }[];
  const client = await pool.connect();
  try {
    statements += 4;
    await client.query('begin');
    await client.query('delete from placeholder where domain_id = $1', [req.params.domainId]);
    const now = new Date();
    const domain = items.length * 3 + 1;
    const values = items.map((_, i) => `($${i * 3 + 1}, $${i * 3 + 2}, $${i * 3 + 3}, $${domain}, $${domain + 1}, $${domain + 1})`);
    await client.query(
      `insert into placeholder (id, name, value, domain_id, created_at, updated_at) values ${values.join(', ')}`,
      [...items.flatMap((item) => [randomUUID(), item.name, item.value]), req.params.domainId, now],
    );
    await client.query('commit');
  } catch (error) {
    await client.query('rollback');
    throw error;
  } finally {
    client.release();
  }
  res.status(201).json(items);
});

app.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('baseline ready'));
