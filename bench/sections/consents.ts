/**
 * Consent records as a busy site's visitors send them (no peer: the goal is absolute), and the
 * consent log of a domain with a million records over 30 days: pages, counts and the CSV export.
 */
import pg from 'pg';
import { AUTH, type Bench } from '../lib/bench.ts';
import { compare, peakRss, type Server, timeEach } from '../lib/measure.ts';
import { addRow, addTarget } from '../lib/report.ts';
import { fmt, median, quantile } from '../lib/stats.ts';

const SECTION = 'consents';

export async function consents(bench: Bench): Promise<void> {
  const service = await bench.service();
  const domain = await bench.domainOfSize(10);
  // A record the intake takes: the revision the domain's banner shows, one of its services, a page of its site.
  const { revisions } = (await bench.api('GET', `/client/${domain.clientId}/domain/${domain.id}/revision?limit=1`)) as { revisions: { hash: string }[] };
  const consentBody = JSON.stringify({
    domain: domain.id,
    consentId: '6f1c1a5e-2b3c-4d5e-8f90-123456789abc',
    choice: 'custom',
    categories: ['necessary', 'analytics'],
    services: [domain.embeddingId],
    revision: revisions[0]!.hash,
    locale: 'de_DE',
    url: 'https://size-10.example/shop/cart',
  });
  const [records] = await compare(SECTION, 'consent records, POST /consent (32 connections)', [service], (target) => ({
    url: `${target.base}/consent`,
    method: 'POST',
    headers: { 'content-type': 'text/plain;charset=UTF-8' },
    body: consentBody,
    connections: 32,
  }));
  addTarget({
    section: SECTION,
    target: 'consent records ≥ 2,000/s with p99 ≤ 50 ms at 32 connections, each stored before it is acknowledged',
    measured: `${fmt(records!.service.rps, 0)}/s, p99 ${fmt(records!.service.p99)} ms, ${fmt(records!.service.statements, 2)} statements per record`,
    met: records!.service.rps! >= 2000 && records!.service.p99 <= 50,
    why: 'each record is its own committed INSERT (one WAL flush each); group commit of concurrent records is the next step (issue 15)',
  });
  await consentLog(bench, service);
}

/** Makes the consent_record partition of the month `from` falls in (the service makes this month's and those ahead). */
async function partitionFor(db: pg.Client, from: Date) {
  const monthStart = (year: number, month: number) => new Date(Date.UTC(year, month, 1));
  const start = monthStart(from.getUTCFullYear(), from.getUTCMonth());
  const end = monthStart(from.getUTCFullYear(), from.getUTCMonth() + 1);
  const name = `consent_record_${start.toISOString().slice(0, 7).replace('-', '_')}`;
  await db.query(`create table if not exists "${name}" partition of "consent_record" for values from ('${start.toISOString()}') to ('${end.toISOString()}')`);
}

async function consentLog(bench: Bench, service: Server) {
  const clientId = await bench.client();
  const logDomain = (await bench.api('POST', `/client/${clientId}/domain`, { name: 'busy.example' })) as { id: string };
  const logPath = `/hosting/api/client/${clientId}/domain/${logDomain.id}/consent`;
  const now = new Date();
  const from = new Date(now.getTime() - 30 * 86_400_000);
  const RECORDS = Number(process.env.BENCH_CONSENT_RECORDS ?? 1_000_000);
  const db = new pg.Client({ connectionString: bench.databaseUrl });
  await db.connect();
  try {
    await partitionFor(db, from);
    const seeding = performance.now();
    await db.query(
      `insert into "consent_record" ("domain_id", "received_at", "consent_id", "client_id", "choice", "categories", "services", "revision", "locale", "origin", "path", "address")
       select $1, $2::timestamptz + (g::float8 / $4) * ($3::timestamptz - $2::timestamptz), gen_random_uuid(), $5,
              (array['all', 'necessary', 'custom'])[1 + g % 3], '["necessary"]', '[]', repeat('a', 64), 'de_DE', 'https://busy.example', '/page-' || (g % 100), '127.0.0.0'
       from generate_series(0, $4 - 1) as g`,
      [logDomain.id, from.toISOString(), now.toISOString(), RECORDS, clientId],
    );
    await db.query(`analyze "consent_record"`);
    console.log(`  (seeded ${RECORDS.toLocaleString('en')} consent records in ${fmt((performance.now() - seeding) / 1000)} s)`);
  } finally {
    await db.end();
  }
  const get = (query: string) => () => fetch(`${service.base}${logPath}${query}`, { headers: AUTH });
  const range = `from=${from.toISOString()}&to=${now.toISOString()}`;

  const measureRow = async (scenario: string, count: number, send: () => Promise<Response>) => {
    const before = await service.statements();
    const [times, rss] = await peakRss(service.pid, () => timeEach(count, send));
    const statements = ((await service.statements()) - before) / count;
    const row = addRow({ section: SECTION, scenario, service: { p50: median(times), p99: quantile(times, 0.99), statements, rssMiB: rss } });
    return row.service;
  };
  const first = await measureRow(`consent log (${RECORDS.toLocaleString('en')} records): first page of 100`, 30, get(`?${range}&limit=100`));
  // A cursor deep into the range: the 500th page of 100 (record 50,000).
  let cursor = '';
  for (let page = 0; page < 50; page++) {
    const answer = (await (await get(`?${range}&limit=1000${cursor ? `&after=${cursor}` : ''}`)()).json()) as { nextCursor: string };
    cursor = answer.nextCursor;
  }
  const deep = await measureRow('consent log: a page of 100 after record 50,000 (cursor)', 30, get(`?${range}&limit=100&after=${cursor}`));
  const counts = await measureRow('consent log: counts per day and choice, 30 days', 5, get(`/counts?${range}`));

  const exportStarted = performance.now();
  let lines = 0;
  const before = await service.statements();
  const [bytes, exportRss] = await peakRss(service.pid, async () => {
    const answer = await get(`/export?${range}`)();
    let total = 0;
    const reader = answer.body!.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      total += read.value.length;
      for (const byte of read.value) if (byte === 10) lines++;
    }
    return total;
  });
  const exportSeconds = (performance.now() - exportStarted) / 1000;
  addRow({
    section: SECTION,
    scenario: `consent log: CSV export of all ${RECORDS.toLocaleString('en')} records (streamed)`,
    service: { p50: exportSeconds * 1000, p99: exportSeconds * 1000, statements: (await service.statements()) - before, rssMiB: exportRss },
    note: `${(lines - 1).toLocaleString('en')} rows, ${fmt(bytes / 1024 / 1024)} MiB, ${fmt((lines - 1) / exportSeconds, 0)} rows/s`,
  });
  addTarget({
    section: SECTION,
    target: 'consent log pages at flat cost: a page deep in a million records ≤ 2× the first page (p50)',
    measured: `first ${fmt(first.p50)} ms, after 50,000 records ${fmt(deep.p50)} ms`,
    met: deep.p50 <= 2 * first.p50,
  });
  addTarget({
    section: SECTION,
    target: 'CSV export of a million records streamed: the service’s peak RSS during it ≤ 100 MiB above its RSS before',
    measured: `peak ${fmt(exportRss)} MiB (before: ${fmt(first.rssMiB)} MiB), ${fmt(exportSeconds)} s`,
    met: exportRss <= 100 + first.rssMiB,
  });
  addTarget({ section: SECTION, target: 'daily counts of 30 days of a million records ≤ 2 s', measured: `p50 ${fmt(counts.p50)} ms`, met: counts.p50 <= 2000 });
}
