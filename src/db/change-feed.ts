import pg from 'pg';
import { SESSION_OPTIONS } from './session-options.ts';

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
 *
 * A listening connection can fall silent without closing: its backend frozen or its host gone,
 * which TCP keepalive notices only after hours. So the listener is asked `select 1` every
 * `heartbeatMs`; without an answer within `HEARTBEAT_DEADLINE_MS` (or the interval, if shorter)
 * it counts as lost: destroyed, `resync`, reconnected. A change of another process is thus heard
 * at the latest about heartbeat + deadline + a reconnect after it was made.
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
/** How often the listening connection is asked whether it still answers (LISTEN_HEARTBEAT_MS). */
export const DEFAULT_HEARTBEAT_MS = 10_000;
/** How long an answer to the heartbeat (or to the LISTEN of a new connection) is waited for. */
const HEARTBEAT_DEADLINE_MS = 5_000;

/** Names the dedicated listener in pg_stat_activity (the process id tells the instances apart). */
export const listenerApplicationName = (pid = process.pid) => `consent-config change feed ${pid}`;

class SilentListener extends Error {}

/** `work`, failed with a SilentListener when it takes longer than `ms`. */
async function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new SilentListener(`no answer to ${what} within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

export function createChangeFeed({
  log = () => {},
  heartbeatMs = DEFAULT_HEARTBEAT_MS,
}: { log?: (message: string) => void; heartbeatMs?: number } = {}): ChangeFeedControl {
  const deadlineMs = Math.min(HEARTBEAT_DEADLINE_MS, heartbeatMs);
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
  let dropListener: ((error: Error) => void) | undefined;
  let retry: NodeJS.Timeout | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  let beating = false;

  async function connect(connectionString: string, attempt: number): Promise<void> {
    const client = new pg.Client({
      connectionString,
      keepAlive: true,
      connectionTimeoutMillis: 5_000,
      options: SESSION_OPTIONS,
      application_name: listenerApplicationName(),
    });
    client.on('notification', announce);
    const lost = (error?: Error) => {
      if (listener !== client) return;
      listener = undefined;
      dropListener = undefined;
      client.removeAllListeners('notification');
      // With a query unanswered (a missed heartbeat), end() destroys the socket instead of waiting for the server.
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
      await withDeadline(client.query(`listen ${PUBLISHED_CHANNEL}`), HEARTBEAT_DEADLINE_MS, 'LISTEN');
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
    dropListener = lost;
    // Whatever changed while no connection listened is unknown.
    if (attempt > 0) resync();
  }

  function schedule(connectionString: string, attempt: number) {
    if (closed) return;
    const delay = RECONNECT_DELAYS_MS[Math.min(attempt, RECONNECT_DELAYS_MS.length - 1)]!;
    retry = setTimeout(() => void connect(connectionString, attempt + 1), delay);
    retry.unref();
  }

  /** Asks the listener for an answer; one that does not come in time drops it (see the type's comment). */
  async function beat() {
    const client = listener;
    const drop = dropListener;
    if (!client || !drop || beating) return;
    beating = true;
    try {
      await withDeadline(client.query('select 1'), deadlineMs, 'the heartbeat');
    } catch (error) {
      // A connection that failed otherwise is dropped by its own 'error' or 'end'.
      if (error instanceof SilentListener) drop(error);
    } finally {
      beating = false;
    }
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
    async listenOn(connectionString) {
      await connect(connectionString, 0);
      heartbeat ??= setInterval(() => void beat(), heartbeatMs).unref();
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      clearInterval(heartbeat);
      const client = listener;
      listener = undefined;
      await client?.end().catch(() => {});
    },
  };
}
