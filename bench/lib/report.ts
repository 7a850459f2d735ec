/** The benchmark's rows and targets, as printed while it runs and as written to RESULTS.md. */
import { fmt, fmtSpread, type Spread, withinSpread } from './stats.ts';

/** What one server did in a scenario (medians over the rounds where there were rounds). */
export type Measured = {
  rps?: number;
  p50: number;
  p99: number;
  /** SQL statements per request, `begin` and `commit` included. */
  statements: number;
  /** CPU time of the server process per request, ms. */
  cpuMs?: number;
  /** CPU time of the database's backends per request, ms. */
  dbCpuMs?: number;
  /** Peak resident memory while the scenario ran. */
  rssMiB: number;
  /** Share of answers that were not 2xx (0–1). */
  non2xx?: number;
};

export type Row = {
  section: string;
  scenario: string;
  service: Measured;
  /** The server the service is compared with in this row: the baseline, PostGraphile or a bare node:http server. */
  peer?: { name: string; measured: Measured };
  /** The service's speed ÷ the peer's, one value per round: req/s ÷ req/s, or the peer's time ÷ the service's. */
  ratio?: Spread;
  note?: string;
};

/** A target of the plan; `why` says, for one that can be missed, what stands in the way. */
export type Target = { section: string; target: string; measured: string; met: boolean; why?: string };

export const rows: Row[] = [];
export const targets: Target[] = [];

export function addRow(row: Row): Row {
  rows.push(row);
  printRow(row);
  return row;
}

export function addTarget(target: Target): void {
  targets.push(target);
}

/** "0.82× (0.78–0.86; rounds 0.70–0.90, 9)", with a note when the median's 95 % interval reaches beyond ±0.1. */
export const ratioText = (ratio: Spread | undefined) =>
  ratio ? `${fmtSpread(ratio).replace(' ', '× ')}${withinSpread(ratio) ? '' : ', interval over ±0.1'}` : '–';

const pct = (share: number | undefined) => (share === undefined ? '–' : `${fmt(share * 100, share > 0 && share < 0.01 ? 2 : 0)}%`);

function printRow(row: Row) {
  const one = (name: string, m: Measured) =>
    `${name} ${fmt(m.rps, 0).padStart(6)} req/s p50 ${fmt(m.p50).padStart(6)} ms p99 ${fmt(m.p99).padStart(6)} ms` +
    (Number.isNaN(m.statements) ? '' : ` ${fmt(m.statements, 2)} stmt/req`) +
    (m.cpuMs === undefined ? '' : ` cpu ${fmt(m.cpuMs, 2)}+${fmt(m.dbCpuMs, 2)} ms/req`) +
    (Number.isNaN(m.rssMiB) ? '' : ` rss ${fmt(m.rssMiB, 0)} MiB`) +
    (m.non2xx ? ` non-2xx ${pct(m.non2xx)}` : '');
  console.log(
    `${row.scenario.padEnd(60)} ${one('service', row.service)}` +
      (row.peer ? ` | ${one(row.peer.name, row.peer.measured)}` : '') +
      (row.ratio ? ` | ratio ${fmtSpread(row.ratio)}` : '') +
      (row.note ? ` (${row.note})` : ''),
  );
}

export function printTargets() {
  console.log('\ntargets');
  for (const t of targets) console.log(`  ${t.met ? 'met   ' : 'MISSED'} ${t.target}: ${t.measured}${t.met || !t.why ? '' : ` — ${t.why}`}`);
}

const both = (service: number | undefined, peer: number | undefined, digits: number) => `${fmt(service, digits)} / ${fmt(peer, digits)}`;

function tableOf(section: string): string {
  const lines = rows
    .filter((row) => row.section === section)
    .map((row) => {
      const s = row.service;
      const p = row.peer?.measured;
      return [
        `${row.scenario}${row.note ? `; ${row.note}` : ''}`,
        fmt(s.rps, 0),
        `${fmt(s.p50)} / ${fmt(s.p99)}`,
        row.peer?.name ?? '–',
        fmt(p?.rps, 0),
        p ? `${fmt(p.p50)} / ${fmt(p.p99)}` : '–',
        ratioText(row.ratio),
        both(s.statements, p?.statements, 2),
        both(s.cpuMs, p?.cpuMs, 2),
        both(s.dbCpuMs, p?.dbCpuMs, 2),
        both(s.rssMiB, p?.rssMiB, 0),
        `${pct(s.non2xx)} / ${pct(p?.non2xx)}`,
      ].join(' | ');
    });
  if (lines.length === 0) return '';
  return `### ${section}

| Scenario | service req/s | service p50 / p99 ms | peer | peer req/s | peer p50 / p99 ms | service ÷ peer: median (its 95 % interval; the rounds' range, their count) | SQL statements / request (service / peer) | server CPU ms / request (service / peer) | database CPU ms / request (service / peer) | peak RSS MiB (service / peer) | non-2xx (service / peer) |
|---|---|---|---|---|---|---|---|---|---|---|---|
${lines.map((line) => `| ${line} |`).join('\n')}
`;
}

function missedNotes(): string {
  const missed = targets.filter((t) => !t.met);
  if (missed.length === 0) return '';
  return `\nWhy the missed targets were missed:\n\n${missed.map((t) => `- **${t.target}** (${t.measured}): ${t.why ?? 'not analysed yet'}.`).join('\n')}\n`;
}

export type RunInfo = { when: Date; machine: string; commit: string; sections: string[]; all: boolean; method: string };

export function report({ when, machine, commit, sections, all, method }: RunInfo): string {
  return `# Benchmark results${all ? '' : ' (partial run)'}

Written by \`npm run bench${all ? '' : ` -- --only ${sections.join(',')}`}\` on ${when.toISOString()} (${machine}; commit ${commit}).
Sections in this run: ${sections.join(', ')}${all ? ' (all)' : ' — a partial run; the full run writes bench/RESULTS.md'}.

${method}

${[...new Set(rows.map((row) => row.section))].map(tableOf).join('\n')}
## Targets

| Target | Measured | |
|---|---|---|
${targets.map((t) => `| ${t.target} | ${t.measured} | ${t.met ? 'met' : '**missed**'} |`).join('\n')}
${missedNotes()}`;
}
