/**
 * Drives load at one server with autocannon, in a process of its own so the load generator does
 * not share the measured servers' event loops. Input: one JSON argument (LoadInput of
 * bench/lib/measure.ts); output: one JSON line.
 *   { url, method?, headers?, body?, connections, durationSeconds | amount, pathsFile?, sequence? }
 * With `pathsFile` (a JSON array of paths), each request takes the next path (deletes of distinct ids).
 * With `sequence`, each connection cycles through its steps in order; a step with `capture` keeps
 * the `id` of the object its answer names, and a later step's `:id` in its path stands for it
 * (an update or delete of the embedding that connection just created).
 */
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import type { LoadInput, Step } from './lib/measure.ts';

const input = JSON.parse(process.argv[2] ?? '{}') as LoadInput;

type Context = { id?: string };

function sequenceOf(steps: Step[]): autocannon.Request[] {
  return steps.map((step) => ({
    method: step.method,
    headers: step.headers,
    body: step.body,
    setupRequest: (request: autocannon.Request, context: object) => ({ ...request, path: step.path.replace(':id', (context as Context).id ?? 'none') }),
    ...(step.capture
      ? {
          onResponse: (status: number, body: string, context: object) => {
            (context as Context).id = status < 300 ? (JSON.parse(body) as { id: string }).id : undefined;
          },
        }
      : {}),
  }));
}

function pathsOf(file: string): autocannon.Request[] {
  const paths = JSON.parse(readFileSync(file, 'utf8')) as string[];
  let next = 0;
  return [{ setupRequest: (request: autocannon.Request) => ({ ...request, path: paths[next++ % paths.length]! }) }];
}

const options: autocannon.Options = {
  url: input.url,
  method: input.method ?? 'GET',
  headers: input.headers,
  body: input.body,
  connections: input.connections,
  ...(input.amount ? { amount: input.amount } : { duration: input.durationSeconds ?? 10 }),
  ...(input.sequence ? { requests: sequenceOf(input.sequence) } : input.pathsFile ? { requests: pathsOf(input.pathsFile) } : {}),
};
// autocannon ends a run on its next one-second sample: a run of a fixed amount would count whole
// seconds (1.0 s for 0.3 s of work). Its time is taken here, from the start to the last answer.
const started = performance.now();
let lastAnswer = started;
const result = await new Promise<autocannon.Result>((resolve, reject) => {
  const tracker = autocannon(options, (error, done) => (error ? reject(error) : resolve(done)));
  tracker.on('response', () => {
    lastAnswer = performance.now();
  });
});
const seconds = input.amount ? (lastAnswer - started) / 1000 : result.duration;
console.log(
  JSON.stringify({
    requests: result.requests.total,
    /** Sent, answered or not when time ran out: what the server worked on. */
    sent: result.requests.sent,
    /** Answers per second over the whole run. */
    rps: result.requests.total / seconds,
    p50: result.latency.p50,
    p99: result.latency.p99,
    mean: result.latency.average,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    durationSeconds: seconds,
  }),
);
