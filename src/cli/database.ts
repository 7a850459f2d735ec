import { randomUUID } from 'node:crypto';
import { openServiceDatabase } from '../app/database.ts';
import { buildServices } from '../app/services.ts';
import { loadSettings, type Settings } from '../config.ts';
import type { Database } from '../db/orm.ts';
import { createRequestContext, type RequestContext } from '../kernel/context.ts';
import { scannerFromSettings } from '../scanner/index.ts';
import { composeScanning } from '../app/background.ts';
import { jobQueueOnDemand, startJobQueue } from '../db/job-queue.ts';

/** The database the settings name, and an administrator's context for operations, for the commands that need them. */

/** Opens the database the settings name (DATABASE_URL, else embedded PGlite in DATA_DIR), runs `work`, closes it. */
export async function withDatabase<T>(
  work: (database: Database, settings: Settings) => Promise<T>,
  options: { migrate?: boolean } = {},
): Promise<T> {
  const settings = loadSettings();
  const database = await openServiceDatabase({
    databaseUrl: settings.databaseUrl,
    dataDir: settings.dataDir,
    poolSize: 1,
    migrate: options.migrate ?? true,
  });
  try {
    return await work(database, settings);
  } finally {
    await database.close();
  }
}

/**
 * The context an operation gets, as for a request made with the administrator key. Its scanner
 * launches no browser unless an operation scans; it is closed with the context.
 */
export async function withAdminContext<T>(work: (ctx: RequestContext) => Promise<T>): Promise<T> {
  return withDatabase(async (database, settings) => {
    const scanner = scannerFromSettings(settings.scan);
    const jobs = jobQueueOnDemand(() => startJobQueue({ url: database.url, onError: () => {} }));
    const { scanJobs, complianceScans } = composeScanning({ orm: database.orm, scanner, jobs: jobs.queue, pageLimit: settings.scan.pageLimit, onError: () => {} });
    const services = buildServices({
      orm: database.orm,
      changes: database.changes,
      scanner,
      maxConcurrentScans: settings.scan.maxConcurrent,
      scanJobs,
      complianceScans,
      adminApiKey: settings.adminApiKey,
      publicBaseUrl: settings.publicBaseUrl,
      tcfCmp: { id: settings.tcfCmp.id, version: settings.tcfCmp.version, production: settings.environment === 'production' },
    });
    try {
      return await work(createRequestContext(database.orm, services, { kind: 'admin', keyName: 'command line' }, `cli-${randomUUID()}`));
    } finally {
      await scanner.close();
      await jobs.stop();
      await services.banner.close();
      await services.consents.ensure().catch(() => {});
      services.consents.close();
      services.revisions.close();
      await services.revisions.drain();
    }
  });
}
