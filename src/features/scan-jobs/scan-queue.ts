import { hostname } from 'node:os';
import { PgBoss } from 'pg-boss';
import { SCAN_QUEUE_SCHEMA } from '../../db/migrations/Migration20261124180000_scan_jobs.ts';

/**
 * The queue that hands started scans to workers: pg-boss, in the service's own database (the
 * PostgreSQL server, or the embedded database through its socket — the same code either way).
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
  /** Stops taking jobs; lets the ones running end first (up to `timeoutMs`). */
  stop(timeoutMs?: number): Promise<void>;
};

const SCAN_QUEUE = 'scan';
/** Where a job goes when it has failed its last try. */
const GIVEN_UP_QUEUE = 'scan-given-up';

type ScanMessage = { scanJobId: string };

export const workerName = () => `${hostname()}:${process.pid}`;

export async function startScanQueue({
  url,
  onError,
  pollingIntervalSeconds = 0.5,
}: {
  url: string;
  onError: (error: unknown) => void;
  pollingIntervalSeconds?: number;
}): Promise<ScanQueue> {
  const boss = new PgBoss({
    connectionString: url,
    schema: SCAN_QUEUE_SCHEMA,
    max: 2,
    application_name: 'scan-queue',
    // Scans are started by the API or the permanent scan, never by pg-boss's own schedules.
    schedule: false,
  });
  boss.on('error', onError);
  await boss.start();
  await boss.createQueue(GIVEN_UP_QUEUE, { retryLimit: 0 });
  await boss.createQueue(SCAN_QUEUE, {
    // A worker that stops sends no more heartbeats: its job goes to another worker.
    heartbeatSeconds: 10,
    // A scan stops itself after its time limit (at most 10 minutes); past this it is lost.
    expireInSeconds: 15 * 60,
    retryLimit: 2,
    retryDelay: 5,
    retryBackoff: true,
    deadLetter: GIVEN_UP_QUEUE,
    deleteAfterSeconds: 24 * 60 * 60,
  });
  return {
    async enqueue(scanJobId) {
      await boss.send(SCAN_QUEUE, { scanJobId } satisfies ScanMessage);
    },
    async work({ concurrency, run, interrupted }) {
      await boss.work<ScanMessage>(SCAN_QUEUE, { localConcurrency: concurrency, batchSize: 1, pollingIntervalSeconds }, async ([job]) => {
        await run(job!.data.scanJobId);
      });
      await boss.work<ScanMessage>(GIVEN_UP_QUEUE, { pollingIntervalSeconds: Math.max(pollingIntervalSeconds, 2) }, async ([job]) => {
        await interrupted(job!.data.scanJobId, 'the scan was tried 3 times and no run ended (workers stopped during it, or the database failed)');
      });
    },
    async stop(timeoutMs = 30_000) {
      await boss.stop({ graceful: true, timeout: timeoutMs });
    },
  };
}

/** A queue that connects on first use (the command line, whose commands mostly never queue a scan). */
export function scanQueueOnDemand(start: () => Promise<ScanQueue>): ScanQueue {
  let started: Promise<ScanQueue> | undefined;
  const queue = () => (started ??= start());
  return {
    enqueue: async (scanJobId) => (await queue()).enqueue(scanJobId),
    work: async (options) => (await queue()).work(options),
    stop: async (timeoutMs) => {
      if (started) await (await started).stop(timeoutMs);
    },
  };
}
