import { createServer, type Server } from 'node:http';
import type { Registry } from 'prom-client';

/**
 * METRICS_PORT: a port of its own on which the API process answers `GET /metrics` without a key
 * (and nothing else), for a Prometheus that should not hold the administrator key. The API's
 * /metrics on the main port still asks for that key. Keep this port internal.
 */
export type MetricsServer = { port: number; close(): Promise<void> };

export async function startMetricsServer({ host, port, registry }: { host: string; port: number; registry: Registry }): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    const send = (status: number, type: string, body: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', ...headers }).end(req.method === 'HEAD' ? undefined : body);
    };
    if ((req.url ?? '/').split('?')[0] !== '/metrics') return send(404, 'text/plain', 'not found: this port serves GET /metrics only\n');
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'text/plain', 'only GET\n', { allow: 'GET, HEAD' });
    registry.metrics().then(
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
