import { performance, PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Keeps the service's process small (issue 17: idle under 250 MiB on the embedded database and
 * 150 MiB on a PostgreSQL server, flat under load). V8 sizes its heap for a machine with memory to
 * spare; two settings changed from inside the process, so that every way of starting the service
 * (`npm start`, `consent-config serve`, the container) gets them without command-line flags.
 */
export function keepProcessSmall(): { started(): void } {
  boundYoungGeneration();
  return {
    started() {
      releaseStartUpMemoryWhenIdle();
    },
  };
}

/** The young generation's committed size (both semi-spaces) past which V8 no longer grows it. */
const YOUNG_GENERATION_BYTES = 16 * 1024 * 1024;

/**
 * Under a steady load V8 doubles its young generation step by step to 64 MB and more, and the old
 * generation, which fills with what each young collection promotes, grows along with it (on
 * PostgreSQL, 400–500 MB resident after 90 s of load, against 220–270 MB with this bound, for
 * about 10 % more CPU per request: more, smaller collections). Node's `--max-semi-space-size`
 * would do it but can only be given when the process starts. V8 grows the young generation by
 * `--semi-space-growth-factor` after a collection that kept much of it, and reads that factor at
 * every collection: so after each collection it is set to 1 once the young generation has reached
 * the bound, and back to 2 below it (the memory reducer shrinks it on an idle process; under load
 * again it may grow back to the bound). Measured in one run of `npm run bench -- --only reads`
 * each: single reads at 32 connections 0.76 ms of CPU per request and 295 MiB at the peak with the
 * bound, 0.69 ms and 407 MiB without.
 */
function boundYoungGeneration(): void {
  let growing = true;
  new PerformanceObserver(() => {
    const young = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
    const grow = (young?.space_size ?? 0) < YOUNG_GENERATION_BYTES;
    if (grow === growing) return;
    setFlagsFromString(grow ? '--semi-space-growth-factor=2' : '--semi-space-growth-factor=1');
    growing = grow;
  }).observe({ entryTypes: ['gc'] });
}

/** How long after the service listens its start-up garbage is given back at the earliest (the job queue and the scan worker start meanwhile). */
const RELEASE_START_UP_MEMORY_AFTER_MS = 5_000;

/** The share of a second the event loop may be busy for the process to count as idle. */
const IDLE_UTILIZATION = 0.05;

/**
 * The release below stops the process for some 100 ms when idle, and for 400 ms under load (a
 * full collection that compacts): so it waits for the first second in which the event loop was
 * idle, 5 s after listening or later. A service started into traffic gives its start-up memory
 * back when the traffic pauses (V8's own memory reducer does the same work later otherwise).
 */
function releaseStartUpMemoryWhenIdle(): void {
  const listened = performance.now();
  let before = performance.eventLoopUtilization();
  const check = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const busy = performance.eventLoopUtilization(now, before).utilization;
    before = now;
    if (performance.now() - listened < RELEASE_START_UP_MEMORY_AFTER_MS || busy > IDLE_UTILIZATION) return;
    clearInterval(check);
    releaseStartUpMemory();
  }, 1000);
  check.unref();
}

/**
 * Loading the modules, building the GraphQL schema and migrating allocate quickly: V8 grows its
 * young generation to 60 MB and more and keeps it until its memory reducer finds the process idle,
 * a minute or two later. One memory-reducing full collection (the one V8 runs under memory
 * pressure) right after the start shrinks it at once and compacts what the start left in the old
 * generation: some 100 ms, once (PostgreSQL, idle: 218 → 160 MiB resident). V8 offers that
 * collection to JavaScript only through its gc extension, switched on by `--expose-gc` for
 * contexts made after it: the function is taken from a fresh context and the flag switched off
 * again, so the service's own context never has a `gc`.
 */
function releaseStartUpMemory(): void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;
  setFlagsFromString('--no-expose-gc');
  gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}
