/**
 * Memory: the service's resident memory idle (a fresh process, after ready and a settle period)
 * on the embedded database and on PostgreSQL; then, on PostgreSQL, under a mixed load for
 * BENCH_SOAK_SECONDS, sampled every 2 s (the first and last minute's medians and the peak); and
 * whether a Chromium runs as the service's child while no scan runs (read from /proc), and is
 * gone again once a scan ends.
 *
 * Settings: BENCH_SETTLE_SECONDS (after ready, before idle samples; default 15),
 * BENCH_SOAK_SECONDS (default 600).
 */
import type { AddressInfo } from 'node:net';
import { AUTH, type Bench, JSON_HEADERS, type SeededDomain, seedAssets } from '../lib/bench.ts';
import { load, type Step } from '../lib/measure.ts';
import { chromiumDescendants, type Proc, rssMiB, SERVICE, sleep, startProcess, treeRssMiB } from '../lib/processes.ts';
import { addRow, addTarget } from '../lib/report.ts';
import { fmt, median } from '../lib/stats.ts';
import { startTenPageSite } from './scans.ts';
import { embeddedEnv } from './start.ts';

const SECTION = 'memory';
const SETTLE_SECONDS = Number(process.env.BENCH_SETTLE_SECONDS ?? 15);
const SOAK_SECONDS = Number(process.env.BENCH_SOAK_SECONDS ?? 600);
const SAMPLE_MS = 2000;
/** How long after a scan the browser may take to exit before the row counts it as kept. */
const BROWSER_EXIT_WAIT_MS = 10_000;

const noRequests = { p50: Number.NaN, p99: Number.NaN, statements: Number.NaN };

/** Resident memory of an idle process, and of it with its descendants: the medians of 5 samples a second apart, after settling. */
async function idle(proc: Proc) {
  await sleep(SETTLE_SECONDS * 1000);
  const own: number[] = [];
  const tree: number[] = [];
  for (let i = 0; i < 5; i++) {
    const [rss, all] = await Promise.all([rssMiB(proc.pid), treeRssMiB(proc.pid)]);
    own.push(rss);
    tree.push(all);
    await sleep(1000);
  }
  return { rss: median(own), tree: median(tree), chromium: await chromiumDescendants(proc.pid) };
}

/** The soak's requests, 6 reads to 4 writes; the embedding a connection creates it also deletes, so the domain stays as it was. */
function soakSequence(domain: SeededDomain): Step[] {
  const one: Step = { method: 'GET', path: `${domain.path}/embedding/${domain.embeddingId}`, headers: AUTH };
  const list: Step = { method: 'GET', path: `${domain.path}/embedding`, headers: AUTH };
  const graphql: Step = {
    method: 'POST',
    path: '/graphql',
    headers: JSON_HEADERS,
    body: JSON.stringify({
      query: 'query($c: ID!, $d: ID!) { domain(clientId: $c, id: $d) { name placeholders { name value } embeddings { id name assets { id name } } } }',
      variables: { c: domain.clientId, d: domain.id },
    }),
  };
  const create: Step = { method: 'POST', path: `${domain.path}/embedding`, headers: JSON_HEADERS, body: JSON.stringify({ name: 'Soak', purpose: 'cdcbd7c', assets: seedAssets(3) }), capture: true };
  const updateCreated: Step = { method: 'PUT', path: `${domain.path}/embedding/:id`, headers: JSON_HEADERS, body: JSON.stringify({ name: 'Soak, updated' }) };
  const deleteCreated: Step = { method: 'DELETE', path: `${domain.path}/embedding/:id`, headers: AUTH };
  const updateShared: Step = { method: 'PUT', path: `${domain.path}/embedding/${domain.embeddingId}`, headers: JSON_HEADERS, body: JSON.stringify({ vendor: 'Soak Ltd' }) };
  return [one, create, list, updateCreated, one, graphql, deleteCreated, one, updateShared, list];
}

/** The mixed load for SOAK_SECONDS, with the service's RSS and Chromium children sampled every 2 s. */
async function soak(bench: Bench, proc: Proc) {
  const api = bench.apiOf(proc);
  const { id: clientId } = (await api('POST', '/client', { username: 'soak', emailAddress: 'soak@example.org', password: 'bench-password' })) as { id: string };
  const domain = await bench.seedDomain(clientId, 'soak.example', 10, 10, api);
  const samples: { at: number; rss: number }[] = [];
  let chromium = 0;
  const started = performance.now();
  const timer = setInterval(() => {
    void Promise.all([rssMiB(proc.pid), chromiumDescendants(proc.pid)]).then(([rss, browsers]) => {
      samples.push({ at: (performance.now() - started) / 1000, rss });
      chromium = Math.max(chromium, browsers);
    });
  }, SAMPLE_MS);
  try {
    const result = await load({ url: proc.base, connections: 8, durationSeconds: SOAK_SECONDS, sequence: soakSequence(domain) });
    const window = Math.min(60, SOAK_SECONDS / 3);
    const first = median(samples.filter((s) => s.at <= window).map((s) => s.rss));
    const last = median(samples.filter((s) => s.at >= SOAK_SECONDS - window).map((s) => s.rss));
    const peak = Math.max(...samples.map((s) => s.rss));
    // The median of each window in turn: whether the memory kept growing or settled.
    const trail = Array.from({ length: Math.ceil(SOAK_SECONDS / window) }, (_, i) =>
      median(samples.filter((s) => s.at >= i * window && s.at < (i + 1) * window).map((s) => s.rss)),
    );
    return { result, first, last, peak, window, chromium, trail };
  } finally {
    clearInterval(timer);
  }
}

