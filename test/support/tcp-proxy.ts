import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP relay in front of the database, for fault tests: `cut()` drops every connection and
 * refuses new ones (the database "goes away"), `cutWhenSent()` does so in the middle of a
 * request, `restore()` lets connections through again.
 */
export type TcpProxy = {
  port: number;
  cut(): Promise<void>;
  /** Cuts (as `cut`) the moment the client sends bytes containing `text`, before they arrive. */
  cutWhenSent(text: string): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
};

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let trigger: { text: string; fired: () => void } | undefined;
  let server: Server | undefined;
  let port = 0;

  const listen = () =>
    new Promise<void>((resolve) => {
      server = createServer((client) => {
        const upstream = connect(targetPort, targetHost);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
          socket.on('error', () => {});
        }
        client.on('data', (chunk: Buffer) => {
          if (trigger && chunk.includes(trigger.text)) {
            const { fired } = trigger;
            trigger = undefined;
            void stop().then(fired);
            return;
          }
          if (!upstream.write(chunk)) client.pause();
        });
        upstream.on('drain', () => client.resume());
        upstream.pipe(client);
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
      });
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as { port: number }).port;
        resolve();
      });
    });

  const stop = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      if (!server) return resolve();
      server.close(() => resolve());
      server = undefined;
    });

  await listen();
  return {
    port,
    cut: stop,
    cutWhenSent: (text) => new Promise<void>((fired) => (trigger = { text, fired })),
    restore: listen,
    close: stop,
  };
}
