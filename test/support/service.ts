import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import { type Logger, pino } from 'pino';
import { metricsOf, openServiceDatabase } from '../../src/app/database.ts';
import { buildServices } from '../../src/app/services.ts';
import type { AppServices } from '../../src/kernel/context.ts';
import type { Database } from '../../src/db/orm.ts';
import type { EgressPolicy } from '../../src/scanner/address-policy.ts';
import { createSharedBrowser } from '../../src/scanner/browser.ts';
import { createScanner, DEFAULT_SCAN_LIMITS, type Scanner } from '../../src/scanner/scan.ts';
import { buildApp } from '../../src/app/http-app.ts';
import { freshTestDatabase } from './database.ts';
import { startJobQueue } from '../../src/db/job-queue.ts';
import { composeScanning, type PermanentScanTiming, startBackgroundWork } from '../../src/app/background.ts';
import { openApiValidator } from './openapi-validator.ts';
import { compileSelections } from '../../src/graphql/selection-sql/index.ts';

export type HttpAnswer<T = any> = { status: number; headers: Headers; body: T; text: string };

export type GraphqlAnswer<T = any> = {
  status: number;
  data: T | null | undefined;
  errors: { message: string; path?: string[]; extensions?: { code?: string; errors?: { path: string; message: string }[] } }[] | undefined;
};

type RawRequest = { method: string; path: string; body?: string | Buffer; headers?: Record<string, string> };

/** Requests as one caller: the administrator by default, a client key, or no key at all. */
export type TestClient = {
  /** JSON in, JSON (or text) out. */
  rest<T = any>(method: string, path: string, body?: unknown): Promise<HttpAnswer<T>>;
  /** Any body and headers, for non-JSON and oversized requests. */
  raw(request: RawRequest): Promise<HttpAnswer>;
  graphql<T = any>(query: string, variables?: Record<string, unknown>): Promise<GraphqlAnswer<T>>;
};

/** The service, started on a loopback port against a fresh database, driven over real HTTP. */
export type TestService = TestClient & {
  baseUrl: string;
  database: Database;
  /** Its long-lived parts (the banner's load counter, …). */
  services: AppServices;
  /** The PostgreSQL database it runs on (undefined: embedded). */
  databaseUrl: string | undefined;
  /** The same requests with another API key (`null`: none). */
  as(key: string | null): TestClient;
  close(): Promise<void>;
};

/** The administrator key of test services. */
export const ADMIN_KEY = 'test-admin-key-0123456789abcdef';

/** The tests run offline: unless a suite brings fixture websites, no host resolves. */
const offline: EgressPolicy = async (host) => ({ refused: `${host} does not resolve`, unresolvable: true });

export const PUBLIC_BASE_URL = 'https://consent.example.test';

export type TestServiceOptions = {
  /** A database of the test's own (the test creates and drops it); default: a fresh one. */
  databaseUrl?: string;
  poolSize?: number;
  /** Where the service logs (default: silent, or TEST_LOG_LEVEL). */
  logger?: Logger;
  scanner?: Scanner;
  rateLimitPerMinute?: number;
  failedAuthenticationsPerMinute?: number;
  corsOrigins?: string[];
  maxConcurrentScans?: number;
  development?: boolean;
  trustProxy?: boolean | number | string;
  /** The trusted CDN header naming the visitor's country (COUNTRY_HEADER), for `enableOnlyInEu`. */
  countryHeader?: string;
  /** Consent records one address may send a minute (default: the service's 60). */
  consentsPerMinutePerAddress?: number;
  /** Script reports one address may send a minute (default: no limit to speak of). */
  scriptReportsPerMinutePerAddress?: number;
  /** Banner loads that miss the memory, per address a minute (default: no limit to speak of). */
  bannerMissesPerMinutePerAddress?: number;
  /** How often banner loads are written (default 2 s). */
  displayCountFlushMs?: number;
  /** The time the banner's load counter goes by (default Date.now). */
  displayCountClock?: () => number;
  /** Whether it runs queued scans, webhook deliveries and the permanent scan itself (default true; false: only worker processes do). */
  scanWorker?: boolean;
  /** The permanent scan's timing (default: daily, looked for every minute). */
  permanentScan?: PermanentScanTiming;
  /** Where webhook deliveries may connect (default: nowhere, the tests run offline). */
  webhookPolicy?: EgressPolicy;
  /** The address the snippet and the banner use; `self`: the test service's own (for a browser). */
  publicBaseUrl?: 'self' | string;
  /**
   * Whether GraphQL compiles a root's selection into one statement (default true, as the service
   * does); `compileSelections(service.services, on)` switches it later, between requests.
   */
  compiledSelections?: boolean;
  /** TCF_CMP_ID / TCF_CMP_VERSION, and whether the service acts as in production (NODE_ENV=production) about them. */
  tcfCmp?: { id?: number; version?: number; production?: boolean };
};