/** One scan: how many Chromium processes ran as the service's children during it, and how soon after it they were gone. */
async function browserAroundAScan(bench: Bench, proc: Proc) {
  const api = bench.apiOf(proc);
  const site = await startTenPageSite();
  try {
    const { id: clientId } = (await api('POST', '/client', { username: 'memory-scan', emailAddress: 'memory-scan@example.org', password: 'bench-password' })) as { id: string };
    const domain = (await api('POST', `/client/${clientId}/domain`, { name: `http://127.0.0.1:${(site.address() as AddressInfo).port}/` })) as { id: string };
    let during = 0;
    let scanning = true;
    const watching = (async () => {
      while (scanning) {
        during = Math.max(during, await chromiumDescendants(proc.pid));
        await sleep(250);
      }
    })();
    await api('GET', `/client/${clientId}/domain/${domain.id}/onboarding/scan`);
    scanning = false;
    await watching;
    const ended = performance.now();
    while ((await chromiumDescendants(proc.pid)) > 0 && performance.now() - ended < BROWSER_EXIT_WAIT_MS) await sleep(100);
    const left = await chromiumDescendants(proc.pid);
    return { during, left, goneAfterMs: performance.now() - ended };
  } finally {
    site.close();
  }
}

export async function memory(bench: Bench): Promise<void> {
  const embedded = await startProcess('service', SERVICE, embeddedEnv(bench, 'memory-data'), '/healthz');
  const onEmbedded = await idle(embedded).finally(() => embedded.stop());
  addRow({ section: SECTION, scenario: `idle on the embedded database (${SETTLE_SECONDS} s after ready)`, service: { ...noRequests, rssMiB: onEmbedded.rss }, note: `process tree ${fmt(onEmbedded.tree, 0)} MiB` });

  const proc = await startProcess('service', SERVICE, bench.env, '/healthz');
  try {
    const onPostgres = await idle(proc);
    addRow({ section: SECTION, scenario: `idle on PostgreSQL (${SETTLE_SECONDS} s after ready)`, service: { ...noRequests, rssMiB: onPostgres.rss }, note: `process tree ${fmt(onPostgres.tree, 0)} MiB` });
    const soaked = await soak(bench, proc);
    addRow({
      section: SECTION,
      scenario: `mixed load (6 reads : 4 writes) for ${SOAK_SECONDS} s on PostgreSQL (8 connections)`,
      service: { rps: soaked.result.rps, p50: soaked.result.p50, p99: soaked.result.p99, statements: Number.NaN, rssMiB: soaked.peak, non2xx: soaked.result.non2xx / Math.max(1, soaked.result.requests) },
      note:
        `RSS median of the first ${fmt(soaked.window, 0)} s ${fmt(soaked.first, 0)} MiB, of the last ${fmt(soaked.window, 0)} s ${fmt(soaked.last, 0)} MiB, peak ${fmt(soaked.peak, 0)} MiB; ` +
        `per ${fmt(soaked.window, 0)} s: ${soaked.trail.map((rss) => fmt(rss, 0)).join(', ')} MiB`,
    });
    const scan = await browserAroundAScan(bench, proc);
    addRow({
      section: SECTION,
      scenario: 'one scan of the 10-page site: Chromium children of the service',
      service: { ...noRequests, rssMiB: await rssMiB(proc.pid) },
      note: `${scan.during} during the scan; ${scan.left === 0 ? `none ${fmt(scan.goneAfterMs / 1000, 1)} s after it` : `${scan.left} still ${fmt(BROWSER_EXIT_WAIT_MS / 1000, 0)} s after it`}`,
    });

    addTarget({ section: SECTION, target: 'idle on the embedded database ≤ 250 MiB RSS', measured: `${fmt(onEmbedded.rss, 0)} MiB`, met: onEmbedded.rss <= 250 });
    addTarget({ section: SECTION, target: 'idle on PostgreSQL ≤ 150 MiB RSS', measured: `${fmt(onPostgres.rss, 0)} MiB`, met: onPostgres.rss <= 150 });
    addTarget({
      section: SECTION,
      target: `flat under ${SOAK_SECONDS} s of mixed load: the RSS of its last ${fmt(soaked.window, 0)} s within 10 % of its first ${fmt(soaked.window, 0)} s (medians)`,
      measured: `${fmt(soaked.first, 0)} → ${fmt(soaked.last, 0)} MiB (${fmt((soaked.last / soaked.first - 1) * 100, 1)} %), peak ${fmt(soaked.peak, 0)} MiB`,
      met: soaked.last <= soaked.first * 1.1,
    });
    addTarget({
      section: SECTION,
      target: 'the browser only while scans run: no Chromium child of the service idle or under load, none soon after a scan',
      measured: `idle ${onEmbedded.chromium} (embedded) / ${onPostgres.chromium} (PostgreSQL), under load ${soaked.chromium}, during a scan ${scan.during}, after it ${scan.left}`,
      met: onEmbedded.chromium === 0 && onPostgres.chromium === 0 && soaked.chromium === 0 && scan.left === 0,
    });
  } finally {
    await proc.stop();
  }
}
