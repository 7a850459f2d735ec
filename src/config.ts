import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { z } from 'zod';

/**
 * Every setting the service reads from its environment, with its default.
 * SERVICE.md §5 fixes the names; the README's configuration table mirrors this file.
 */
const settingsSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  DATA_DIR: z.string().min(1).default('./.data'),
  /** Whether the service applies pending migrations at start (0: `consent-config migrate` or a migration Job does; the service waits for it). */
  MIGRATE_ON_START: z.enum(['0', '1', 'true', 'false']).default('1'),
  /** With MIGRATE_ON_START=0: how long a start waits for migrations applied elsewhere before it fails. */
  MIGRATION_WAIT_SECONDS: z.coerce.number().int().min(0).max(86_400).default(300),
  /** Connections the service keeps to a PostgreSQL server (the embedded database always uses one). */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  /** How often the connection that hears other instances' changes is checked (see db/change-feed.ts). */
  LISTEN_HEARTBEAT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  PUBLIC_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  ADMIN_API_KEY: z.string().min(16, 'must be at least 16 characters').max(512, 'must be at most 512 characters').optional(),
  /** Browser origins allowed to call the API (admin dashboards), comma-separated; `*` for any. */
  CORS_ORIGINS: z.string().transform(refined(parseCorsOrigins)).optional(),
  /** Which proxies in front of the service to believe about the client's address (Express's `trust proxy`). */
  TRUST_PROXY: z.string().transform(refined(parseTrustProxy)).optional(),
  /** A header a CDN in front of the service sets to the visitor's country (`CF-IPCountry`, …), trusted for `enableOnlyInEu`. */
  COUNTRY_HEADER: z.string().regex(/^[A-Za-z0-9-]+$/, 'must be a header name').transform((name) => name.toLowerCase()).optional(),
  /** An MMDB country database to use instead of the shipped one (when no COUNTRY_HEADER is set). */
  COUNTRY_DATABASE: z.string().min(1).optional(),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(600),
  CONSENT_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(60),
  /** Banner loads per address a minute that miss the built banners in memory (unknown or malformed domains, first loads after a change). */
  BANNER_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(300),
  SCAN_MAX_CONCURRENT: z.coerce.number().int().min(1).max(64).default(2),
  /** Whether this process also runs queued scans (0: only worker processes do, `consent-config scan-worker`). */
  SCAN_WORKER: z.enum(['0', '1', 'true', 'false']).default('1'),
  /** How often a domain with permanentScanEnabled is scanned again, in minutes (default daily). */
  PERMANENT_SCAN_INTERVAL_MINUTES: z.coerce.number().int().min(1).max(525_600).default(1440),
  SCAN_ALLOW_PRIVATE_ADDRESSES: z.enum(['0', '1', 'true', 'false']).default('0'),
  CHROME_PATH: z.string().min(1).optional(),
  /** 0: Chromium runs without its sandbox even when the service is not root (containers that forbid user namespaces). */
  SCAN_CHROMIUM_SANDBOX: z.enum(['0', '1', 'true', 'false']).default('1'),
  SCAN_PAGE_LIMIT: z.coerce.number().int().min(1).max(100).default(10),
  SCAN_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(600_000).default(60_000),
  SCAN_NAVIGATION_TIMEOUT_MS: z.coerce.number().int().min(500).max(120_000).default(15_000),
  SCAN_GRACE_MS: z.coerce.number().int().min(0).max(30_000).default(0),
  SCAN_EXISTING_BANNER_WAIT_MS: z.coerce.number().int().min(0).max(30_000).default(6_000),
  SCAN_LOAD_TIMEOUT_MS: z.coerce.number().int().min(0).max(120_000).default(5_000),
  SCAN_PAGE_WAIT_MS: z.coerce.number().int().min(0).max(60_000).default(2_000),
  SCAN_START_PAGE_WAIT_MS: z.coerce.number().int().min(0).max(120_000).default(5_000),
  SCAN_PAGE_CONCURRENCY: z.coerce.number().int().min(1).max(8).default(5),
  LOG_FORMAT: z.enum(['auto', 'json', 'pretty']).default('auto'),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(30_000),
  /** On SIGTERM: how long the service keeps serving, with /readyz failing, before it stops accepting (a load balancer's time to notice). */
  SHUTDOWN_DELAY_MS: z.coerce.number().int().min(0).max(600_000).default(0),
  /** `consent-config scan-worker` serves /healthz, /readyz and /metrics on this port (0: none). */
  SCAN_WORKER_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  /** The API process also serves GET /metrics, without a key, on this port of HOST (0: none). */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  /** Traces go over OTLP/HTTP to `<this>/v1/traces`; unset (and no OTEL_EXPORTER_OTLP_TRACES_ENDPOINT): no tracing. */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  /** The full address traces are sent to; before OTEL_EXPORTER_OTLP_ENDPOINT. */
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  OTEL_SERVICE_NAME: z.string().min(1).max(255).default('consent-domain-config'),
  OTEL_TRACES_SAMPLER: z
    .enum(['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'])
    .default('parentbased_always_on'),
  /** The ratio of the `traceidratio` samplers, 0 to 1. */
  OTEL_TRACES_SAMPLER_ARG: z.coerce.number().min(0).max(1).optional(),
  /** How long spans are gathered before they are sent, in milliseconds. */
  OTEL_BSP_SCHEDULE_DELAY: z.coerce.number().int().min(0).max(600_000).default(5_000),
  CONSENT_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(395),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  /** The CMP id IAB Europe registered (2..4095); unset outside production: 4095, a development placeholder. */
  TCF_CMP_ID: z.coerce.number().int().min(2, 'must be at least 2 (IAB CMP ids 0 and 1 are not valid)').max(4095).optional(),
  TCF_CMP_VERSION: z.coerce.number().int().min(1).max(4095).default(1),
});

