import { createServer as createNetServer, type Server as NetServer } from 'node:net';
import { loadSettings, type Settings, SettingsError } from '../config.ts';
import { metricsOf, openServiceDatabase } from './database.ts';
import { buildServices } from './services.ts';
import { type Database, redactDatabaseUrl } from '../db/orm.ts';
import { ensureAdminKey } from '../features/api-keys/admin-key.ts';
import { createLogger, type Logger } from '../logger.ts';
import { migrationStatus, MigrationsPending, waitForMigrations } from '../db/migration-status.ts';
import { scannerFromSettings } from '../scanner/index.ts';
import type { Scanner } from '../scanner/scan.ts';
import { buildApp } from './http-app.ts';
import type { AppServices } from '../kernel/context.ts';
import { StartupError } from '../startup-error.ts';
import { type JobQueue, startJobQueue } from '../db/job-queue.ts';
import { composeScanning, permanentScanTiming, startBackgroundWork } from './background.ts';
import { dnsEgressPolicy, type RefusalLog } from '../scanner/address-policy.ts';
import { keepProcessSmall } from './process-memory.ts';
import { startTracing } from './tracing.ts';
import { type InternalServer, startInternalServer } from '../http/internal-server.ts';
import { type DrainableServer, drainableServer } from '../http/drainable-server.ts';

/** The running service. */
export type ServiceHandle = {
  /** The HTTP server's address, e.g. `http://127.0.0.1:4000`. */
  base: string;
  /** Stops the HTTP server, the scanner's browser and the database (once; later calls wait for the first). */
  close(): Promise<void>;
};

/**
 * Starts the service: settings → database (migrated) → HTTP server; stops cleanly on SIGTERM or
 * SIGINT (and then exits the process with 0). `npm start` (src/main.ts) and `consent-config serve`
 * both run this. A failure the operator can fix (a setting, a busy port, an unreachable database)
 * is thrown as a StartupError or SettingsError, after what had started is stopped again.
 */
