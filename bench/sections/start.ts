/**
 * Start to ready on the embedded database: first starts (new data directory, migrations) and
 * restarts, three of each, reported by their median (single starts vary a lot on this machine).
 */
import { join } from 'node:path';
import { type Bench } from '../lib/bench.ts';
import { SERVICE, startProcess } from '../lib/processes.ts';
import { addTarget } from '../lib/report.ts';
import { fmt, median } from '../lib/stats.ts';

const SECTION = 'start';

/** The service's settings on the embedded database in a data directory of its own. */
export const embeddedEnv = (bench: Bench, dataDir: string) => ({ ...bench.env, DATABASE_URL: '', DATA_DIR: join(bench.workDir, dataDir) });

export async function start(bench: Bench): Promise<void> {
  const firsts: number[] = [];
  const restarts: number[] = [];
  for (let round = 0; round < 3; round++) {
    for (const times of [firsts, restarts]) {
      const started = await startProcess('service', SERVICE, embeddedEnv(bench, `data-${round}`), '/healthz');
      await started.stop();
      times.push(started.readyMs);
    }
  }
  const spread = (values: number[]) => `${fmt(Math.min(...values) / 1000, 2)}–${fmt(Math.max(...values) / 1000, 2)} s`;
  const [first, again] = [median(firsts), median(restarts)];
  console.log(`start to ready on embedded PGlite (median of 3): first start ${fmt(first, 0)} ms, restart ${fmt(again, 0)} ms`);
  addTarget({
    section: SECTION,
    target: 'start to ready ≤ 3 s on the embedded database',
    measured: `median of 3: first start ${fmt(first / 1000, 2)} s (${spread(firsts)}), restart ${fmt(again / 1000, 2)} s (${spread(restarts)})`,
    met: first <= 3000 && again <= 3000,
    why:
      'a start loads the HTTP, GraphQL and ORM code (about 0.8 s), compiles PGlite\'s WebAssembly and opens or ' +
      'copies the database (about 1 s; a first start without the install-time template runs initdb instead, ' +
      'about 2 s more), and applies the migrations to a new database (about 0.4 s); on this shared machine these ' +
      'figures vary by a third between runs',
  });
}
