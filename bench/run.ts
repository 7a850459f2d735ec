/**
 * npm run bench — the service against its peers, side by side in one run: a hand-written baseline
 * that does the same work correctly (bench/baseline-server.ts), PostGraphile 5 on the same
 * database for GraphQL (bench/postgraphile-server.ts) and a bare node:http server for the banner.
 *
 * Creates a fresh database on the local PostgreSQL server, starts the servers a section needs,
 * seeds through the service's REST API what the section reads, drives load with autocannon from
 * a separate process (bench/load.ts) in interleaved rounds (bench/lib/measure.ts), and prints and
 * writes per scenario and server: requests/s, p50/p99 latency, the service's speed ÷ the peer's
 * (median of the rounds, with its 95 % interval and the rounds' range), SQL statements, CPU time of the server and of the
 * database per request, and peak RSS.
 *
 *   npm run bench                          every section; writes bench/RESULTS.md
 *   npm run bench -- --only graphql,writes  those sections; writes bench/RESULTS.partial.md
 *
 * Sections: reads, graphql, writes, banner, paint, consents, scans, start, memory (run in that order).
 *
 * Settings (environment):
 *   BENCH_POSTGRES          server URL (default postgres://postgres@127.0.0.1:5432/postgres)
 *   BENCH_SECONDS           seconds of load per server in each round (default 3)
 *   BENCH_ROUNDS            rounds every compared scenario runs at least (default 5)
 *   BENCH_MAX_ROUNDS        rounds it may run while its ratio's 95 % interval is wider than ±0.1
 *                           (default 50)
 *   BENCH_WARMUP_SECONDS    unmeasured load per server before the first round (default 5: a
 *                           started service still compiles its hot code for the first 10-30 s)
 *   BENCH_SOAK_SECONDS      the memory section's mixed load (default 600)
 *   BENCH_SETTLE_SECONDS    the memory section's wait after ready before idle samples (default 15)
 *   BENCH_CONSENT_RECORDS   records in the consent log (default 1,000,000)
 *   BENCH_PAINT_VISITS      visits of each page variant in the paint section (default 9)
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { type Bench, makeBench } from './lib/bench.ts';
import { measureDatabaseCpuWith, SETTINGS } from './lib/measure.ts';
import { cpuMs, ROOT } from './lib/processes.ts';
import { addTarget, printTargets, report, rows } from './lib/report.ts';
import { fmtSpread, withinSpread } from './lib/stats.ts';
import { banner } from './sections/banner.ts';
import { consents } from './sections/consents.ts';
import { graphql } from './sections/graphql.ts';
import { memory } from './sections/memory.ts';
import { paint } from './sections/paint.ts';
import { reads } from './sections/reads.ts';
import { scans } from './sections/scans.ts';
import { start } from './sections/start.ts';
import { writes } from './sections/writes.ts';

const SECTIONS: Record<string, (bench: Bench) => Promise<void>> = { reads, graphql, writes, banner, paint, consents, scans, start, memory };
/** Sections that start service processes of their own: the shared servers stop before them, so they measure alone. */
const ALONE = new Set(['start', 'memory']);

function selectedSections(argv: string[]): string[] {
  const at = argv.findIndex((arg) => arg === '--only' || arg.startsWith('--only='));
  if (at === -1) return Object.keys(SECTIONS);
  const list = argv[at]!.includes('=') ? argv[at]!.split('=')[1]! : (argv[at + 1] ?? '');
  const wanted = new Set(list.split(',').map((name) => name.trim()).filter(Boolean));
  const unknown = [...wanted].filter((name) => !(name in SECTIONS));
  if (wanted.size === 0 || unknown.length > 0) {
    throw new Error(`--only takes a comma-separated list of sections (${Object.keys(SECTIONS).join(', ')})${unknown.length ? `; unknown: ${unknown.join(', ')}` : ''}`);
  }
  return Object.keys(SECTIONS).filter((name) => wanted.has(name));
}

