import { metricsOf, openServiceDatabase } from '../app/database.ts';
import { loadSettings } from '../config.ts';
import { workerName } from '../features/scan-jobs/scan-queue.ts';
import { composeScanning, permanentScanTiming, startBackgroundWork } from '../app/background.ts';
import { dnsEgressPolicy, type RefusalLog } from '../scanner/address-policy.ts';
import { startJobQueue } from '../db/job-queue.ts';
import { createLogger } from '../logger.ts';
import { scannerFromSettings } from '../scanner/index.ts';
import { CliError } from './errors.ts';
import { startInternalServer } from '../http/internal-server.ts';
import { startTracing } from '../app/tracing.ts';

export type ScanWorkerOptions = { concurrency?: number };

/**
 * `scan-worker`: runs queued scans (started with `POST …/scan` or `startScan`, or by the permanent
 * scan) in this process until SIGTERM or SIGINT, against the database the service uses. Any number
 * of them, on any machine that reaches the database, share its queue. The service migrates the
 * database; a worker never does.
 */
export async function scanWorker(options: ScanWorkerOptions): Promise<void> {
  const settings = loadSettings();
  if (!settings.databaseUrl) {
    throw new CliError('scan-worker needs DATABASE_URL: the PostgreSQL database the service runs on (on its embedded database the service runs the scans itself)', 2);
  }
  const logger = createLogger(settings.logLevel, settings.logFormat);
  const logRefusal: RefusalLog = (detail) => logger.info(detail, 'refused a connection of a scan or webhook to a non-public address');
  // Before the job queue, which asks whether it is on.
  const tracing = await startTracing(settings.tracing);
  const database = await openServiceDatabase({ databaseUrl: settings.databaseUrl, dataDir: settings.dataDir, poolSize: 2, migrate: false }).catch(
    (error: unknown) => {
      throw new CliError(`cannot reach the database: ${error instanceof Error ? error.message : String(error)}`, 1, { cause: error });
    },
  );
  let stopping = false;
  // Its scans, webhook deliveries and the job queue's depth are in it too (below).
  const metrics = await metricsOf(database);
  // Probes and scraping (SCAN_WORKER_PORT): ready while the database answers, is migrated, and the worker is not stopping.
  const health =
    settings.scanWorkerPort > 0
      ? await startInternalServer({
          host: settings.host,
          port: settings.scanWorkerPort,
          registry: metrics.registry,
          checks: async () => ({
            database: await database.orm.em
              .fork()
              .execute('select 1')
              .then(() => 'ok', () => 'not reachable'),
            migrations: await database.orm.migrator.getPending().then(
              (pending) => (pending.length === 0 ? 'ok' : `${pending.length} pending`),
              () => 'could not be checked',
            ),
            worker: stopping ? 'stopping' : 'ok',
          }),
        }).catch(async (error: unknown) => {
          await database.close();
          throw new CliError(`cannot serve health checks on SCAN_WORKER_PORT ${settings.scanWorkerPort}: ${error instanceof Error ? error.message : String(error)}`, 1, {
            cause: error,
          });
        })
      : undefined;
  const scanner = scannerFromSettings(settings.scan, logRefusal);
  const worker = workerName();
  const jobs = await startJobQueue({ url: database.url, onError: (error) => logger.warn({ err: error }, 'the job queue failed (it keeps trying)') });
  const onError = (error: unknown, what: string) => logger.warn({ err: error }, what);
  const scanning = composeScanning({
    orm: database.orm,
    scanner,
    jobs: async () => jobs,
    pageLimit: settings.scan.pageLimit,
    webhookPolicy: dnsEgressPolicy({ allowPrivate: settings.scan.allowPrivateAddresses, logRefusal }),
    observeQueuedScan: metrics.scan,
    onError,
  });
  metrics.watch({ jobs, webhooks: scanning.webhooks.outcomes });
  const concurrency = options.concurrency ?? settings.scan.maxConcurrent;
  const background = await startBackgroundWork({
    orm: database.orm,
    scanning,
    concurrency,
    permanentScan: permanentScanTiming(settings.scan.permanentIntervalMinutes),
    onError,
  });
  logger.info({ worker, concurrency, healthPort: health?.port }, 'scan worker running: taking queued scans');
  const signal = await new Promise<string>((resolve) => {
    process.once('SIGTERM', () => resolve('SIGTERM'));
    process.once('SIGINT', () => resolve('SIGINT'));
  });
  stopping = true;
  logger.info({ signal }, 'scan worker stopping: the scans running here end first');
  await background.stop();
  await jobs.stop(settings.shutdownTimeoutMs);
  await scanner.close();
  await health?.close();
  await database.close();
  await tracing?.stop().catch((error: unknown) => logger.warn({ err: error }, 'the last spans could not be sent'));
  logger.info('scan worker stopped');
  logger.flush();
}
