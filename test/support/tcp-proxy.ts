import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP relay in front of the database, for fault tests: `cut()` drops every connection and
 * refuses new ones (the database "goes away"), `cutWhenSent()` does so in the middle of a
 * request, `dropWhenSent()` drops only the connection that sends a given statement,
 * `holdWhenSent()` holds a statement back while the test does something to that connection's
 * server process, `restore()` lets connections through again.
 */
export type TcpProxy = {
  port: number;
  cut(): Promise<void>;
  /** Cuts (as `cut`) the moment a client sends bytes containing `bytes`, before they arrive. */
  cutWhenSent(bytes: string | Uint8Array): Promise<void>;
  /**
   * Drops the connection (both of its sockets) whose client sends bytes containing `bytes`, before
   * they arrive; the relay goes on accepting other and new connections. Once, for the first match.
   */
  dropWhenSent(bytes: string | Uint8Array): Promise<void>;
  /**
   * Holds the bytes containing `bytes` (and whatever the client sends after them) until
   * `act(link)` is done, then passes them on. Once, for the first match. Resolves once `act` is
   * done; rejects with its error if it fails (the bytes pass on all the same).
   */
  holdWhenSent(bytes: string | Uint8Array, act: (link: Link) => Promise<void>): Promise<void>;
  /** Answers the bytes containing `bytes` with `reply` itself, in the server's place; the connection stays open. Once. */
  answerWhenSent(bytes: string | Uint8Array, reply: Buffer): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
};

/** One client connection through the relay. */
export type Link = {
  /** The server process serving it, as the server announced in its BackendKeyData message. */
  backendPid: number | undefined;
};

/** A protocol message: its type byte, then its length (counting itself) and its body. */
function message(type: string, body: Buffer): Buffer {
  const header = Buffer.alloc(5);
  header.write(type, 0);
  header.writeInt32BE(4 + body.length, 1);
  return Buffer.concat([header, body]);
}

/** An ErrorResponse message as the server sends it: severity, SQLSTATE and message. */
export const errorResponse = (severity: 'ERROR' | 'FATAL', code: string, text: string): Buffer =>
  message('E', Buffer.from(`S${severity}\0V${severity}\0C${code}\0M${text}\0\0`));

/** The bytes `pg` sends for a statement without parameters: a simple-protocol Query message. */
export const simpleQuery = (sql: string): Buffer => message('Q', Buffer.from(`${sql}\0`));

type Trigger = { bytes: Buffer; act: (link: Link, drop: () => void, reply: (bytes: Buffer) => void) => Promise<void>; fired: () => void; failed: (error: unknown) => void };

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const triggers: Trigger[] = [];
  let server: Server | undefined;
  let port = 0;

  const listen = () =>
    new Promise<void>((resolve) => {
      server = createServer((client) => {
        const upstream = connect(targetPort, targetHost);
        const link: Link = { backendPid: undefined };
        let dropped = false;
        const drop = () => {
          dropped = true;
          client.destroy();
          upstream.destroy();
        };
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
          socket.on('error', () => {});
        }

        // Server to client: relayed as it comes; the start-up answer is read for the process id.
        let startup: Buffer | undefined = Buffer.alloc(0);
        upstream.on('data', (chunk: Buffer) => {
          if (!startup) return;
          startup = Buffer.concat([startup, chunk]);
          for (let at = 0; at + 5 <= startup.length; ) {
            const length = startup.readInt32BE(at + 1);
            if (at + 1 + length > startup.length) break;
            if (startup[at] === 0x4b /* K: BackendKeyData */) link.backendPid = startup.readInt32BE(at + 5);
            // Z (ReadyForQuery) ends the start-up; E (ErrorResponse) means there will be none.
            if (startup[at] === 0x4b || startup[at] === 0x5a || startup[at] === 0x45) {
              startup = undefined;
              return;
            }
            at += 1 + length;
          }
        });
        upstream.pipe(client);

        // Client to server: in order; while a trigger's action runs, what the client sends waits.
        let held: Buffer[] | undefined;
        const forward = (chunk: Buffer) => {
          if (!upstream.write(chunk)) client.pause();
        };
        client.on('data', (chunk: Buffer) => {
          if (held) return void held.push(chunk);
          const index = triggers.findIndex((trigger) => chunk.includes(trigger.bytes));
          if (index < 0) return forward(chunk);
          const [trigger] = triggers.splice(index, 1);
          held = [chunk];
          const release = () => {
            const waiting = held!;
            held = undefined;
            if (!dropped) for (const next of answered ? waiting.slice(1) : waiting) forward(next);
          };
          // Answered in the server's place: the chunk holding the statement goes no further.
          let answered = false;
          const reply = (bytes: Buffer) => {
            answered = true;
            client.write(bytes);
          };
          // An action that fails lets the held bytes through too, and fails the test's wait with its reason.
          void trigger!.act(link, drop, reply).then(
            () => (release(), trigger!.fired()),
            (error: unknown) => (release(), trigger!.failed(error)),
          );
        });
        upstream.on('drain', () => client.resume());
        // One side gone: the other gets what was already relayed, then the end of the stream.
        client.on('close', () => upstream.end());
        upstream.on('close', () => client.end());
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

  const when = (bytes: string | Uint8Array, act: Trigger['act']) =>
    new Promise<void>((fired, failed) => triggers.push({ bytes: Buffer.from(bytes), act, fired, failed }));

  await listen();
  return {
    port,
    cut: stop,
    cutWhenSent: (bytes) => when(bytes, (_link, drop) => (drop(), stop())),
    dropWhenSent: (bytes) => when(bytes, async (_link, drop) => drop()),
    holdWhenSent: (bytes, act) => when(bytes, (link) => act(link)),
    answerWhenSent: (bytes, answer) => when(bytes, async (_link, _drop, reply) => reply(answer)),
    restore: listen,
    close: stop,
  };
}