const METHOD = `Each compared scenario ran in rounds; in each, every server got ${SETTINGS.seconds} s of the same load
(after ${SETTINGS.warmupSeconds} s of unmeasured warm-up before the first round), the servers' order rotated from round to round
so that the shared machine's drift weighs on all alike. A server's figures are the medians of its rounds (peak RSS: the
highest); the ratio is the service's speed ÷ the peer's, the median of the per-round ratios. Shown with it: a 95 %
confidence interval of that median, free of any assumption about the rounds' distribution (the k-th lowest and k-th
highest round, k as large as keeps the confidence at 95 %; below 9 rounds that is the lowest and highest), then the
rounds' own range and their count: "0.82 (0.78–0.86; rounds 0.70–0.90, 9)". A scenario ran at least ${SETTINGS.rounds} rounds
and went on, up to ${SETTINGS.maxRounds}, until that interval lay within ±0.1 of the median for every peer; a ratio whose interval
still reaches further is marked. One-at-a-time rows send their requests one after the other; their ratio is the peer's
median time ÷ the service's. Load came from autocannon in a separate process.

Peers: **baseline** — bench/baseline-server.ts, Express 5 + pg with hand-written SQL on the service's tables; it checks the
administrator's key, validates write bodies with the service's own contract schemas, checks in each write's statement that the
domain is the client's and locks the domain row \`for no key update\` as the service's writes do (a bulk replace in a
transaction holding it); it keeps no revisions. **PostGraphile** — PostGraphile 5 (Amber preset, grafserv on node:http)
over the same database, schema public, answering the same columns (checked before the load). **bare node:http** —
bench/static-server.ts sending the banner's bytes from memory.

Statements per request count \`begin\` and \`commit\`. CPU per request: user + system time of the server process, and of
the bench database's PostgreSQL backends (from /proc). The machine is shared: compare the ratios within one run rather
than absolute figures between runs.`;

/** The CPU time of each backend connected to `database`, by pid. */
const backendsCpu = (admin: pg.Client, database: string) => async () => {
  const { rows: backends } = await admin.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1', [database]);
  return new Map(await Promise.all(backends.map(async ({ pid }) => [pid, await cpuMs(pid)] as [number, number])));
};

function spreadTarget() {
  const compared = rows.filter((row) => row.ratio && row.ratio.rounds > 1);
  if (compared.length === 0) return;
  const over = compared.filter((row) => !withinSpread(row.ratio!));
  addTarget({
    section: 'all',
    target: 'every compared scenario’s ratio known within ±0.1: the 95 % interval of its median over the rounds',
    measured: over.length === 0 ? `all ${compared.length}` : `${compared.length - over.length} of ${compared.length}; over: ${over.map((row) => `${row.scenario} ${fmtSpread(row.ratio)}`).join('; ')}`,
    met: over.length === 0,
    why:
      `these ran all ${SETTINGS.maxRounds} rounds (BENCH_MAX_ROUNDS) and their rounds still scattered: on a shared 2-core machine the server, its database and ` +
      'the load generator share the cores, and one server’s throughput under steady load can move by tens of percent from one second to the next',
  });
}

async function writeResults(started: Date, sections: string[]) {
  const run = promisify(execFile);
  const all = sections.length === Object.keys(SECTIONS).length;
  const { stdout: cpu } = await run('sh', ['-c', "nproc; grep -m1 'model name' /proc/cpuinfo | cut -d: -f2"]);
  const { stdout: version } = await run('git', ['-C', ROOT, 'log', '-1', '--format=%h %s']);
  const text = report({ when: started, machine: cpu.trim().replace('\n', ' cores,'), commit: version.trim(), sections, all, method: METHOD });
  // A partial run leaves the full run's RESULTS.md as it was.
  const file = all ? 'bench/RESULTS.md' : 'bench/RESULTS.partial.md';
  const history = all ? await readFile(join(ROOT, 'bench/HISTORY.md'), 'utf8').catch(() => '') : '';
  await writeFile(join(ROOT, file), `${text}\n${history}`);
  console.log(`\nwrote ${file}`);
}

const sections = selectedSections(process.argv.slice(2));
const SERVER = process.env.BENCH_POSTGRES ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const admin = new pg.Client({ connectionString: SERVER });
await admin.connect();
const database = `dcs_bench_${Date.now()}`;
await admin.query(`create database "${database}"`);
const databaseUrl = Object.assign(new URL(SERVER), { pathname: `/${database}` }).toString();
const workDir = await mkdtemp(join(tmpdir(), 'dcs-bench-'));
const started = new Date();
const bench = makeBench(databaseUrl, workDir);
measureDatabaseCpuWith(backendsCpu(admin, database));

try {
  console.log(`benchmark on ${database}: ${sections.join(', ')}; ${SETTINGS.rounds}–${SETTINGS.maxRounds} rounds of ${SETTINGS.seconds} s per server and scenario`);
  for (const name of sections) {
    if (ALONE.has(name)) await bench.stopServers();
    console.log(`\n── ${name}`);
    await SECTIONS[name]!(bench);
  }
  spreadTarget();
  printTargets();
  await writeResults(started, sections);
} finally {
  await bench.stopServers();
  await admin.query(`drop database if exists "${database}" with (force)`);
  await admin.end();
  await rm(workDir, { recursive: true, force: true });
}
