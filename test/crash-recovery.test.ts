import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinPresets } from '../src/features/catalog/builtin.ts';
import { freshTestDatabase } from './support/database.ts';
import { type ServiceProcess, startServiceProcess } from './support/service-process.ts';

/**
 * The service process killed (SIGKILL) while a bulk replace or a preset import is running:
 * after a restart the data is wholly old or wholly new, never half of each. Runs the real
 * service (`node src/main.ts`) on the embedded database in a directory, or on the PostgreSQL
 * server when DATABASE_URL is set.
 */

const ADMIN = 'crash-test-admin-key-0123456789';

let workDir: string;
let env: Record<string, string>;
let dropDatabase: () => Promise<void>;

let service: ServiceProcess | undefined;

async function startService(): Promise<void> {
  service = await startServiceProcess({ env: { ...env, LOG_LEVEL: 'warn', NODE_ENV: 'test' } });
  if (!service.ready) throw new Error(`the service did not start: ${service.output().stderr}`);
}

async function killService(): Promise<void> {
  await service?.stop('SIGKILL');
}

const api = (method: string, path: string, body?: unknown) =>
  service!.request(method, `/hosting/api${path}`, { body }) as Promise<{ status: number; body: any }>;

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'crash-'));
  const fresh = await freshTestDatabase();
  dropDatabase = fresh.drop;
  // Every consent record of the test comes from one address.
  const limits = { CONSENT_RATE_LIMIT_PER_MINUTE: '100000' };
  env = fresh.databaseUrl
    ? { DATABASE_URL: fresh.databaseUrl, ADMIN_API_KEY: ADMIN, ...limits }
    : { DATABASE_URL: '', DATA_DIR: join(workDir, 'data'), ADMIN_API_KEY: ADMIN, ...limits };
  await startService();
}, 60_000);
afterAll(async () => {
  await killService();
  await dropDatabase?.();
  await rm(workDir, { recursive: true, force: true });
});

/** Kill delays after the request is sent: early, mid-way and late in the write. */
const DELAYS_MS = [5, 30, 80, 200, 2_000];

