import type { MikroORM } from '@mikro-orm/postgresql';

/**
 * Counts banner loads per domain and client (`widgetDisplayCount`, per calendar month in UTC): in memory,
 * written every `flushEveryMs` in one statement for all clients, and once more on close. A
 * crash loses at most the loads of one interval. A batch that fails is kept and tried again
 * with the next; loads of a client deleted meanwhile are dropped.
 */
export type DisplayCounter = {
  count(clientId: string, domainId: string): void;
  /** Writes what has been counted (tests and shutdown). */
  flush(): Promise<void>;
  close(): Promise<void>;
};

const monthOf = (now: Date) => now.toISOString().slice(0, 7);

export function createDisplayCounter(
  orm: MikroORM,
  { flushEveryMs = 2_000, onError = () => {} }: { flushEveryMs?: number; onError?: (error: unknown) => void } = {},
): DisplayCounter {
  let pending = new Map<string, number>();
  let writing: Promise<void> = Promise.resolve();

  const write = async () => {
    if (pending.size === 0) return;
    const batch = pending;
    pending = new Map();
    try {
      await orm.em.fork().getConnection().execute(
        `insert into "widget_display" ("client_id", "domain_id", "month", "count")
         select x.client_id, x.domain_id, ?, x.n
         from jsonb_to_recordset(?::jsonb) as x(client_id uuid, domain_id uuid, n bigint) join "client" c on c.id = x.client_id
         on conflict ("client_id", "domain_id", "month") do update set "count" = "widget_display"."count" + excluded."count"`,
        [
          monthOf(new Date()),
          JSON.stringify([...batch].map(([key, n]) => ({ client_id: key.slice(0, key.indexOf('/')), domain_id: key.slice(key.indexOf('/') + 1), n }))),
        ],
      );
    } catch (error) {
      for (const [key, n] of batch) pending.set(key, (pending.get(key) ?? 0) + n);
      onError(error);
    }
  };
  // One write at a time, in order.
  const flush = () => (writing = writing.then(write));

  const timer = setInterval(() => void flush(), flushEveryMs);
  timer.unref();

  return {
    count(clientId, domainId) {
      const key = `${clientId}/${domainId}`;
      pending.set(key, (pending.get(key) ?? 0) + 1);
    },
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}
