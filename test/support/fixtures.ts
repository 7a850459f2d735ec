import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { THEME_COLORS } from '../../src/features/themes/theme.contract.ts';
import type { TestClient, TestService } from './service.ts';

/** Payload builders and seeding helpers shared by the suites. */

export const API = '/hosting/api/client';

export type DomainPath = { clientId: string; domainId: string; base: string };

export type Client = { id: string; username: string };

/** An active client (only an active client's keys are let in), with a quota of 20 domains. */
export async function createClient(service: TestService, overrides: Record<string, unknown> = {}): Promise<Client> {
  const answer = await service.rest('POST', API, {
    username: `operator-${randomUUID()}`,
    emailAddress: 'ops@example.org',
    password: 'operator-password',
    active: true,
    // Room for the domains the suites create with the client's own key (the administrator is not held to quotas).
    domainMaxCount: 20,
    ...overrides,
  });
  expect(answer.status, answer.text).toBe(201);
  return answer.body as Client;
}

/**
 * A domain of a new client, or of the client `clientId` (a sibling of its other domains);
 * `base` is the REST prefix of that domain.
 */
export async function createDomain(service: TestService, name = 'www.example.org', { clientId }: { clientId?: string } = {}): Promise<DomainPath> {
  const owner = clientId ?? (await createClient(service)).id;
  const answer = await service.rest('POST', `${API}/${owner}/domain`, { name });
  expect(answer.status, answer.text).toBe(201);
  return { clientId: owner, domainId: answer.body.id, base: `${API}/${owner}/domain/${answer.body.id}` };
}

export type CreatedApiKey = { id: string; name: string; prefix: string; key: string; createdAt: string };

/** A new API key of the client, as its creation answers it: the one answer that shows `key`. */
export async function createApiKey(service: TestClient, clientId: string, name: string): Promise<CreatedApiKey> {
  const answer = await service.rest('POST', `${API}/${clientId}/apikey`, { name });
  expect(answer.status, answer.text).toBe(201);
  return answer.body as CreatedApiKey;
}

export const embeddingPayload = (overrides: Record<string, unknown> = {}) => ({
  name: 'YouTube',
  purpose: '6cd2721',
  vendor: 'Google Ireland Limited',
  privacyPolicyUrl: 'https://policies.google.com/privacy',
  assets: [
    { name: 'VISITOR_INFO1_LIVE', lifetime: '6 months', description: 'Estimates bandwidth' },
    { name: 'yt-remote-*', dynamic: true, storageType: 'localStorage' },
  ],
  ...overrides,
});

export const themePayload = (overrides: Record<string, unknown> = {}) => ({
  name: 'Corporate',
  ...Object.fromEntries(THEME_COLORS.map((key, i) => [key, `#${(0x102030 + i * 0x010101).toString(16)}`])),
  ...overrides,
});

/** Everything stored under a domain, read back through REST, to prove a write changed nothing. */
export async function domainState(service: TestService, path: DomainPath) {
  const [domain, placeholders, embeddings, themes, locales] = await Promise.all(
    ['', '/placeholder', '/embedding', '/theme', '/locale'].map((suffix) => service.rest('GET', `${path.base}${suffix}`)),
  );
  return { domain: domain!.body, placeholders: placeholders!.body, embeddings: embeddings!.body, themes: themes!.body, locales: locales!.body };
}

/** A well-formed id that names nothing. */
export const unknownId = () => '01900000-0000-7000-8000-000000000000';
