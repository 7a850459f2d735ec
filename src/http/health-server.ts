import { createServer, type Server } from 'node:http';
import type { Registry } from 'prom-client';

/**
 * A small HTTP server for a process that serves no API (`consent-config scan-worker`), so that an
 * orchestrator can probe it and Prometheus scrape it: `GET /healthz` (alive), `GET /readyz` (200
 * when every check passes, else 503, each check named) and `GET /metrics`. It binds where it is
 * told; keep the port internal (it needs no key, like the API's metrics port).
 */
export type HealthServer = { port: number; close(): Promise<void> };

export type HealthChecks = () => Promise<Record<string, 'ok' | string>>;

export async function startHealthServer({
  host,
  port,
  checks,
  registry,
}: {
  host: string;
  port: number;
  checks: HealthChecks;
  registry: Registry;
}): Promise<HealthServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const send = (status: number, type: string, body: string) => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' }).end(req.method === 'HEAD' ? undefined : body);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'text/plain', 'only GET\n');
    if (path === '/healthz') return send(200, 'application/json', JSON.stringify({ status: 'ok' }));
    if (path === '/readyz') {
      void checks().then(
        (results) => {
          const ready = Object.values(results).every((result) => result === 'ok');
          send(ready ? 200 : 503, 'application/json', JSON.stringify({ status: ready ? 'ready' : 'not ready', checks: results }));
        },
        () => send(503, 'application/json', JSON.stringify({ status: 'not ready', checks: {} })),
      );
      return;
    }
    if (path === '/metrics') {
      void registry.metrics().then(
        (text) => send(200, registry.contentType, text),
        () => send(500, 'text/plain', 'metrics could not be collected\n'),
      );
      return;
    }
    send(404, 'text/plain', 'not found\n');
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
