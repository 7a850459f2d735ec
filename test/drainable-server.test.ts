import { Agent, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { drainableServer } from '../src/http/drainable-server.ts';

/** A GET over `agent` (keep-alive): status, the Connection header, and whether the socket was reused. */
function get(port: number, agent: Agent, path = '/'): Promise<{ status: number; connection: string | undefined; reused: boolean }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, reused: req.reusedSocket }));
    });
    req.on('error', reject);
    req.end();
  });
}

const connectionsOf = (server: Server) => new Promise<number>((resolve) => server.getConnections((_error, count) => resolve(count ?? 0)));

describe('drainableServer', () => {
  const stops: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const stop of stops.splice(0)) await stop();
  });

  async function started(handler: Parameters<typeof drainableServer>[0]) {
    const http = drainableServer(handler);
    await new Promise<void>((resolve) => http.server.listen(0, '127.0.0.1', resolve));
    const closed = new Promise<void>((resolve) => http.server.once('close', () => resolve()));
    stops.push(async () => {
      http.server.closeAllConnections();
      http.server.close();
      await closed;
    });
    return { http, port: (http.server.address() as AddressInfo).port, closed };
  }

  it('keeps connections alive until it drains, then says Connection: close on every head that goes out, by writeHead or implicitly', async () => {
    const { http, port } = await started((req, res) => {
      if (req.url === '/implicit') {
        res.setHeader('content-type', 'text/plain');
        res.end('implicit');
      } else {
        res.writeHead(200, ['Content-Type', 'text/plain']).end('explicit');
      }
    });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    expect(await get(port, agent)).toMatchObject({ status: 200, connection: 'keep-alive' });
    expect(await get(port, agent, '/implicit')).toMatchObject({ status: 200, connection: 'keep-alive', reused: true });
    // A connection that is busy when the drain begins: its answer is the last on it.
    const busy = new Promise<void>((resolve) => setTimeout(resolve, 100));
    const { http: slow, port: slowPort } = await started(async (_req, res) => {
      await busy;
      res.writeHead(200).end('slow');
    });
    const slowAgent = new Agent({ keepAlive: true, maxSockets: 1 });
    const answer = get(slowPort, slowAgent);
    await new Promise((resolve) => setTimeout(resolve, 30));
    http.drain();
    slow.drain();
    expect(await answer).toMatchObject({ status: 200, connection: 'close' });
    expect(await connectionsOf(slow.server)).toBe(0);
    expect(await get(port, agent, '/implicit')).toMatchObject({ connection: 'close' });
    expect(await get(port, agent)).toMatchObject({ connection: 'close', reused: false });
    agent.destroy();
    slowAgent.destroy();
  });

  it('closes a kept-alive connection that went idle after the drain began, and lets close() finish', async () => {
    let release = () => {};
    const { http, port, closed } = await started((_req, res) => {
      // The head goes out before the drain; the body after it.
      res.writeHead(200, ['Content-Type', 'text/plain']);
      res.write('head ');
      release = () => res.end('body');
    });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const answer = get(port, agent);
    await new Promise((resolve) => setTimeout(resolve, 50));
    http.drain();
    http.server.close();
    release();
    // Its head said keep-alive; its connection is closed once idle all the same, so close() completes.
    expect(await answer).toMatchObject({ status: 200, connection: 'keep-alive' });
    await closed;
    expect(await connectionsOf(http.server)).toBe(0);
    agent.destroy();
  });
});
