import type { Server } from 'node:http';
import { loadSettings, SettingsError } from './config.ts';
import { openDatabase } from './db/orm.ts';
import { ensureAdminKey } from './features/api-keys/admin-key.ts';
import { createKeyRing } from './features/api-keys/key-ring.ts';
import { createMetrics } from './http/metrics.ts';
import { createLogger } from './logger.ts';
import { createScanGate } from './onboarding/scan-gate.ts';
import { scannerFromSettings } from './onboarding/scanner/index.ts';
import { buildApp } from './server.ts';

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
 * both run this.
 */
export async function startService(): Promise<ServiceHandle> {
  const settings = loadSettings();
  const logger = createLogger(settings.logLevel, settings.logFormat);
  const started = performance.now();
  const database = await openDatabase({
    databaseUrl: settings.databaseUrl,
    dataDir: settings.dataDir,
    poolSize: settings.databasePoolSize,
  });
  const { generatedKey, retiredGeneratedKeys } = await ensureAdminKey(database.orm, settings);
  if (retiredGeneratedKeys) logger.warn('ADMIN_API_KEY is set: the administrator key generated at an earlier start no longer works');
  if (generatedKey) {
    // Printed once, on the terminal, never through the log.
    process.stderr.write(
      `\nNo ADMIN_API_KEY is set, so an administrator key was created (stored only as a hash).\n` +
        `Keep it now, it will not be shown again:\n\n  ${generatedKey}\n\n`,
    );
  }
  const scanner = scannerFromSettings(settings.scan);
  const pool = await database.pool();
  const metrics = createMetrics(database.statements, () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }));
  const app = buildApp({
    orm: database.orm,
    logger,
    metrics,
    services: {
      scanner,
      scanGate: createScanGate(settings.scan.maxConcurrent, metrics.scan),
      keys: createKeyRing({ orm: database.orm, adminApiKey: settings.adminApiKey }),
      publicBaseUrl: settings.publicBaseUrl,
    },
    options: {
      corsOrigins: settings.corsOrigins,
      rateLimitPerMinute: settings.rateLimitPerMinute,
      development: settings.environment === 'development',
    },
  });
  const server: Server = await new Promise((resolve, reject) => {
    const listening = app.listen(settings.port, settings.host, (error?: Error) => (error ? reject(error) : resolve(listening)));
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : settings.port;
  const base = `http://${settings.host.includes(':') ? `[${settings.host}]` : settings.host}:${port}`;
  logger.info(
    { database: database.description, startupMs: Math.round(performance.now() - started) },
    `listening on ${base} (REST under ${base}/hosting/api, GraphQL and GraphiQL at ${base}/graphql)`,
  );

  let stopping: Promise<void> | undefined;
  const stop = (fields: { signal?: string }) => {
    stopping ??= (async () => {
      logger.info(fields, 'shutting down');
      // Stop accepting; requests in flight finish (up to the timeout), then the rest goes.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const timeout = setTimeout(() => server.closeAllConnections(), settings.shutdownTimeoutMs);
      await closed;
      clearTimeout(timeout);
      await scanner.close();
      await database.close();
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

/** What `npm start` does when the service cannot start: the reason on stderr, exit code 1. */
export function exitOnStartFailure(error: unknown): never {
  if (error instanceof SettingsError) console.error(error.message);
  else console.error('the service could not start:', error);
  process.exit(1);
}