export async function startService(): Promise<ServiceHandle> {
  const settings = loadSettings();
  const memory = keepProcessSmall();
  const logger = createLogger(settings.logLevel, settings.logFormat);
  const logRefusal: RefusalLog = (detail) => logger.info(detail, 'refused a connection of a scan or webhook to a non-public address');
  const started = performance.now();
  // A busy port fails the start at once, before the database starts (and before an
  // administrator key is generated and printed for a start that then fails).
  await ensurePortFree(settings);
  // Before the job queue and the HTTP app, which ask whether it is on (app/tracing.ts).
  const tracing = await startTracing(settings.tracing);
  // Its browser starts with the first scan.
  const scanner = scannerFromSettings(settings.scan, logRefusal);
  const database = await openServiceDatabase({
    databaseUrl: settings.databaseUrl,
    dataDir: settings.dataDir,
    poolSize: settings.databasePoolSize,
    listenHeartbeatMs: settings.listenHeartbeatMs,
    migrate: settings.migrateOnStart,
  }).catch(async (error: unknown) => {
    await scanner.close().catch(() => {});
    throw databaseStartupError(error, settings);
  });
  await schemaAppliedElsewhere(database, settings, logger).catch(async (error: unknown) => {
    await stopAfterFailedStart(scanner, database);
    throw error;
  });
  let http: DrainableServer;
  let metricsServer: InternalServer | undefined;
  let services: AppServices | undefined;
  /** From SIGTERM on: /readyz answers 503 while requests are still served for SHUTDOWN_DELAY_MS. */
  let stoppingNow = false;
  // The job queue and the work taken from it start beside the HTTP server, not before it.
  let jobsStarting: Promise<JobQueue> | undefined;
  let backgroundStarting: Promise<{ stop(): Promise<void> }> | undefined;
  const stopBackground = async (timeoutMs: number) => {
    await (await backgroundStarting?.catch(() => undefined))?.stop();
    await (await jobsStarting?.catch(() => undefined))?.stop(timeoutMs);
  };
  try {
    const { generatedKey, retiredGeneratedKeys } = await ensureAdminKey(database.orm, settings);
    if (retiredGeneratedKeys) logger.warn('ADMIN_API_KEY is set: the administrator key generated at an earlier start no longer works');
    if (generatedKey) {
      // Printed once, on the terminal, never through the log.
      process.stderr.write(
        `\nNo ADMIN_API_KEY is set, so an administrator key was created (stored only as a hash).\n` +
          `Keep it now, it will not be shown again:\n\n  ${generatedKey}\n\n`,
      );
    }
    const metrics = await metricsOf(database);
    const jobs = (jobsStarting = startJobQueue({
      url: database.url,
      onError: (error) => logger.warn({ err: error }, 'the job queue failed (it keeps trying)'),
    }));
    jobs.then((queue) => metrics.watch({ jobs: queue }), (error: unknown) => logger.error({ err: error }, 'the job queue could not start: scans cannot be started or queued'));
    const onBackgroundWorkError = (error: unknown, what: string) => logger.warn({ err: error }, what);
    const scanning = composeScanning({
      orm: database.orm,
      scanner,
      jobs: () => jobs,
      pageLimit: settings.scan.pageLimit,
      webhookPolicy: dnsEgressPolicy({ allowPrivate: settings.scan.allowPrivateAddresses, logRefusal }),
      observeQueuedScan: metrics.scan,
      onError: onBackgroundWorkError,
    });
    metrics.watch({ webhooks: scanning.webhooks.outcomes });
    const app = buildApp({
      orm: database.orm,
      logger,
      metrics,
      services: (services = buildServices({
        orm: database.orm,
        changes: database.changes,
        onBackgroundError: (error) =>
          logger.warn({ err: error }, 'background work failed (banner-load counts, consent-record maintenance or recording a revision); it is tried again'),
        consentRetentionDays: settings.consentRetentionDays,
        trustProxy: settings.trustProxy,
        countryHeader: settings.countryHeader,
        countryDatabase: settings.countryDatabase,
        scanner,
        maxConcurrentScans: settings.scan.maxConcurrent,
        scanJobs: scanning.scanJobs,
        complianceScans: scanning.complianceScans,
        adminApiKey: settings.adminApiKey,
        publicBaseUrl: settings.publicBaseUrl,
        tcfCmp: { id: settings.tcfCmp.id, version: settings.tcfCmp.version, production: settings.environment === 'production' },
        observeScan: metrics.scan,
      })),
      options: {
        corsOrigins: settings.corsOrigins,
        rateLimitPerMinute: settings.rateLimitPerMinute,
        consentsPerMinutePerAddress: settings.consentRateLimitPerMinute,
        bannerMissesPerMinutePerAddress: settings.bannerRateLimitPerMinute,
        development: settings.environment === 'development',
        trustProxy: settings.trustProxy,
      },
      stopping: () => stoppingNow,
    });
    // The consent records' partition for this month exists before the first record can arrive.
    await services!.consents.ensure();
    // Revisions a process that stopped between a write's commit and its recording left due.
    services!.revisions
      .settleLeftovers()
      .catch((error: unknown) => logger.warn({ err: error }, 'the revisions left due at the last stop could not be recorded; the next write of their domains does'));
    // METRICS_PORT: GET /metrics without a key, on a port of its own.
    if (settings.metricsPort > 0) {
      metricsServer = await startInternalServer({ host: settings.host, port: settings.metricsPort, registry: metrics.registry }).catch((error: NodeJS.ErrnoException) => {
        throw new StartupError(`METRICS_PORT ${settings.metricsPort} cannot be listened on at ${settings.host} (${error.code ?? error.message}); set METRICS_PORT to a free port, or 0 for none`, { cause: error });
      });
    }
    http = drainableServer(app);
    await listen(http.server, settings);
    if (settings.scan.worker) {
      backgroundStarting = startBackgroundWork({
        orm: database.orm,
        scanning,
        concurrency: settings.scan.maxConcurrent,
        permanentScan: permanentScanTiming(settings.scan.permanentIntervalMinutes),
        onError: onBackgroundWorkError,
      });
      backgroundStarting.catch((error: unknown) => logger.error({ err: error }, 'the scan worker could not start: queued scans wait for another process'));
    }
  } catch (error) {
    await stopBackground(0).catch(() => {});
    await services?.banner.close().catch(() => {});
    services?.consents.close();
    services?.revisions.close();
    await metricsServer?.close();
    await stopAfterFailedStart(scanner, database);
    await tracing?.stop().catch(() => {});
    throw error;
  }
  const { server } = http;
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : settings.port;
  const base = `http://${settings.host.includes(':') ? `[${settings.host}]` : settings.host}:${port}`;
  logger.info(
    { database: database.description, startupMs: Math.round(performance.now() - started), ...(metricsServer && { metricsPort: metricsServer.port }), tracing: tracing !== undefined },
    `listening on ${base} (REST under ${base}/hosting/api, GraphQL and GraphiQL at ${base}/graphql)`,
  );
  memory.started();

  let stopping: Promise<void> | undefined;
  const stop = (fields: { signal?: string }) => {
    stopping ??= (async () => {
      stoppingNow = true;
      if (settings.shutdownDelayMs > 0) {
        // A load balancer (Kubernetes' endpoints) notices the failing readiness and stops sending
        // new requests; until then they are still answered.
        logger.info({ ...fields, delayMs: settings.shutdownDelayMs }, 'shutting down: readiness fails now, requests are served until the delay has passed');
        await new Promise((resolve) => setTimeout(resolve, settings.shutdownDelayMs));
      }
      logger.info(fields, 'shutting down');
      // Stop accepting; kept-alive connections close as soon as they are idle; requests in
      // flight finish (up to the timeout), then what still runs is cut.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      http.drain();
      const timeout = setTimeout(() => {
        logger.warn({ requests: http.inFlight() }, 'shutdown timeout: closing the connections of requests still running');
        server.closeAllConnections();
      }, settings.shutdownTimeoutMs);
      await closed;
      clearTimeout(timeout);
      await metricsServer?.close();
      // Scans running here end first (within the timeout); the queue hands the others out again.
      await stopBackground(settings.shutdownTimeoutMs);
      await scanner.close();
      await services?.banner.close();
      services?.consents.close();
      // The revisions of the last writes are kept before the database closes (a round cut off would leave them to the next start).
      services?.revisions.close();
      await services?.revisions.drain();
      await database.close();
      // The last spans go out (at most the exporter's timeout when the collector does not answer).
      await tracing?.stop().catch((error: unknown) => logger.warn({ err: error }, 'the last spans could not be sent'));
      logger.info('stopped');
      logger.flush();
    })();
    return stopping;
  };
  const onSignal = (signal: string) => {
    if (stopping) return;
    void stop({ signal }).then(() => process.exit(0));
  };
  // Kept for the whole run: a second signal while draining (a terminal's Ctrl-C reaches a
  // launcher and the service both) must not fall back to the default of dying at once.
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  process.on('SIGINT', () => onSignal('SIGINT'));

  return { base, close: () => stop({}) };
}

