import { embeddingPayload } from './fixtures.ts';
import type { ServiceProcess } from './service-process.ts';

/**
 * A client with one domain and one embedding, made through a service process's REST API: what a
 * test needs to watch the banner (`app.js`) follow writes of the embedding's name.
 */
export async function domainWithEmbedding(service: ServiceProcess, name: string) {
  const call = (method: string, path: string, body: unknown) => untilNot503(() => service.request(method, path, { body }));
  const username = `owner-${Date.now()}`;
  const client = (await call('POST', '/hosting/api/client', { username, emailAddress: `${username}@example.org`, password: 'a-password' })).body as { id: string };
  const domain = (await call('POST', `/hosting/api/client/${client.id}/domain`, { name: 'www.example.org' })).body as { id: string };
  const domainPath = `/hosting/api/client/${client.id}/domain/${domain.id}`;
  const embedding = (await call('POST', `${domainPath}/embedding`, embeddingPayload({ name }))).body as { id: string };
  return {
    domainId: domain.id,
    domainPath,
    /** Renames the embedding; resolves with the answer's status once the write is answered (and not refused as 503). */
    rename: async (to: string) => (await call('PUT', `${domainPath}/embedding/${embedding.id}`, { name: to })).status,
  };
}

/**
 * A request sent again while it is answered 503: after its database restarted, the service
 * answers the requests that met a lost connection so (and nothing is written by them).
 */
async function untilNot503<T extends { status: number }>(send: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const answer = await send();
    if (answer.status !== 503 || attempt === 20) return answer;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The banner script a service process serves for the domain (empty when it does not answer). */
export const bannerOf = (service: ServiceProcess, domainId: string) =>
  fetch(`${service.base}/app.js?domain=${domainId}&lang=de_DE`).then(
    (answer) => answer.text(),
    () => '',
  );

/** Milliseconds until `read` gives true (polled every 100 ms), or undefined when it did not within `withinMs`. */
export async function msUntil(read: () => Promise<boolean>, withinMs: number): Promise<number | undefined> {
  const started = Date.now();
  while (Date.now() - started < withinMs) {
    if (await read()) return Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return undefined;
}
