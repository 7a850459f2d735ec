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

/** Starts the service: settings → database (migrated) → HTTP server; stops cleanly on a signal. */
async function main() {
  const settings = loadSettings();
  const logger = createLogger(settings.logLevel);
  const started = performance.now();
  const database = await openDatabase({
    databaseUrl: settings.databaseUrl,
    dataDir: settings.dataDir,
    poolSize: settings.databasePoolSize,
  });
  const { generatedKey } = await ensureAdminKey(database.orm, settings);
  if (generatedKey) {
    // Printed once, on the terminal, never through the log.
    process.stderr.write(
      `\nNo ADMIN_API_KEY is set, so an administrator key was created (stored only as a hash).\n` +
        `Keep it now, it will not be shown again:\n\n  ${generatedKey}\n\n`,
    );
  }
  const scanner = scannerFromSettings(settings.scan);
  const app = buildApp({
    orm: database.orm,
    logger,
    metrics: createMetrics(database.statements),
    services: {
      scanner,
      scanGate: createScanGate(settings.scan.maxConcurrent),
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

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    server.close();
    server.closeIdleConnections();
    await scanner.close();
    await database.close();
    logger.info('stopped');
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}

main().catch((error: unknown) => {
  if (error instanceof SettingsError) console.error(error.message);
  else console.error('the service could not start:', error);
  process.exit(1);
});