/**
 * With MIGRATE_ON_START=0 the schema is another process's to migrate (`consent-config migrate`, a
 * migration Job): the start waits for it, up to MIGRATION_WAIT_SECONDS, not listening meanwhile.
 * The embedded database is this process's alone, so nobody else could apply them: it fails at once.
 */
async function schemaAppliedElsewhere(database: Database, settings: Settings, logger: Logger): Promise<void> {
  if (settings.migrateOnStart) return;
  const { unknown } = await migrationStatus(database.orm);
  if (unknown.length > 0) logger.warn({ migrations: unknown }, 'the database has migrations this version does not know: a newer version applied them');
  const timeoutMs = database.embedded ? 0 : settings.migrationWaitMs;
  let lastLogged = 0;
  try {
    const waitedFor = await waitForMigrations(database.orm, {
      timeoutMs,
      onWaiting: (pending) => {
        if (Date.now() - lastLogged < 30_000) return;
        lastLogged = Date.now();
        logger.info({ pending }, `MIGRATE_ON_START=0: waiting for ${pending.length} pending migration(s) to be applied by \`consent-config migrate\``);
      },
    });
    if (waitedFor > 0) logger.info('the migrations were applied: starting');
  } catch (error) {
    if (!(error instanceof MigrationsPending)) throw error;
    const waited = database.embedded ? 'the embedded database is this process\'s alone' : `waited ${Math.round(timeoutMs / 1000)} s (MIGRATION_WAIT_SECONDS)`;
    throw new StartupError(`MIGRATE_ON_START=0 and ${error.message}; ${waited}: apply them with \`consent-config migrate\`, or set MIGRATE_ON_START=1`, {
      cause: error,
    });
  }
}

/** Whether HOST:PORT can be listened on, found by listening there for a moment (the real listen checks again). */
async function ensurePortFree(settings: Pick<Settings, 'port' | 'host'>): Promise<void> {
  if (settings.port === 0) return;
  const probe = createNetServer();
  await listen(probe, settings);
  await new Promise((resolve) => probe.close(resolve));
}

/** Listens on HOST:PORT; a port in use, a port needing privileges or a HOST not of this machine is a StartupError. */
function listen(server: NetServer, { port, host }: Pick<Settings, 'port' | 'host'>): Promise<void> {
  return new Promise((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException) => reject(listenStartupError(error, port, host));
    server.once('error', failed);
    server.listen(port, host, () => {
      server.off('error', failed);
      resolve();
    });
  });
}

