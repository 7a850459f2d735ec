import { openServiceDatabase } from '../app/database.ts';
import { loadSettings } from '../config.ts';
import { workerName } from '../features/scan-jobs/scan-queue.ts';
import { composeScanning, permanentScanTiming, startBackgroundWork } from '../app/background.ts';
import { dnsEgressPolicy, type RefusalLog } from '../scanner/address-policy.ts';
import { startJobQueue } from '../db/job-queue.ts';
import { createLogger } from '../logger.ts';
import { scannerFromSettings } from '../scanner/index.ts';
import { CliError } from './errors.ts';

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
  const database = await openServiceDatabase({ databaseUrl: settings.databaseUrl, dataDir: settings.dataDir, poolSize: 2, migrate: false }).catch(
    (error: unknown) => {
      throw new CliError(`cannot reach the database: ${error instanceof Error ? error.message : String(error)}`, 1, { cause: error });
    },
  );
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
    onError,
  });
  const concurrency = options.concurrency ?? settings.scan.maxConcurrent;
  const background = await startBackgroundWork({
    orm: database.orm,
    scanning,
    concurrency,
    permanentScan: permanentScanTiming(settings.scan.permanentIntervalMinutes),
    onError,
  });
  logger.info({ worker, concurrency }, 'scan worker running: taking queued scans');
  const signal = await new Promise<string>((resolve) => {
    process.once('SIGTERM', () => resolve('SIGTERM'));
    process.once('SIGINT', () => resolve('SIGINT'));
  });
  logger.info({ signal }, 'scan worker stopping: the scans running here end first');
  await background.stop();
  await jobs.stop(settings.shutdownTimeoutMs);
  await scanner.close();
  await database.close();
  logger.info('scan worker stopped');
  logger.flush();
}