export type Settings = {
  port: number;
  host: string;
  /** Unset: the service starts an embedded PGlite database. */
  databaseUrl: string | undefined;
  dataDir: string;
  databasePoolSize: number;
  /** Whether a start applies pending migrations; false: it waits up to `migrationWaitMs` for them to be applied elsewhere. */
  migrateOnStart: boolean;
  migrationWaitMs: number;
  /** How often the dedicated listening connection must answer, or is replaced (PostgreSQL servers). */
  listenHeartbeatMs: number;
  publicBaseUrl: string;
  /** Unset: generated at first start outside production, and printed once. */
  adminApiKey: string | undefined;
  /** Origins allowed by CORS (as browsers send them); empty: no cross-origin access; ['*']: any. */
  corsOrigins: string[];
  /**
   * Express's `trust proxy`: false (the default: the address the connection comes from), true
   * (every proxy), a number of proxies (hops), or a comma-separated list of addresses, CIDR ranges
   * and the names `loopback`, `linklocal`, `uniquelocal`.
   */
  trustProxy: boolean | number | string;
  /** The trusted CDN header naming the visitor's country (lower case); unset: the address decides, by `countryDatabase`. */
  countryHeader: string | undefined;
  /** Path of an MMDB country database; unset: the shipped one. */
  countryDatabase: string | undefined;
  rateLimitPerMinute: number;
  /** Consent records one visitor address may send a minute. */
  consentRateLimitPerMinute: number;
  /** Banner loads that miss the memory, per address a minute. */
  bannerRateLimitPerMinute: number;
  scan: {
    /** Tests and local development only: lets scans reach loopback and private addresses. */
    allowPrivateAddresses: boolean;
    chromePath: string | undefined;
    /** Whether Chromium keeps its sandbox when the service is not root (as root it cannot). */
    chromiumSandbox: boolean;
    pageLimit: number;
    totalTimeoutMs: number;
    navigationTimeoutMs: number;
    /** Extra wait after a scan's last page before its cookies and storage are read. */
    graceMs: number;
    existingBannerWaitMs: number;
    /** How long a page's `load` is waited for after its document arrived; then it is read as it is (`slow`). */
    loadTimeoutMs: number;
    /** Wait on every page after it loaded, for keys scripts set late. */
    pageWaitMs: number;
    /** How long at least the start page stays open after it loaded, while the other pages are crawled. */
    startPageWaitMs: number;
    /** Pages a scan loads at once besides its start page (which keeps a tab of its own). */
    pageConcurrency: number;
    /** Scans running at once, across all domains (one per domain at most); also the queued scans a worker runs at once. */
    maxConcurrent: number;
    /** Whether the API process also runs queued scans. */
    worker: boolean;
    /** How often a domain with permanentScanEnabled is scanned again. */
    permanentIntervalMinutes: number;
  };
  logLevel: z.infer<typeof settingsSchema>['LOG_LEVEL'];
  /** `json`, `pretty`, or undefined: pretty on a terminal, JSON otherwise. */
  logFormat: 'json' | 'pretty' | undefined;
  /** How long a shutdown waits for requests in flight before it closes their connections. */
  shutdownTimeoutMs: number;
  /** How long after SIGTERM the service still accepts requests while /readyz says it is stopping. */
  shutdownDelayMs: number;
  /** The scan worker's health and metrics port; 0: none. */
  scanWorkerPort: number;
  /** The API process's port serving only GET /metrics, without a key; 0: none. */
  metricsPort: number;
  tracing: TracingSettings;
  /** Days a consent record is kept before the hourly maintenance removes it. */
  consentRetentionDays: number;
  environment: z.infer<typeof settingsSchema>['NODE_ENV'];
  /** The CMP the banner's TC strings name (TCF_CMP_ID, TCF_CMP_VERSION); id unset: none given. */
  tcfCmp: { id: number | undefined; version: number };
};