export async function startTestService(options: TestServiceOptions = {}): Promise<TestService> {
  const { databaseUrl, drop } = options.databaseUrl
    ? { databaseUrl: options.databaseUrl, drop: async () => {} }
    : await freshTestDatabase();
  const database = await openServiceDatabase({ databaseUrl, dataDir: 'memory://', poolSize: options.poolSize ?? 5 });
  const scanner = options.scanner ?? createScanner({ browser: createSharedBrowser(), policy: offline });
  const metrics = await metricsOf(database);
  const jobQueue = await startJobQueue({ url: database.url, onError: () => {} });
  const scanning = composeScanning({
    orm: database.orm,
    scanner,
    jobs: async () => jobQueue,
    pageLimit: DEFAULT_SCAN_LIMITS.pageLimit,
    webhookPolicy: options.webhookPolicy ?? offline,
    webhookRetryDelaySeconds: 1,
    onError: () => {},
  });
  // Listening first, so that the service may know its own address.
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const publicBaseUrl = options.publicBaseUrl === 'self' ? baseUrl : (options.publicBaseUrl ?? PUBLIC_BASE_URL);
  const services = buildServices({
    orm: database.orm,
    changes: database.changes,
    displayCountFlushMs: options.displayCountFlushMs,
    displayCountClock: options.displayCountClock,
    trustProxy: options.trustProxy,
    countryHeader: options.countryHeader,
    scanner,
    maxConcurrentScans: options.maxConcurrentScans ?? 2,
    scanJobs: scanning.scanJobs,
    complianceScans: scanning.complianceScans,
    adminApiKey: ADMIN_KEY,
    publicBaseUrl,
    tcfCmp: options.tcfCmp,
    observeScan: metrics.scan,
  });
  if (options.compiledSelections === false) compileSelections(services, false);
  // As the service does before it listens: this month's consent partition exists.
  await services.consents.ensure();
  const background =
    options.scanWorker === false
      ? undefined
      : await startBackgroundWork({
          orm: database.orm,
          scanning,
          concurrency: options.maxConcurrentScans ?? 2,
          permanentScan: options.permanentScan ?? { intervalMs: 24 * 3_600_000, sweepEveryMs: 60_000 },
          onError: () => {},
        });
  const app = buildApp({
    orm: database.orm,
    logger: options.logger ?? pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    metrics,
    services,
    options: {
      corsOrigins: options.corsOrigins ?? [],
      rateLimitPerMinute: options.rateLimitPerMinute ?? 1_000_000,
      failedAuthenticationsPerMinute: options.failedAuthenticationsPerMinute ?? 1_000_000,
      development: options.development ?? false,
      trustProxy: options.trustProxy,
      consentsPerMinutePerAddress: options.consentsPerMinutePerAddress ?? 1_000_000,
      bannerMissesPerMinutePerAddress: options.bannerMissesPerMinutePerAddress ?? 1_000_000,
      scriptReportsPerMinutePerAddress: options.scriptReportsPerMinutePerAddress ?? 1_000_000,
    },
  });
  server.on('request', app);
  const openApi = openApiValidator(publicBaseUrl);

  const clientFor = (key: string | null): TestClient => {
    const auth: Record<string, string> = key === null ? {} : { authorization: `Bearer ${key}` };
    const raw = async ({ method, path, body, headers }: RawRequest): Promise<HttpAnswer> => {
      const response = await fetch(`${baseUrl}${path}`, { method, body: body as BodyInit | undefined, headers: { ...auth, ...headers } });
      const text = await response.text();
      const isJson = /json/.test(response.headers.get('content-type') ?? '');
      const answer = { status: response.status, headers: response.headers, body: isJson && text ? JSON.parse(text) : text, text };
      // Every REST answer must be what the OpenAPI document says (throws otherwise).
      openApi.check({ method, path, ...answer });
      return answer;
    };
    return {
      raw,
      rest: (method, path, body) =>
        raw({
          method,
          path,
          ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
        }),
      async graphql(query, variables) {
        const answer = await raw({
          method: 'POST',
          path: '/graphql',
          body: JSON.stringify({ query, variables }),
          headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json' },
        });
        return { status: answer.status, data: answer.body.data, errors: answer.body.errors };
      },
    };
  };

  return {
    baseUrl,
    services,
    databaseUrl,
    database,
    ...clientFor(ADMIN_KEY),
    as: clientFor,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await background?.stop();
      await jobQueue.stop(5_000);
      await scanner.close();
      await services.banner.close();
      services.consents.close();
      services.revisions.close();
      await services.revisions.drain();
      await database.close();
      await drop();
    },
  };
}
