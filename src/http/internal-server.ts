import { createServer, type Server } from 'node:http';
import type { Registry } from 'prom-client';

/**
 * A small HTTP server on a port of its own, for what an orchestrator and Prometheus ask of a
 * process without the administrator key: `GET /metrics` always, and with `checks` also
 * `GET /healthz` (alive) and `GET /readyz` (200 when every check is `ok`, else 503, each check
 * named). The API process runs one on METRICS_PORT (metrics only: its probes are on its main
 * port); `consent-config scan-worker`, which serves no API, on SCAN_WORKER_PORT. Keep the port
 * internal: it asks for no key.
 */
export type InternalServer = { port: number; close(): Promise<void> };

export type HealthChecks = () => Promise<Record<string, string>>;

export async function startInternalServer({
  host,
  port,
  registry,
  checks,
}: {
  host: string;
  port: number;
  registry: Registry;
  checks?: HealthChecks;
}): Promise<InternalServer> {
  const served = checks ? 'GET /healthz, /readyz and /metrics' : 'GET /metrics';
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const send = (status: number, type: string, body: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', ...headers }).end(req.method === 'HEAD' ? undefined : body);
    };
    const json = (status: number, body: unknown) => send(status, 'application/json', JSON.stringify(body));
    const known = path === '/metrics' || (checks !== undefined && (path === '/healthz' || path === '/readyz'));
    if (!known) return send(404, 'text/plain', `not found: this port serves ${served} only\n`);
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'text/plain', 'only GET\n', { allow: 'GET, HEAD' });
    if (path === '/healthz') return json(200, { status: 'ok' });
    if (path === '/readyz') {
      void checks!().then(
        (results) => {
          const ready = Object.values(results).every((result) => result === 'ok');
          json(ready ? 200 : 503, { status: ready ? 'ready' : 'not ready', checks: results });
        },
        () => json(503, { status: 'not ready', checks: {} }),
      );
      return;
    }
    void registry.metrics().then(
      (text) => send(200, registry.contentType, text),
      () => send(500, 'text/plain', 'metrics could not be collected\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
