import { createServer, type RequestListener, type Server } from 'node:http';
import { InFlightResponses } from './in-flight-responses.ts';

export type DrainableServer = {
  server: Server;
  /** From now on: every response says `Connection: close`, and connections close once idle. */
  drain(): void;
  /** Requests not yet answered in full. */
  inFlight(): number;
};

/** How often, while draining, connections that went idle since are closed. */
const IDLE_SWEEP_MS = 50;

/**
 * The HTTP server of `app`, made to drain on shutdown. `server.close()` alone stops accepting and
 * closes the connections idle at that moment, but a kept-alive connection busy at that moment is
 * then served request after request until the timeout cuts it. So once draining, each response
 * not yet under way says `Connection: close` (Node closes its connection after it), and each
 * connection still kept alive is closed as soon as its request is answered.
 *
 * A response answered before `app` returns (the banner's warm loads) has its head out already,
 * so it is not kept: what is left of it is sending bytes, and while draining a sweep closes
 * connections as they go idle.
 */
export function drainableServer(app: RequestListener): DrainableServer {
  const responses = new InFlightResponses();
  let draining = false;
  const server = createServer((req, res) => {
    if (draining) res.setHeader('Connection', 'close');
    app(req, res);
    if (res.writableEnded) return;
    responses.add(res, () => {
      // Its connection is idle now, unless Node already closes it (Connection: close).
      if (draining) server.closeIdleConnections();
    });
  });
  return {
    server,
    drain() {
      if (draining) return;
      draining = true;
      for (const res of responses.list()) if (!res.headersSent) res.setHeader('Connection', 'close');
      server.closeIdleConnections();
      const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
      sweep.unref();
      server.once('close', () => clearInterval(sweep));
    },
    inFlight: () => responses.size,
  };
}
