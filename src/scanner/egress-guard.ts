import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { EgressPolicy } from './address-policy.ts';

/**
 * A forward proxy on loopback that every request of a scan's browser context goes through
 * (navigations, redirects, subresources, WebSockets). For each connection it asks the egress
 * policy where it may go and connects to exactly that address, or refuses it, so no request
 * reaches an address the policy forbids, whatever the page or its redirects ask for.
 */

export type RefusedRequest = { host: string; reason: string; unresolvable?: boolean };

export type EgressGuard = {
  /** `http://127.0.0.1:<port>`, for the browser context's proxy setting. */
  proxyServer: string;
  /** Every connection refused so far. */
  refused: RefusedRequest[];
  close(): Promise<void>;
};

const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'te', 'trailer', 'upgrade'];

/** Marker headers on the guard's own answers, so the scanner can tell them from the site's. */
export const REFUSED_HEADER = 'x-scan-refused';
export const UNREACHABLE_HEADER = 'x-scan-unreachable';

export async function startEgressGuard(policy: EgressPolicy): Promise<EgressGuard> {
  const refused: RefusedRequest[] = [];
  const sockets = new Set<Socket>();

  const refuse = (host: string, decision: { refused: string; unresolvable?: boolean }) =>
    refused.push({ host, reason: decision.refused, ...(decision.unresolvable ? { unresolvable: true } : {}) });
  const unreachable = (res: ServerResponse, reason: string) => {
    if (res.headersSent) res.destroy();
    else res.writeHead(502, { [UNREACHABLE_HEADER]: reason.replace(/[^\x20-\x7e]/g, '?'), 'content-type': 'text/plain' }).end(reason);
  };

  // Plain HTTP: the browser sends the absolute URL; forward it to the decided address.
  const onRequest = async (req: IncomingMessage, res: ServerResponse) => {
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end();
      return;
    }
    const port = Number(target.port || 80);
    const decision = await policy(target.hostname, port);
    if ('refused' in decision) {
      refuse(target.hostname, decision);
      if (decision.unresolvable) unreachable(res, decision.refused);
      else res.writeHead(403, { [REFUSED_HEADER]: '1', 'content-type': 'text/plain' }).end(decision.refused);
      return;
    }
    const headers = { ...req.headers };
    for (const name of HOP_BY_HOP) delete headers[name];
    const upstream = httpRequest(
      { host: decision.address, port: decision.port, method: req.method, path: `${target.pathname}${target.search}`, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
        answer.pipe(res);
      },
    );
    upstream.on('error', (error) => unreachable(res, error.message));
    req.pipe(upstream);
  };

  // HTTPS and WebSockets: a CONNECT tunnel to the decided address.
  const onConnect = async (req: IncomingMessage, client: Socket, head: Buffer) => {
    const [host = '', portText = '443'] = (req.url ?? '').split(/:(?=\d+$)/);
    const decision = await policy(host, Number(portText));
    if ('refused' in decision) {
      refuse(host, decision);
      client.end(decision.unresolvable ? 'HTTP/1.1 502 Bad Gateway\r\n\r\n' : `HTTP/1.1 403 Forbidden\r\n${REFUSED_HEADER}: 1\r\n\r\n`);
      return;
    }
    const upstream = connect(decision.port, decision.address, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    upstream.on('close', () => client.destroy());
    client.on('error', () => upstream.destroy());
    client.on('close', () => upstream.destroy());
  };

  const server: Server = createServer((req, res) => void onRequest(req, res));
  server.on('connect', (req, socket, head) => void onConnect(req, socket as Socket, head));
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  return {
    proxyServer: `http://127.0.0.1:${port}`,
    refused,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
