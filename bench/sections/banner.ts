/**
 * The banner: warm loads and revalidations of app.js against a bare node:http server sending
 * the same bytes (bench/static-server.ts), and the first load after a write, one at a time.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { type Bench } from '../lib/bench.ts';
import { compare, type Server } from '../lib/measure.ts';
import { startProcess } from '../lib/processes.ts';
import { addRow, addTarget, ratioText } from '../lib/report.ts';
import { fmt, median } from '../lib/stats.ts';

const SECTION = 'banner';
const HEADERS = ['content-type', 'cache-control', 'etag', 'vary', 'access-control-allow-origin', 'cross-origin-resource-policy', 'x-content-type-options'];

export async function banner(bench: Bench): Promise<void> {
  const service = await bench.service();
  const domain = await bench.domainOfSize(10);
  const bannerUrl = (target: Server) => `${target.base}/app.js?domain=${domain.id}&lang=de_DE`;

  const sample = await fetch(bannerUrl(service), { headers: { 'accept-encoding': 'gzip' } });
  const sampleHeaders = Object.fromEntries(HEADERS.map((name) => [name, sample.headers.get(name) ?? '']));
  // fetch unpacks the body; the bare server sends it packed, as the service does.
  const body = gzipSync(Buffer.from(await sample.arrayBuffer()), { level: 9 });
  await writeFile(join(bench.workDir, 'banner.json'), JSON.stringify({ headers: sampleHeaders, gzipBase64: body.toString('base64') }));
  const proc = await startProcess('bare node:http', 'bench/static-server.ts', { BODY_FILE: join(bench.workDir, 'banner.json') }, '/stats');
  const bare: Server = { ...proc, statements: async () => 0 };
  const servers = [service, bare];
  try {
    const [warm] = await compare(SECTION, 'banner app.js, warm (32 connections)', servers, (target) => ({
      url: bannerUrl(target),
      headers: { 'accept-encoding': 'gzip' },
      connections: 32,
    }), { note: `${body.length} bytes gzipped; the peer is bench/static-server.ts` });
    const [revalidated] = await compare(SECTION, 'banner app.js, 304 revalidation (32 connections)', servers, (target) => ({
      url: bannerUrl(target),
      headers: { 'accept-encoding': 'gzip', 'if-none-match': sampleHeaders.etag! },
      connections: 32,
      expect304: true,
    }));
    addTarget({
      section: SECTION,
      target: 'warm banner load ≥ 1.0× a bare node:http server sending the same bytes',
      measured: ratioText(warm!.ratio),
      met: warm!.ratio!.median >= 1,
      why: 'a warm load skips Express, answers synchronously and sends its headers as one list; what it does beyond the bare server is reading the query, counting the visitor once a day, recording the duration and keeping the response for the shutdown',
    });
    addTarget({
      section: SECTION,
      target: 'warm banner load p99 ≤ 10 ms at 32 connections',
      measured: `${fmt(warm!.service.p99)} ms (bare server: ${fmt(warm!.peer!.measured.p99)} ms)`,
      met: warm!.service.p99 <= 10,
      why: `with 32 loads in flight the mean latency is 32 ÷ throughput (Little's law); the bare server's own p99 here was ${fmt(warm!.peer!.measured.p99)} ms`,
    });
    addTarget({
      section: SECTION,
      target: 'no SQL statement per warm load or revalidation',
      measured: `${fmt(warm!.service.statements, 4)} / ${fmt(revalidated!.service.statements, 4)} per request (the load counts are written every 2 s, one statement for all)`,
      met: warm!.service.statements < 0.001 && revalidated!.service.statements < 0.001,
    });
  } finally {
    await bare.stop();
  }

  // The first load after a write rebuilds the banner: timed one by one, each after a write it must show.
  const times: number[] = [];
  for (let i = 0; i < 30; i++) {
    await bench.api('PUT', `${domain.path.replace('/hosting/api', '')}/placeholder/p0`, { name: 'p0', value: `v${i}` });
    const started = performance.now();
    await (await fetch(bannerUrl(service), { headers: { 'accept-encoding': 'gzip' } })).arrayBuffer();
    times.push(performance.now() - started);
  }
  const p50 = median(times);
  addRow({ section: SECTION, scenario: 'banner app.js, first load after a write (one at a time)', service: { p50, p99: Math.max(...times), statements: Number.NaN, rssMiB: Number.NaN } });
  addTarget({ section: SECTION, target: 'first banner load after a write ≤ 20 ms (p50)', measured: `${fmt(p50)} ms`, met: p50 <= 20 });
}
