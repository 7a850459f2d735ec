/**
 * Measuring servers side by side: a load (autocannon in a process of its own, bench/load.ts) or
 * a run of one-at-a-time requests against each server in turn, in interleaved rounds, with the
 * statements, CPU time and memory each server spent.
 *
 * Rounds: in each round every server gets the same load, in an order rotated from round to round
 * (service, baseline, peer; then baseline, peer, service; …), so that the shared machine speeding
 * up or slowing down weighs on all alike. A scenario runs at least BENCH_ROUNDS rounds and goes on,
 * up to BENCH_MAX_ROUNDS, until the 95 % interval of the median ratio lies within ±0.1 of it for
 * every peer. The row shows per server the median of the rounds, and the service's speed ÷ the
 * peer's as the median of the per-round ratios with that interval and the range they spanned.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { cpuMs, NODE, type Proc, ROOT, rssMiB, sleep } from './processes.ts';
import { addRow, type Measured, type Row } from './report.ts';
import { median, quantile, spreadOf, withinSpread } from './stats.ts';

const run = promisify(execFile);

export const SETTINGS = {
  /** Seconds of load per server and round. */
  seconds: Number(process.env.BENCH_SECONDS ?? 3),
  /** Rounds every compared scenario runs at least, … */
  rounds: Math.max(1, Number(process.env.BENCH_ROUNDS ?? 5)),
  /** … and at most, while the median ratio's 95 % interval is wider than ±0.1. */
  maxRounds: Math.max(1, Number(process.env.BENCH_ROUNDS ?? 5), Number(process.env.BENCH_MAX_ROUNDS ?? 50)),
  /** Unmeasured load per server before the first round (JIT compilation, pools filling up). */
  warmupSeconds: Number(process.env.BENCH_WARMUP_SECONDS ?? 5),
};

/** A server under measurement: how to read the statements it has sent so far. */
export type Server = Proc & { statements(): Promise<number> };

/** The CPU time (ms) of each backend of the bench's database, by pid; set by run.ts. */
let databaseCpu: () => Promise<Map<number, number>> = async () => new Map();
export const measureDatabaseCpuWith = (probe: () => Promise<Map<number, number>>) => {
  databaseCpu = probe;
};

/** CPU the database's backends spent between two probes (backends that came up in between count whole). */
const databaseCpuSince = (before: Map<number, number>, after: Map<number, number>) =>
  [...after].reduce((sum, [pid, ms]) => sum + Math.max(0, ms - (before.get(pid) ?? 0)), 0);

// ── load ────────────────────────────────────────────────────────────────────

/** One step of a request sequence (see bench/load.ts). */
export type Step = { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; path: string; headers?: Record<string, string>; body?: string; capture?: true };

export type LoadInput = {
  url: string;
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  headers?: Record<string, string>;
  body?: string;
  connections: number;
  durationSeconds?: number;
  amount?: number;
  pathsFile?: string;
  sequence?: Step[];
  /** A revalidation's 304 is its success. */
  expect304?: boolean;
};

export type Load = { requests: number; sent: number; rps: number; p50: number; p99: number; mean: number; non2xx: number; errors: number; durationSeconds: number };

export async function load(input: LoadInput): Promise<Load> {
  const { stdout } = await run(NODE, [join(ROOT, 'bench/load.ts'), JSON.stringify(input)], { maxBuffer: 10_000_000 });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as Load;
}

/** Samples a process's resident memory while `work` runs; returns the peak in MiB. */
export async function peakRss<T>(pid: number, work: () => Promise<T>): Promise<[T, number]> {
  let peak = 0;
  const sample = async () => {
    peak = Math.max(peak, await rssMiB(pid));
  };
  await sample();
  const timer = setInterval(() => void sample(), 100);
  try {
    const result = await work();
    await sample();
    return [result, peak];
  } finally {
    clearInterval(timer);
  }
}

/** What a server spent while `work` ran: statements, its own CPU and the database's, per `count` requests. */
async function costOf<T>(server: Server, work: () => Promise<T>, count: (result: T) => number) {
  const before = { statements: await server.statements(), cpu: await cpuMs(server.pid), db: await databaseCpu() };
  const [result, rss] = await peakRss(server.pid, work);
  // Requests still in flight when a timed load stopped finish their statements first.
  await sleep(300);
  const after = { statements: await server.statements(), cpu: await cpuMs(server.pid), db: await databaseCpu() };
  const n = Math.max(1, count(result));
  return {
    result,
    statements: (after.statements - before.statements) / n,
    cpuMs: (after.cpu - before.cpu) / n,
    dbCpuMs: databaseCpuSince(before.db, after.db) / n,
    rssMiB: rss,
  };
}

async function measureLoad(server: Server, input: LoadInput): Promise<Measured & { requests: number; non2xxCount: number }> {
  const { result, ...cost } = await costOf(server, () => load(input), (r) => r.sent);
  const failed = input.expect304 ? 0 : result.non2xx;
  if (failed > 0 || result.errors > 0) console.warn(`  ! ${server.name}: ${failed} non-2xx, ${result.errors} errors of ${result.requests} for ${input.url}`);
  return { rps: result.rps, p50: result.p50, p99: result.p99, ...cost, requests: result.requests, non2xxCount: failed, non2xx: result.requests ? failed / result.requests : 0 };
}

// ── side by side ────────────────────────────────────────────────────────────

/** The servers of round `round`, rotated so that each takes each place in turn. */
const rotated = <T>(servers: T[], round: number) => servers.map((_, i) => servers[(i + round) % servers.length]!);

