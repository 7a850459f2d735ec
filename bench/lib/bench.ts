/**
 * What the sections share: the bench's database, the servers (started when a section first needs
 * them), the service's REST API for seeding, and the seeded domains (made when first asked for,
 * so a section run alone seeds only what it reads).
 */
import { type Proc, SERVICE, startProcess } from './processes.ts';
import type { Server } from './measure.ts';

export const ADMIN = 'bench-admin-key-0123456789abcdef';
export const AUTH = { authorization: `Bearer ${ADMIN}` };
export const JSON_HEADERS = { ...AUTH, 'content-type': 'application/json' };

/** The service's settings on the bench's database. */
export const serviceEnv = (databaseUrl: string): Record<string, string> => ({
  DATABASE_URL: databaseUrl,
  ADMIN_API_KEY: ADMIN,
  LOG_LEVEL: 'warn',
  NODE_ENV: 'production',
  RATE_LIMIT_PER_MINUTE: '1000000',
  // The load generator is one address.
  CONSENT_RATE_LIMIT_PER_MINUTE: '1000000',
  SCAN_ALLOW_PRIVATE_ADDRESSES: '1',
  SCAN_MAX_CONCURRENT: '4',
  // The service runs no queued scans itself: the worker processes of the scan-throughput rows do.
  SCAN_WORKER: '0',
  SCAN_GRACE_MS: '500',
});

export type Api = (method: string, path: string, body?: unknown) => Promise<unknown>;

/** A seeded domain: its REST path (`/hosting/api/client/…/domain/…`) and the id of one of its embeddings. */
export type SeededDomain = { clientId: string; id: string; path: string; embeddingId: string };

/** The assets every seeded embedding has (10 unless asked otherwise). */
export const seedAssets = (count = 10) =>
  Array.from({ length: count }, (_, i) => ({ name: `cookie_${i}`, lifetime: '1 year', description: 'A cookie of the benchmark.' }));

const THEME_COLOURS = ['primaryButtonBackgroundColor', 'primaryButtonForegroundColor', 'primaryButtonBorderColor', 'declineButtonBackgroundColor',
  'declineButtonForegroundColor', 'declineButtonBorderColor', 'buttonBackgroundColor', 'buttonForegroundColor', 'buttonBorderColor',
  'windowBackgroundColor', 'windowForegroundColor', 'windowLinkColor', 'windowBorderColor', 'iframeBlockerBackgroundColor',
  'iframeBlockerForegroundColor', 'iframeBlockerButtonBackgroundColor', 'iframeBlockerButtonForegroundColor'];

const once = <T>(make: () => Promise<T>) => {
  let made: Promise<T> | undefined;
  return () => (made ??= make());
};

export type Bench = ReturnType<typeof makeBench>;

export function makeBench(databaseUrl: string, workDir: string) {
  const env = serviceEnv(databaseUrl);
  const started: Server[] = [];
  const keep = (server: Server) => {
    started.push(server);
    return server;
  };

  const service = once(async () => {
    const proc = await startProcess('service', SERVICE, env, '/healthz');
    return keep({
      ...proc,
      statements: async () => {
        const text = await (await fetch(`${proc.base}/metrics`, { headers: AUTH })).text();
        return Number(/^consent_config_db_statements_total (\d+)/m.exec(text)?.[1] ?? Number.NaN);
      },
    });
  });
  /** A server with the baseline's /stats. */
  const withStats = async (name: string, script: string, extra: Record<string, string>) => {
    // Both read the tables the service's migrations make: the service starts first.
    await service();
    const proc = await startProcess(name, script, { DATABASE_URL: databaseUrl, ...extra }, '/stats');
    return keep({ ...proc, statements: async () => ((await (await fetch(`${proc.base}/stats`)).json()) as { statements: number }).statements });
  };
  const baseline = once(() => withStats('baseline', 'bench/baseline-server.ts', { ADMIN_API_KEY: ADMIN }));
  const postgraphile = once(() => withStats('PostGraphile', 'bench/postgraphile-server.ts', { GRAPHILE_ENV: 'production' }));

  /** The REST API of `server` (the shared service unless told). */
  const apiOf = (server?: Proc): Api => async (method, path, body) => {
    const response = await fetch(`${(server ?? (await service())).base}/hosting/api${path}`, {
      method,
      headers: JSON_HEADERS,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return response.status === 204 ? undefined : response.json();
  };
  const api = apiOf();

  const client = once(async () => ((await api('POST', '/client', { username: 'bench', emailAddress: 'bench@example.org', password: 'bench-password' })) as { id: string }).id);

  /** A new domain of `clientId` with `embeddings` embeddings of `assets` assets each, 20 placeholders and a default theme. */
  async function seedDomain(clientId: string, name: string, embeddings: number, assets = 10, via: Api = api): Promise<SeededDomain> {
    const domain = (await via('POST', `/client/${clientId}/domain`, { name })) as { id: string };
    const rest = `/client/${clientId}/domain/${domain.id}`;
    let embeddingId = '';
    for (let start = 0; start < embeddings; start += 20) {
      const made = await Promise.all(
        Array.from({ length: Math.min(20, embeddings - start) }, (_, i) =>
          via('POST', `${rest}/embedding`, {
            name: `Service ${start + i}`,
            purpose: 'a717ff5',
            vendor: 'Bench Ltd',
            translations: { de_DE: { name: `Dienst ${start + i}` }, en_US: { name: `Service ${start + i}` } },
            assets: seedAssets(assets),
          }) as Promise<{ id: string }>,
        ),
      );
      embeddingId ||= made[0]!.id;
    }
    await via('PUT', `${rest}/placeholder`, Array.from({ length: 20 }, (_, i) => ({ name: `p${i}`, value: 'v' })));
    await via('POST', `${rest}/theme`, { name: 'Bench', default: true, ...Object.fromEntries(THEME_COLOURS.map((key) => [key, '#336699'])) });
    return { clientId, id: domain.id, path: `/hosting/api${rest}`, embeddingId };
  }

  const sized = new Map<number, Promise<SeededDomain>>();
  /** The bench client's domain of `size` embeddings of 10 assets (10, 100 or 1,000), seeded once. */
  const domainOfSize = async (size: number) => {
    if (!sized.has(size)) sized.set(size, client().then((id) => seedDomain(id, `size-${size}.example`, size)));
    return sized.get(size)!;
  };

  return {
    env,
    databaseUrl,
    workDir,
    service,
    baseline,
    postgraphile,
    api,
    apiOf,
    client,
    seedDomain,
    domainOfSize,
    /** Stops every server a section started (the start and memory sections start their own). */
    async stopServers() {
      await Promise.all(started.splice(0).map((server) => server.stop()));
    },
  };
}
