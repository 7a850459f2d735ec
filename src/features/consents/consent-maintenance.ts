import type { MikroORM } from '@mikro-orm/postgresql';
import { pruneRevisions } from '../revisions/revision-retention.ts';
import type { ChangeFeed } from '../../db/change-feed.ts';
import { maintainConsentPartitions } from './consent-records.ts';
import { RecordableRevisions } from './recordable-revisions.ts';

/**
 * Keeps the consent records' monthly partitions ready and their retention applied (and then the
 * configuration revisions' that no kept record names any more): once at
 * start, then every `everyMs` (an hour), and on demand when a record finds no partition for
 * its month (`ensure`, one run at a time).
 */
export type ConsentMaintenance = {
  ensure(): Promise<void>;
  close(): void;
  /** What the intake checks records against, kept for the process and read again on the domains' changes. */
  revisions: RecordableRevisions;
  /** Consent records the intake stored, for the metrics (read when they are scraped). */
  figures: { recordsStored: number };
};

export function createConsentMaintenance(
  orm: MikroORM,
  {
    retentionDays,
    everyMs = 3_600_000,
    onError = () => {},
    changes,
  }: { retentionDays: number; everyMs?: number; onError?: (error: unknown) => void; changes?: ChangeFeed },
): ConsentMaintenance {
  let running: Promise<void> | undefined;
  const ensure = () =>
    (running ??= maintainConsentPartitions(orm, { retentionDays })
      .then(() => pruneRevisions(orm, { retentionDays }))
      .then(() => undefined)
      .finally(() => (running = undefined)));
  const run = () => void ensure().catch(onError);
  run();
  const timer = setInterval(run, everyMs);
  timer.unref();
  return { ensure, close: () => clearInterval(timer), revisions: new RecordableRevisions(changes), figures: { recordsStored: 0 } };
}
