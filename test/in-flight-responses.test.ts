import { createServer, request, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { InFlightResponses } from '../src/http/in-flight-responses.ts';

/**
 * The shutdown's view of the responses not yet closed (src/http/in-flight-responses.ts): each is
 * there from its request's arrival until it closes, whether answered or cut off, and its `closed`
 * callback runs once. test/shutdown.test.ts covers the drain built on it.
 */
describe('InFlightResponses', () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    server = undefined;
  });

  /** A server that tracks its responses and answers each only when told. */
  async function holdingServer() {
    const responses = new InFlightResponses();
    const closed: string[] = [];
    const arrived: ServerResponse[] = [];
    let announce: () => void = () => {};
    server = createServer((req, res) => {
      responses.add(res, () => closed.push(req.url!));
      arrived.push(res);
      announce();
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    /** Sends GET `path` and resolves once the server holds it; `answer` is the client's side. */
    const send = async (path: string) => {
      const held = new Promise<void>((resolve) => (announce = resolve));
      const answer = new Promise<number | 'cut'>((resolve) => {
        const outgoing = request({ port, host: '127.0.0.1', path, agent: false }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode!));
        });
        outgoing.on('error', () => resolve('cut'));
        outgoing.end();
      });
      await held;
      return { answer };
    };
    return { responses, closed, arrived, send };
  }

  it('holds each response from its arrival until it is answered, the newest first', async () => {
    const { responses, closed, arrived, send } = await holdingServer();
    const first = await send('/first');
    const second = await send('/second');
    const third = await send('/third');
    expect(responses.size).toBe(3);
    expect(responses.list()).toEqual([arrived[2], arrived[1], arrived[0]]);

    // The middle one leaves first: the others stay linked.
    arrived[1]!.end('done');
    expect(await second.answer).toBe(200);
    await until(() => closed.length === 1);
    expect(closed).toEqual(['/second']);
    expect(responses.list()).toEqual([arrived[2], arrived[0]]);

    arrived[2]!.end();
    arrived[0]!.end();
    expect([await first.answer, await third.answer]).toEqual([200, 200]);
    await until(() => closed.length === 3);
    expect(closed.sort()).toEqual(['/first', '/second', '/third']);
    expect(responses.size).toBe(0);
    expect(responses.list()).toEqual([]);
  });

  it('lets a response go when its connection is cut before the answer, once', async () => {
    const { responses, closed, arrived, send } = await holdingServer();
    const cut = await send('/cut');
    const kept = await send('/kept');
    arrived[0]!.socket!.destroy();
    expect(await cut.answer).toBe('cut');
    await until(() => closed.length === 1);
    expect(closed).toEqual(['/cut']);
    expect(responses.list()).toEqual([arrived[1]]);
    // Ending a response whose connection is gone does not run its callback again.
    arrived[0]!.end();
    arrived[1]!.end();
    expect(await kept.answer).toBe(200);
    await until(() => closed.length === 2);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(closed).toEqual(['/cut', '/kept']);
    expect(responses.size).toBe(0);
  });

  it('gives a copy: a response that closes while the copy is read leaves the copy as it was', async () => {
    const { responses, arrived, send, closed } = await holdingServer();
    const one = await send('/one');
    const two = await send('/two');
    const copy = responses.list();
    for (const res of copy) res.end();
    await Promise.all([one.answer, two.answer]);
    await until(() => closed.length === 2);
    expect(copy).toEqual([arrived[1], arrived[0]]);
    expect(responses.list()).toEqual([]);
  });
});

async function until(condition: () => boolean, timeoutMs = 2_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