describe('a process killed mid-write', () => {
  it('leaves a bulk replace of 1,000 placeholders wholly applied or not at all', async () => {
    const client = await api('POST', '/client', { username: 'crash', emailAddress: 'crash@example.org', password: 'crash-password' });
    const domain = await api('POST', `/client/${client.body.id}/domain`, { name: 'crash.example' });
    const path = `/client/${client.body.id}/domain/${domain.body.id}/placeholder`;
    const list = (label: string) => Array.from({ length: 1000 }, (_, i) => ({ name: `p${i}`, value: `${label} ${i}` }));
    expect((await api('PUT', path, list('old'))).status).toBe(201);

    const outcomes: string[] = [];
    for (const [round, delay] of DELAYS_MS.entries()) {
      const label = `new-${round}`;
      const request = api('PUT', path, list(label)).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, delay));
      await killService();
      await request;
      await startService();
      const stored = (await api('GET', path)).body as { name: string; value: string }[];
      expect(stored).toHaveLength(1000);
      const labels = new Set(stored.map((item) => item.value.replace(/ \d+$/, '')));
      expect(labels.size, `a mix after a kill ${delay} ms in: ${[...labels].join(', ')}`).toBe(1);
      outcomes.push(`${delay} ms: ${[...labels][0] === label ? 'new' : 'old'}`);
      if ([...labels][0] === label) expect((await api('PUT', path, list('old'))).status).toBe(201);
    }
    console.log(`bulk replace killed after ${outcomes.join('; ')}`);
  }, 120_000);

  it('keeps every consent record it acknowledged, when killed while more are arriving', async () => {
    const client = await api('POST', '/client', { username: 'crash-consent', emailAddress: 'crash@example.org', password: 'crash-password' });
    const domain = await api('POST', `/client/${client.body.id}/domain`, { name: 'consent.example' });
    const base = `/client/${client.body.id}/domain/${domain.body.id}`;
    const revision = (await api('GET', `${base}/revision?limit=1`)).body.revisions[0].hash as string;
    const acknowledged: string[] = [];
    const refused: string[] = [];
    const send = async () => {
      const consentId = randomUUID();
      // As the banner sends it: no key, a text/plain body.
      const answer = await fetch(`${service!.base}/consent`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: JSON.stringify({ domain: domain.body.id, consentId, choice: 'all', categories: ['necessary'], services: [], revision, locale: 'de_DE', url: 'https://consent.example/' }),
      }).catch(() => undefined);
      if (answer?.status === 201) acknowledged.push(consentId);
      else if (answer) refused.push(`${answer.status} ${(await answer.text()).slice(0, 200)}`);
    };
    // 400 records in flight, 8 at a time; the process dies once 150 are acknowledged.
    let sent = 0;
    const senders = Array.from({ length: 8 }, async () => {
      while (sent < 400 && acknowledged.length < 150) {
        sent++;
        await send();
      }
    });
    while (acknowledged.length < 150) {
      expect(refused).toEqual([]);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await killService();
    await Promise.all(senders);
    const kept = [...acknowledged];
    await startService();
    const stored = new Set<string>();
    let after: string | null = null;
    do {
      const page = await api('GET', `${base}/consent?limit=1000${after ? `&after=${after}` : ''}`);
      expect(page.status).toBe(200);
      for (const record of page.body.records as { consentId: string }[]) stored.add(record.consentId);
      after = page.body.nextCursor;
    } while (after);
    expect(kept.filter((consentId) => !stored.has(consentId))).toEqual([]);
    console.log(`consent records: ${kept.length} acknowledged before the kill, ${stored.size} stored after the restart`);
  }, 120_000);

  it('leaves a preset import wholly applied or not at all', async () => {
    const client = await api('POST', '/client', { username: 'crash-presets', emailAddress: 'crash@example.org', password: 'crash-password' });
    const domain = await api('POST', `/client/${client.body.id}/domain`, { name: 'presets.example' });
    const base = `/client/${client.body.id}/domain/${domain.body.id}`;
    const presets = builtinPresets.map((preset) => ({ id: preset.id }));
    // What the whole import makes, from an import nobody interrupts (a cookie several presets list is declared once).
    const reference = await api('POST', `/client/${client.body.id}/domain`, { name: 'reference.example' });
    expect((await api('POST', `/client/${client.body.id}/domain/${reference.body.id}/onboarding/presets`, presets)).status).toBe(201);
    const referenceEmbeddings = (await api('GET', `/client/${client.body.id}/domain/${reference.body.id}/embedding`)).body as { assets: unknown[] }[];
    expect(referenceEmbeddings).toHaveLength(presets.length);
    const expectedAssets = referenceEmbeddings.reduce((sum, embedding) => sum + embedding.assets.length, 0);

    const outcomes: string[] = [];
    for (const delay of DELAYS_MS) {
      const request = api('POST', `${base}/onboarding/presets`, presets).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, delay));
      await killService();
      await request;
      await startService();
      const embeddings = (await api('GET', `${base}/embedding`)).body as { assets: unknown[] }[];
      expect([0, presets.length]).toContain(embeddings.length);
      if (embeddings.length > 0) {
        expect(embeddings.reduce((sum, embedding) => sum + embedding.assets.length, 0)).toBe(expectedAssets);
        for (const embedding of embeddings) expect((await api('DELETE', `${base}/embedding/${(embedding as unknown as { id: string }).id}`)).status).toBe(204);
      }
      outcomes.push(`${delay} ms: ${embeddings.length === 0 ? 'none' : 'all'}`);
    }
    console.log(`preset import of ${presets.length} presets killed after ${outcomes.join('; ')}`);
  }, 120_000);
});
