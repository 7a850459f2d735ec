/**
 * Drives load at one URL with autocannon, in a process of its own so the load generator does
 * not share the measured servers' event loops. Input: one JSON argument; output: one JSON line.
 *   { url, method?, headers?, body?, connections, durationSeconds, paths? }
 * With `pathsFile` (a JSON array of paths), each request takes the next path (deletes of distinct ids).
 */
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

type Input = {
  url: string;
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  headers?: Record<string, string>;
  body?: string;
  connections: number;
  durationSeconds?: number;
  amount?: number;
  pathsFile?: string;
};

const input = JSON.parse(process.argv[2] ?? '{}') as Input & { paths?: string[] };
if (input.pathsFile) input.paths = JSON.parse(readFileSync(input.pathsFile, 'utf8')) as string[];
let next = 0;
const result = await autocannon({
  url: input.url,
  method: input.method ?? 'GET',
  headers: input.headers,
  body: input.body,
  connections: input.connections,
  ...(input.amount ? { amount: input.amount } : { duration: input.durationSeconds ?? 10 }),
  ...(input.paths
    ? { requests: [{ setupRequest: (request: autocannon.Request) => ({ ...request, path: input.paths![next++ % input.paths!.length]! }) }] }
    : {}),
});
console.log(
  JSON.stringify({
    requests: result.requests.total,
    /** Sent, answered or not when time ran out: what the server worked on. */
    sent: result.requests.sent,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    mean: result.latency.average,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    durationSeconds: result.duration,
  }),
);
