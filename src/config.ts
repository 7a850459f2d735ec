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
  /** Connections the service keeps to a PostgreSQL server (the embedded database always uses one). */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  PUBLIC_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  ADMIN_API_KEY: z.string().min(16, 'must be at least 16 characters').optional(),
  /** Browser origins allowed to call the API (admin dashboards), comma-separated; `*` for any. */
  CORS_ORIGINS: z.string().optional(),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(600),
  SCAN_MAX_CONCURRENT: z.coerce.number().int().min(1).max(64).default(2),
  SCAN_ALLOW_PRIVATE_ADDRESSES: z.enum(['0', '1', 'true', 'false']).default('0'),
  CHROME_PATH: z.string().min(1).optional(),
  SCAN_PAGE_LIMIT: z.coerce.number().int().min(1).max(100).default(10),
  SCAN_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(600_000).default(60_000),
  SCAN_NAVIGATION_TIMEOUT_MS: z.coerce.number().int().min(500).max(120_000).default(15_000),
  SCAN_GRACE_MS: z.coerce.number().int().min(0).max(30_000).default(1_000),
  SCAN_PAGE_CONCURRENCY: z.coerce.number().int().min(1).max(8).default(3),
  LOG_FORMAT: z.enum(['auto', 'json', 'pretty']).default('auto'),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(30_000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
});

export type Settings = {
  port: number;
  host: string;
  /** Unset: the service starts an embedded PGlite database. */
  databaseUrl: string | undefined;
  dataDir: string;
  databasePoolSize: number;
  publicBaseUrl: string;
  /** Unset: generated at first start outside production, and printed once. */
  adminApiKey: string | undefined;
  /** Origins allowed by CORS; empty: no cross-origin access; ['*']: any. */
  corsOrigins: string[];
  rateLimitPerMinute: number;
  scan: {
    /** Tests and local development only: lets scans reach loopback and private addresses. */
    allowPrivateAddresses: boolean;
    chromePath: string | undefined;
    pageLimit: number;
    totalTimeoutMs: number;
    navigationTimeoutMs: number;
    graceMs: number;
    /** Pages a scan loads at once. */
    pageConcurrency: number;
    /** Scans running at once, across all domains (one per domain at most). */
    maxConcurrent: number;
  };
  logLevel: z.infer<typeof settingsSchema>['LOG_LEVEL'];
  /** `json`, `pretty`, or undefined: pretty on a terminal, JSON otherwise. */
  logFormat: 'json' | 'pretty' | undefined;
  /** How long a shutdown waits for requests in flight before it closes their connections. */
  shutdownTimeoutMs: number;
  environment: z.infer<typeof settingsSchema>['NODE_ENV'];
};

export class SettingsError extends Error {}

/** Reads and checks the settings; throws one error naming every bad variable. */
export function loadSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const parsed = settingsSchema.safeParse(present);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new SettingsError(`invalid settings: ${problems.join('; ')}`);
  }
  const s = parsed.data;
  return {
    port: s.PORT,
    host: s.HOST,
    databaseUrl: s.DATABASE_URL,
    dataDir: s.DATA_DIR,
    databasePoolSize: s.DATABASE_POOL_SIZE,
    publicBaseUrl: (s.PUBLIC_BASE_URL ?? `http://${formatHost(s.HOST)}:${s.PORT}`).replace(/\/+$/, ''),
    adminApiKey: s.ADMIN_API_KEY,
    corsOrigins: (s.CORS_ORIGINS ?? '').split(',').map((origin) => origin.trim()).filter(Boolean),
    rateLimitPerMinute: s.RATE_LIMIT_PER_MINUTE,
    scan: {
      allowPrivateAddresses: s.SCAN_ALLOW_PRIVATE_ADDRESSES === '1' || s.SCAN_ALLOW_PRIVATE_ADDRESSES === 'true',
      chromePath: s.CHROME_PATH,
      pageLimit: s.SCAN_PAGE_LIMIT,
      totalTimeoutMs: s.SCAN_TIMEOUT_MS,
      navigationTimeoutMs: s.SCAN_NAVIGATION_TIMEOUT_MS,
      graceMs: s.SCAN_GRACE_MS,
      pageConcurrency: s.SCAN_PAGE_CONCURRENCY,
      maxConcurrent: s.SCAN_MAX_CONCURRENT,
    },
    logLevel: s.LOG_LEVEL,
    logFormat: s.LOG_FORMAT === 'auto' ? undefined : s.LOG_FORMAT,
    shutdownTimeoutMs: s.SHUTDOWN_TIMEOUT_MS,
    environment: s.NODE_ENV,
  };
}

function formatHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}
