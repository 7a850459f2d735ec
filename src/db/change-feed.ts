import pg from 'pg';

/** The channel the triggers of Migration20261123200000_banner announce changed domains on. */
export const PUBLISHED_CHANNEL = 'published_configuration';

type Listener = (domainId: string) => void;

/**
 * Which domains' published configurations changed, as the database announces them after each
 * commit, from whichever process (or command) made the change.
 *
 * Two ears, because a notification reaches only sessions that listen:
 * - every connection of the service's own pool listens. A session receives its own
 *   notifications as part of the answer to its COMMIT, so a write of this process is heard before
 *   the write's own request is answered: no reader of this process sees the old state after it.
 *   (On the embedded database, one session serves every connection: this is all it needs.)
 * - on a PostgreSQL server, one more connection does nothing but listen, so writes of other
 *   processes are heard even while this process's pool holds no connection. When it has been
 *   lost, every subscriber is told to forget everything (`resync`), since notifications sent
 *   meanwhile are gone, and it reconnects.
 */
export type ChangeFeed = {
  /** `changed(domainId)` for every announced change; `resync()` when changes may have been missed. */
  subscribe(subscriber: { changed: Listener; resync: () => void }): () => void;
};

export type ChangeFeedControl = ChangeFeed & {
  /** Makes the pool's connections listen (give it before the pool opens its first connection). */
  attachToPool(pool: pg.Pool): void;
  /** Opens the dedicated listening connection (PostgreSQL servers only). */
  listenOn(connectionString: string): Promise<void>;
  close(): Promise<void>;
};

const RECONNECT_DELAYS_MS = [100, 500, 1_000, 5_000];

export function createChangeFeed(log: (message: string) => void = () => {}): ChangeFeedControl {
  const subscribers = new Set<{ changed: Listener; resync: () => void }>();
  const announce = (message: pg.Notification) => {
    if (message.channel !== PUBLISHED_CHANNEL || !message.payload) return;
    for (const subscriber of subscribers) subscriber.changed(message.payload);
  };
  const resync = () => {
    for (const subscriber of subscribers) subscriber.resync();
  };

  let closed = false;
  let listener: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;

  async function connect(connectionString: string, attempt: number): Promise<void> {
    const client = new pg.Client({ connectionString, keepAlive: true, connectionTimeoutMillis: 5_000 });
    client.on('notification', announce);
    const lost = (error?: Error) => {
      if (listener !== client) return;
      listener = undefined;
      client.removeAllListeners('notification');
      void client.end().catch(() => {});
      if (closed) return;
      log(`the listening connection was lost${error ? ` (${error.message})` : ''}; reconnecting`);
      resync();
      schedule(connectionString, 0);
    };
    client.on('error', lost);
    client.on('end', () => lost());
    try {
      await client.connect();
      await client.query(`listen ${PUBLISHED_CHANNEL}`);
    } catch (error) {
      client.removeAllListeners();
      client.on('error', () => {});
      await client.end().catch(() => {});
      if (attempt === 0 && !closed) throw error;
      schedule(connectionString, attempt);
      return;
    }
    if (closed) return void (await client.end().catch(() => {}));
    listener = client;
    // Whatever changed while no connection listened is unknown.
    if (attempt > 0) resync();
  }

  function schedule(connectionString: string, attempt: number) {
    if (closed) return;
    const delay = RECONNECT_DELAYS_MS[Math.min(attempt, RECONNECT_DELAYS_MS.length - 1)]!;
    retry = setTimeout(() => void connect(connectionString, attempt + 1), delay);
    retry.unref();
  }

  return {
    subscribe(subscriber) {
      subscribers.add(subscriber);
      return () => void subscribers.delete(subscriber);
    },
    attachToPool(pool) {
      pool.on('connect', (client) => {
        client.on('notification', announce);
        // Queued before any query the pool hands the connection out for.
        client.query(`listen ${PUBLISHED_CHANNEL}`).catch(() => {});
      });
    },
    listenOn: (connectionString) => connect(connectionString, 0),
    async close() {
      closed = true;
      clearTimeout(retry);
      const client = listener;
      listener = undefined;
      await client?.end().catch(() => {});
    },
  };
}