function listenStartupError(error: NodeJS.ErrnoException, port: number, host: string): Error {
  switch (error.code) {
    case 'EADDRINUSE':
      return new StartupError(`PORT ${port} is already in use on ${host} (EADDRINUSE); set PORT to a free port`, { cause: error });
    case 'EACCES':
      return new StartupError(`PORT ${port} on ${host} needs privileges this process does not have (EACCES); set PORT to 1024 or above`, {
        cause: error,
      });
    case 'EADDRNOTAVAIL':
      return new StartupError(`HOST ${host} is not an address of this machine (EADDRNOTAVAIL); set HOST to one of its addresses, e.g. 127.0.0.1 or 0.0.0.0`, {
        cause: error,
      });
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new StartupError(`HOST ${host} cannot be resolved (${error.code}); set HOST to an address of this machine, e.g. 127.0.0.1 or 0.0.0.0`, {
        cause: error,
      });
    default:
      return error;
  }
}

/** Error codes of a connection that could not be made at all. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE']);

/** Error codes of a file or directory that cannot be used. */
const UNUSABLE_PATH = new Set(['EEXIST', 'ENOTDIR', 'EISDIR', 'EACCES', 'EPERM', 'EROFS', 'ENOSPC', 'ENOENT', 'ELOOP', 'ENAMETOOLONG']);

/**
 * Why the PostgreSQL server at DATABASE_URL (named without its password), or the embedded
 * database's DATA_DIR, could not be used, as a StartupError naming the setting; other errors (a
 * failed migration, say) stay as they are.
 */
function databaseStartupError(error: unknown, { databaseUrl, dataDir }: Pick<Settings, 'databaseUrl' | 'dataDir'>): unknown {
  if (!(error instanceof Error) || error instanceof StartupError) return error;
  const { code: rawCode, path } = error as { code?: unknown; path?: unknown };
  const code = typeof rawCode === 'string' ? rawCode : undefined;
  if (!databaseUrl) {
    if (!code || !UNUSABLE_PATH.has(code) || typeof path !== 'string') return error;
    return new StartupError(
      `DATA_DIR ${dataDir} cannot hold the embedded database (${code} on ${path}); set DATA_DIR to a directory this process can write, or DATABASE_URL to a PostgreSQL server`,
      { cause: error },
    );
  }
  const database = `the database at DATABASE_URL ${redactDatabaseUrl(databaseUrl)}`;
  const fail = (what: string) => new StartupError(`${database} ${what}`, { cause: error });
  if (code && UNREACHABLE.has(code)) return fail(`is not reachable (${code})`);
  // node-postgres's connectionTimeoutMillis (db/orm.ts): the server took the connection but did not answer.
  if (!code && /timeout/i.test(error.message)) return fail('did not answer in time (connection timeout)');
  if (!code && /connection terminated/i.test(error.message)) return fail(`closed the connection (${error.message})`);
  if (code && /CERT|TLS|SSL/.test(code)) return fail(`has a certificate that is not accepted (${code})`);
  if (!code && /\bSSL\b/.test(error.message)) return fail(`refused the connection: ${error.message}`);
  // SQLSTATE classes 08 (connection), 28 (authorization), 3D (no such database), 53300 (too many
  // connections), 57P03 (starting up): the server's message names no secret.
  if (code && /^(08|28|3D|53300|57P0)/.test(code)) return fail(`refused the connection: ${error.message} (${code})`);
  return error;
}

/** After a failed start: stops what had started, so the process can end (and the data directory is released). */
async function stopAfterFailedStart(scanner: Scanner, database: Database): Promise<void> {
  await scanner.close().catch(() => {});
  await database.close().catch(() => {});
}

/**
 * The one line a start-up failure the operator can fix is reported as (StartupError,
 * SettingsError): `cannot start: <reason>`. Undefined for any other error, which is unexpected.
 */
export function startFailureLine(error: unknown): string | undefined {
  if (!(error instanceof StartupError || error instanceof SettingsError)) return undefined;
  return `cannot start: ${error.message.replace(/^cannot start:\s*/i, '').replace(/\s+/g, ' ').trim()}`;
}

/**
 * What `npm start` does when the service cannot start: one line on stderr (an unexpected error
 * with its stack), exit code 1.
 */
export function exitOnStartFailure(error: unknown): never {
  const line = startFailureLine(error);
  if (line) process.stderr.write(`${line}\n`);
  else console.error('the service could not start:', error);
  process.exit(1);
}
