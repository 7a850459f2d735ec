import type { MikroORM } from '@mikro-orm/postgresql';
import type { ChangeFeed } from '../../db/change-feed.ts';

/** How often the sweep looks for due rows that no round took. */
export const DUE_SWEEP_EVERY_MS = 30_000;
/** A due row this old is left behind: a live write's round takes its rows within milliseconds. */
const LEFT_BEHIND_AFTER_MS = 5_000;

/**
 * Records the revisions that writes left due and no round recorded, while the process runs, not
 * only at its next start: a round lost with its database (a crash between a write's answer and
 * the round's store, or the store's commit itself), or a process that died between a write's
 * commit and its round. Without it the banner kept publishing the revision before the write
 * until the domain's next write.
 *
 * - After the change feed resyncs (the listening connection was lost and is back: the server may
 *   have restarted), every domain with due rows is settled at once.
 * - Every `everyMs`, the domains with due rows older than LEFT_BEHIND_AFTER_MS are settled, so
 *   rounds of live writes (of this process or another) are not run twice.
 */
export function startDueSweep({
  orm,
  changes,
  settle,
  everyMs = DUE_SWEEP_EVERY_MS,
  onError,
}: {
  orm: MikroORM;
  changes: ChangeFeed | undefined;
  /** The recorder's: records the domains' due revisions, resolves when they are kept. */
  settle: (domainIds: string[]) => Promise<void>;
  everyMs?: number;
  onError: (error: unknown) => void;
}): { stop(): void } {
  let sweeping = false;
  /** Asked for while one ran: the age of due rows to sweep once it ends (what it read may be older). */
  let again: number | undefined;
  const sweep = async (olderThanMs: number) => {
    if (sweeping) {
      again = Math.min(again ?? olderThanMs, olderThanMs);
      return;
    }
    sweeping = true;
    try {
      await settle(await dueDomains(orm, olderThanMs));
    } catch (error) {
      onError(error);
    } finally {
      sweeping = false;
    }
    if (again !== undefined) {
      const next = again;
      again = undefined;
      await sweep(next);
    }
  };
  const timer = setInterval(() => void sweep(LEFT_BEHIND_AFTER_MS), everyMs).unref();
  const unsubscribe = changes?.subscribe({
    changed: () => {},
    // Also called when the connection is found lost, while the server may still be down: the
    // reconnect's resync, or the timer, records what this one could not.
    resync: () => void sweep(0),
  });
  return {
    stop() {
      clearInterval(timer);
      unsubscribe?.();
    },
  };
}

async function dueDomains(orm: MikroORM, olderThanMs: number): Promise<string[]> {
  const rows = await orm.em
    .fork()
    .execute<{ domainId: string }[]>(
      `select distinct "domain_id" as "domainId" from "revision_due" where "created_at" <= now() - make_interval(secs => ?)`,
      [olderThanMs / 1000],
    );
  return rows.map((row) => row.domainId);
}