/** Per server, the medians of its rounds (peak memory: the highest; non-2xx: of all requests). */
function combine(rounds: (Measured & { requests?: number; non2xxCount?: number })[]): Measured {
  const of = (pick: (m: Measured) => number | undefined) => median(rounds.map((m) => pick(m) ?? Number.NaN));
  const requests = rounds.reduce((sum, m) => sum + (m.requests ?? 0), 0);
  return {
    rps: rounds[0]?.rps === undefined ? undefined : of((m) => m.rps),
    p50: of((m) => m.p50),
    p99: of((m) => m.p99),
    statements: of((m) => m.statements),
    cpuMs: of((m) => m.cpuMs),
    dbCpuMs: of((m) => m.dbCpuMs),
    rssMiB: Math.max(...rounds.map((m) => m.rssMiB)),
    ...(requests > 0 ? { non2xx: rounds.reduce((sum, m) => sum + (m.non2xxCount ?? 0), 0) / requests } : {}),
  };
}

/** One row per peer (servers after the first); the service's measurement is the same in each. */
function rowsOf(section: string, scenario: string, servers: Server[], measured: Measured[], ratios: number[][], note?: string): Row[] {
  if (servers.length === 1) return [addRow({ section, scenario, service: measured[0]!, ...(note ? { note } : {}) })];
  return servers.slice(1).map((peer, i) =>
    addRow({
      section,
      scenario: servers.length > 2 ? `${scenario}, vs ${peer.name}` : scenario,
      service: measured[0]!,
      peer: { name: peer.name, measured: measured[i + 1]! },
      ratio: spreadOf(ratios[i]!),
      ...(note ? { note } : {}),
    }),
  );
}

export type CompareOptions = { note?: string };

/** Per peer, the service's speed ÷ the peer's in each round so far. */
type RatiosOf = () => number[][];

/** Whether a scenario has run enough rounds: the minimum, and then the ratios' interval narrow enough (or the maximum reached). */
const enoughRounds = (round: number, ratios: RatiosOf) =>
  round >= SETTINGS.maxRounds || (round >= SETTINGS.rounds && ratios().every((perRound) => withinSpread(spreadOf(perRound))));

/**
 * The same load at every server (the service first), in rounds (see the top of this file).
 * `request(server, round)` gives the load (round -1: the warm-up's); a timed one (`durationSeconds` left out: BENCH_SECONDS) gets a warm-up first, one of a
 * fixed `amount` (deletes of distinct ids, a file of paths per round) does not.
 */
export async function compare(
  section: string,
  scenario: string,
  servers: Server[],
  request: (server: Server, round: number) => LoadInput,
  options: CompareOptions = {},
): Promise<Row[]> {
  const timed = request(servers[0]!, 0).amount === undefined;
  const withDuration = (input: LoadInput, seconds: number) => (timed ? { ...input, durationSeconds: input.durationSeconds ?? seconds } : input);
  if (timed && SETTINGS.warmupSeconds > 0) {
    for (const server of servers) await load({ ...request(server, -1), durationSeconds: SETTINGS.warmupSeconds });
  }
  const perServer: (Measured & { requests: number; non2xxCount: number })[][] = servers.map(() => []);
  const ratios = () => perServer.slice(1).map((peer) => peer.map((m, round) => perServer[0]![round]!.rps! / m.rps!));
  for (let round = 0; !enoughRounds(round, ratios); round++) {
    for (const server of rotated(servers, round)) {
      const input = withDuration(request(server, round), SETTINGS.seconds);
      perServer[servers.indexOf(server)]!.push(await measureLoad(server, input));
    }
  }
  return rowsOf(section, scenario, servers, perServer.map(combine), ratios(), options.note);
}

/**
 * One request at a time, `count` per server and round, timed one by one (writes whose cost is
 * the point). The ratio per round is the peer's median time ÷ the service's (above 1: the
 * service is faster); the row's p50 and p99 are over all rounds' requests.
 */
export async function compareOneAtATime(
  section: string,
  scenario: string,
  servers: Server[],
  send: (server: Server, round: number, i: number) => Promise<Response>,
  count: number,
  options: CompareOptions = {},
): Promise<Row[]> {
  // A few unmeasured requests first, so that no server's first round carries its cold start.
  for (const server of servers) await timeEach(2, (i) => send(server, 0, i));
  const times: number[][][] = servers.map(() => []);
  const costs: Measured[][] = servers.map(() => []);
  const ratios = () => servers.slice(1).map((_, p) => costs[p + 1]!.map((peer, round) => peer.p50 / costs[0]![round]!.p50));
  for (let round = 0; !enoughRounds(round, ratios); round++) {
    for (const server of rotated(servers, round)) {
      const { result, ...cost } = await costOf(server, () => timeEach(count, (i) => send(server, round, i)), (r) => r.length);
      const index = servers.indexOf(server);
      times[index]!.push(result);
      costs[index]!.push({ p50: median(result), p99: quantile(result, 0.99), ...cost });
    }
  }
  const measured = servers.map((_, s) => {
    const all = times[s]!.flat();
    return { ...combine(costs[s]!), p50: median(all), p99: quantile(all, 0.99) };
  });
  return rowsOf(section, scenario, servers, measured, ratios(), options.note);
}

/** Sends `count` requests one after the other; their times in ms. A failure stops the benchmark. */
export async function timeEach(count: number, send: (i: number) => Promise<Response>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const response = await send(i);
    const body = await response.text();
    if (!response.ok) throw new Error(`status ${response.status}: ${body.slice(0, 300)}`);
    times.push(performance.now() - started);
  }
  return times;
}