/** OpenTelemetry traces (the standard OTEL_* variables); off without an endpoint. */
export type TracingSettings = {
  /** Where spans are POSTed (OTLP/HTTP, JSON); undefined: tracing is off and no OpenTelemetry SDK is loaded. */
  tracesUrl: string | undefined;
  serviceName: string;
  sampler: z.infer<typeof settingsSchema>['OTEL_TRACES_SAMPLER'];
  /** The share of traces the `traceidratio` samplers keep. */
  samplerRatio: number;
  /** How long spans are gathered before a batch is sent. */
  exportDelayMs: number;
};

export class SettingsError extends Error {}

/**
 * The settings that hold a secret. Each may instead be given as `<NAME>_FILE`: the path of a file
 * holding the value (a mounted Kubernetes or Docker secret), so the secret is not in the
 * process's environment for everyone who can read it.
 */
export const SECRET_SETTINGS = ['DATABASE_URL', 'ADMIN_API_KEY'] as const;

/** Every setting's name, for checks of deployment files. */
export const SETTING_NAMES: readonly string[] = Object.keys(settingsSchema.shape);

/** Reads and checks the settings; throws one error naming every bad variable. */
export function loadSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const fileProblems = readSecretFiles(present);
  const parsed = settingsSchema.safeParse(present);
  const portClash = parsed.success && parsed.data.METRICS_PORT !== 0 && parsed.data.METRICS_PORT === parsed.data.PORT ? ['METRICS_PORT: must differ from PORT'] : [];
  if (fileProblems.length > 0 || !parsed.success || portClash.length > 0) {
    const problems = [...fileProblems, ...portClash, ...(parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`))];
    throw new SettingsError(`invalid settings: ${problems.join('; ')}`);
  }
  const s = parsed.data;
  return {
    port: s.PORT,
    host: s.HOST,
    databaseUrl: s.DATABASE_URL,
    dataDir: s.DATA_DIR,
    databasePoolSize: s.DATABASE_POOL_SIZE,
    migrateOnStart: s.MIGRATE_ON_START === '1' || s.MIGRATE_ON_START === 'true',
    migrationWaitMs: s.MIGRATION_WAIT_SECONDS * 1000,
    listenHeartbeatMs: s.LISTEN_HEARTBEAT_MS,
    publicBaseUrl: (s.PUBLIC_BASE_URL ?? `http://${formatHost(s.HOST)}:${s.PORT}`).replace(/\/+$/, ''),
    adminApiKey: s.ADMIN_API_KEY,
    corsOrigins: s.CORS_ORIGINS ?? [],
    trustProxy: s.TRUST_PROXY ?? false,
    countryHeader: s.COUNTRY_HEADER,
    countryDatabase: s.COUNTRY_DATABASE,
    rateLimitPerMinute: s.RATE_LIMIT_PER_MINUTE,
    consentRateLimitPerMinute: s.CONSENT_RATE_LIMIT_PER_MINUTE,
    bannerRateLimitPerMinute: s.BANNER_RATE_LIMIT_PER_MINUTE,
    scan: {
      allowPrivateAddresses: s.SCAN_ALLOW_PRIVATE_ADDRESSES === '1' || s.SCAN_ALLOW_PRIVATE_ADDRESSES === 'true',
      chromePath: s.CHROME_PATH,
      chromiumSandbox: s.SCAN_CHROMIUM_SANDBOX === '1' || s.SCAN_CHROMIUM_SANDBOX === 'true',
      pageLimit: s.SCAN_PAGE_LIMIT,
      totalTimeoutMs: s.SCAN_TIMEOUT_MS,
      navigationTimeoutMs: s.SCAN_NAVIGATION_TIMEOUT_MS,
      graceMs: s.SCAN_GRACE_MS,
      existingBannerWaitMs: s.SCAN_EXISTING_BANNER_WAIT_MS,
      loadTimeoutMs: s.SCAN_LOAD_TIMEOUT_MS,
      pageWaitMs: s.SCAN_PAGE_WAIT_MS,
      startPageWaitMs: s.SCAN_START_PAGE_WAIT_MS,
      pageConcurrency: s.SCAN_PAGE_CONCURRENCY,
      maxConcurrent: s.SCAN_MAX_CONCURRENT,
      worker: s.SCAN_WORKER === '1' || s.SCAN_WORKER === 'true',
      permanentIntervalMinutes: s.PERMANENT_SCAN_INTERVAL_MINUTES,
    },
    logLevel: s.LOG_LEVEL,
    logFormat: s.LOG_FORMAT === 'auto' ? undefined : s.LOG_FORMAT,
    shutdownTimeoutMs: s.SHUTDOWN_TIMEOUT_MS,
    shutdownDelayMs: s.SHUTDOWN_DELAY_MS,
    scanWorkerPort: s.SCAN_WORKER_PORT,
    metricsPort: s.METRICS_PORT,
    tracing: {
      tracesUrl: s.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? (s.OTEL_EXPORTER_OTLP_ENDPOINT && `${s.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}/v1/traces`),
      serviceName: s.OTEL_SERVICE_NAME,
      sampler: s.OTEL_TRACES_SAMPLER,
      samplerRatio: s.OTEL_TRACES_SAMPLER_ARG ?? 1,
      exportDelayMs: s.OTEL_BSP_SCHEDULE_DELAY,
    },
    consentRetentionDays: s.CONSENT_RETENTION_DAYS,
    environment: s.NODE_ENV,
    tcfCmp: { id: s.TCF_CMP_ID, version: s.TCF_CMP_VERSION },
  };
}

/**
 * Replaces each `<NAME>_FILE` of a secret setting in `present` by `<NAME>` with the file's
 * content (one trailing line break dropped, as `echo` and editors leave one). The problems name
 * the variable and the file's error code, never its content.
 */
function readSecretFiles(present: Record<string, string | undefined>): string[] {
  const problems: string[] = [];
  for (const name of SECRET_SETTINGS) {
    const path = present[`${name}_FILE`];
    if (path === undefined) continue;
    delete present[`${name}_FILE`];
    if (present[name] !== undefined) {
      problems.push(`${name}_FILE: set ${name} or ${name}_FILE, not both`);
      continue;
    }
    let content: string;
    try {
      content = readFileSync(path, 'utf8').replace(/\r?\n$/, '');
    } catch (error) {
      problems.push(`${name}_FILE: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
      continue;
    }
    if (content === '') problems.push(`${name}_FILE: ${path} is empty`);
    else present[name] = content;
  }
  return problems;
}

function formatHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

/** A parser returning a value or a problem → a zod transform reporting the problem as the variable's issue. */
function refined<T>(parse: (value: string) => { value: T } | { problem: string }) {
  return (value: string, ctx: z.RefinementCtx): T => {
    const parsed = parse(value);
    if ('value' in parsed) return parsed.value;
    ctx.addIssue({ code: 'custom', message: parsed.problem });
    return z.NEVER;
  };
}

const ORIGIN_SHAPE = 'an origin is scheme://host[:port] (http or https), e.g. https://admin.example.com';

/**
 * CORS_ORIGINS: `*` alone, or origins separated by commas (empty entries are ignored). Each
 * origin is kept as browsers send it in `Origin` (host in lower case, no default port), which is
 * how the CORS middleware compares them.
 */
function parseCorsOrigins(value: string): { value: string[] } | { problem: string } {
  const entries = value.split(',').map((entry) => entry.trim()).filter(Boolean);
  if (entries.includes('*')) {
    return entries.length === 1 ? { value: ['*'] } : { problem: '* (any origin) stands alone: it cannot be listed with other origins' };
  }
  const origins: string[] = [];
  for (const entry of entries) {
    const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(entry);
    if (!scheme) return { problem: `"${entry}" has no scheme; ${ORIGIN_SHAPE}` };
    const authority = entry.slice(scheme[0].length);
    // Before the entry is ever repeated in a message: it may hold a password.
    if (authority.includes('@')) return { problem: `an entry has a user name or password; ${ORIGIN_SHAPE}` };
    if (!/^https?$/i.test(scheme[1]!)) return { problem: `"${entry}" is not http or https; ${ORIGIN_SHAPE}` };
    if (/[/?#]/.test(authority)) return { problem: `"${entry}" has a path, query or trailing slash; ${ORIGIN_SHAPE}` };
    if (authority.includes('*')) return { problem: `"${entry}" has a wildcard in its host: list each origin, or * alone for any` };
    let origin: string;
    try {
      origin = new URL(entry).origin;
    } catch {
      return { problem: `"${entry}" is not a valid origin; ${ORIGIN_SHAPE}` };
    }
    if (!origins.includes(origin)) origins.push(origin);
  }
  return { value: origins };
}

/** The names of address ranges Express's `trust proxy` knows. */
const TRUSTED_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * TRUST_PROXY, as Express's `trust proxy` takes it: `true`, `false`, a whole number of hops
 * (0 is false), or a comma-separated list of addresses, CIDR ranges (`10.0.0.0/8`, also IPv4
 * with a netmask, `10.0.0.0/255.0.0.0`) and range names. Each entry is checked here, so a bad
 * one is a settings error instead of Express throwing when the service starts.
 */
function parseTrustProxy(value: string): { value: boolean | number | string } | { problem: string } {
  const trimmed = value.trim();
  if (trimmed === 'true') return { value: true };
  if (trimmed === 'false') return { value: false };
  if (/^\d+$/.test(trimmed)) {
    const hops = Number(trimmed);
    if (!Number.isSafeInteger(hops)) return { problem: `${trimmed} hops is too many` };
    return { value: hops === 0 ? false : hops };
  }
  const entries = trimmed.split(',').map((entry) => entry.trim()).filter(Boolean);
  if (entries.length === 0) return { value: false };
  const bad = entries.filter((entry) => !isTrustedProxyEntry(entry));
  if (bad.length > 0) {
    return {
      problem:
        `${bad.map((entry) => `"${entry}"`).join(', ')} ${bad.length === 1 ? 'is' : 'are'} not an IP address, a CIDR range or one of ` +
        `${TRUSTED_RANGE_NAMES.join(', ')}; TRUST_PROXY is true, false, a number of hops, or a comma-separated list of those`,
    };
  }
  return { value: entries.join(', ') };
}

function isTrustedProxyEntry(entry: string): boolean {
  if (TRUSTED_RANGE_NAMES.includes(entry)) return true;
  const [address = '', range, ...rest] = entry.split('/');
  // Zone indexes (fe80::1%eth0) are left out: Express's address parser does not take them.
  const version = address.includes('%') ? 0 : isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (range === undefined) return true;
  const bits = /^\d{1,3}$/.test(range) ? Number(range) : version === 4 && isIP(range) === 4 ? netmaskBits(range) : undefined;
  return bits !== undefined && bits >= 1 && bits <= (version === 4 ? 32 : 128);
}

/** 255.255.255.0 → 24; undefined when the ones are not contiguous. */
function netmaskBits(netmask: string): number | undefined {
  const bits = netmask
    .split('.')
    .map((octet) => Number(octet).toString(2).padStart(8, '0'))
    .join('');
  return /^1*0*$/.test(bits) ? bits.replace(/0+$/, '').length : undefined;
}
