import { hostname } from 'node:os';
import type { PgBoss } from 'pg-boss';
import type { JobQueue } from '../../db/job-queue.ts';

/**
 * The queue that hands started scans to workers, on the service's job queue (db/job-queue.ts).
 * Any number of API processes add to it and any number of worker processes, on any machine that
 * reaches the database, take from it; a job a stopped worker held is handed out again.
 */
export type ScanQueue = {
  /** Hands the stored scan job to a worker. */
  enqueue(scanJobId: string): Promise<void>;
  /**
   * Runs `run` for each job, `concurrency` at once, in this process. `interrupted` is called for a
   * job whose runs failed too often (workers that stopped during it, or a database that failed).
   */
  work(options: { concurrency: number; run(scanJobId: string): Promise<void>; interrupted(scanJobId: string, reason: string): Promise<void> }): Promise<void>;
};

const SCAN_QUEUE = 'scan';
/** Where a job goes when it has failed its last try: its queue's name and this (`scan-given-up`). */
const GIVEN_UP_SUFFIX = '-given-up';

type ScanMessage = { scanJobId: string };

export const workerName = () => `${hostname()}:${process.pid}`;

async function declareQueues(boss: PgBoss, name: string): Promise<void> {
  await boss.createQueue(`${name}${GIVEN_UP_SUFFIX}`, { retryLimit: 0 });
  await boss.createQueue(name, {
    // A worker that stops sends no more heartbeats: its job goes to another worker.
    heartbeatSeconds: 10,
    // A scan stops itself after its time limit (at most 10 minutes); past this it is lost.
    expireInSeconds: 15 * 60,
    retryLimit: 2,
    retryDelay: 5,
    retryBackoff: true,
    deadLetter: `${name}${GIVEN_UP_SUFFIX}`,
    deleteAfterSeconds: 24 * 60 * 60,
  });
}

/**
 * The scan queue on the job queue `jobs` gives (asked for at first use). `name`: another kind of
 * scan job kept in a table of its own (the compliance scans' `compliance-scan`), with the same
 * heartbeats, tries and dead letters; the message names the stored job's id either way.
 */
export function createScanQueue(jobs: () => Promise<JobQueue>, { pollingIntervalSeconds = 0.5, name = SCAN_QUEUE } = {}): ScanQueue {
  let ready: Promise<PgBoss> | undefined;
  const boss = () =>
    (ready ??= (async () => {
      const queue = await jobs();
      await declareQueues(queue.boss, name);
      return queue.boss;
    })());
  return {
    async enqueue(scanJobId) {
      await (await boss()).send(name, { scanJobId } satisfies ScanMessage);
    },
    async work({ concurrency, run, interrupted }) {
      const queue = await boss();
      await queue.work<ScanMessage>(name, { localConcurrency: concurrency, batchSize: 1, pollingIntervalSeconds }, async ([job]) => {
        await run(job!.data.scanJobId);
      });
      await queue.work<ScanMessage>(`${name}${GIVEN_UP_SUFFIX}`, { pollingIntervalSeconds: Math.max(pollingIntervalSeconds, 2) }, async ([job]) => {
        await interrupted(job!.data.scanJobId, 'the scan was tried 3 times and no run ended (workers stopped during it, or the database failed)');
      });
    },
  };
}
