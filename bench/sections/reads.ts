/** REST reads: one embedding, and every embedding of domains of 10, 100 and 1,000. Service vs baseline. */
import { AUTH, type Bench } from '../lib/bench.ts';
import { compare } from '../lib/measure.ts';
import { addTarget, ratioText } from '../lib/report.ts';
import { fmt } from '../lib/stats.ts';

const SECTION = 'reads';

export async function reads(bench: Bench): Promise<void> {
  const servers = [await bench.service(), await bench.baseline()];
  const small = await bench.domainOfSize(10);

  const [one] = await compare(SECTION, 'REST read one embedding with assets (32 connections)', servers, (target) => ({
    url: `${target.base}${small.path}/embedding/${small.embeddingId}`,
    headers: AUTH,
    connections: 32,
  }));
  const ratio = one!.ratio!;
  addTarget({
    section: SECTION,
    target: 'REST single read ≥ 0.85× the baseline’s requests/s',
    measured: ratioText(ratio),
    met: ratio.median >= 0.85,
    why:
      'per request the service authenticates the key, counts it against the rate limit, forks a unit of work, ' +
      'records metrics and sets security headers; the baseline checks the key and does none of the rest, so the gap is what those cost',
  });
  const p99 = one!.service.p99 / one!.peer!.measured.p99;
  addTarget({
    section: SECTION,
    target: 'REST single read p99 ≤ 1.2× the baseline’s (32 connections)',
    measured: `${fmt(one!.service.p99)} ms against ${fmt(one!.peer!.measured.p99)} ms: ${fmt(p99, 2)}×`,
    met: p99 <= 1.2,
    why:
      'the tail came from garbage collection: the server kept its responses in flight in a Set, and once a full collection had run under load, ' +
      'V8’s link from each outgrown table of the Set to the next kept whole requests alive past young collections (2.5–3 MB survived each, full collections every few seconds, ' +
      'in the first second of a round most of all); src/http/in-flight-responses.ts ended that (0.3–0.5 MB survived, 0.1 KB of a request promoted against 6 KB)',
  });

  let last;
  for (const size of [10, 100, 1000]) {
    const domain = await bench.domainOfSize(size);
    [last] = await compare(SECTION, `REST read all embeddings, ${size} × 10 assets (8 connections)`, servers, (target) => ({
      url: `${target.base}${domain.path}/embedding`,
      headers: AUTH,
      connections: 8,
    }));
  }
  addTarget({
    section: SECTION,
    target: 'reading 1,000 embeddings within 1.5× the baseline’s time (p50)',
    measured: `${fmt(last!.service.p50 / last!.peer!.measured.p50, 2)}×`,
    met: last!.service.p50 <= 1.5 * last!.peer!.measured.p50,
  });
}
