import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, createClient, createDomain } from '../../support/fixtures.ts';
import { startTestService, type TestService } from '../../support/service.ts';

/**
 * `autoCreateDomains`: a client's key-less snippet `/app.js?client=<id>` picks, by the page it
 * runs on, the client's domain of that host, and creates it when there is none — within the
 * client's quota, a ceiling, an hourly rate, and only for plausible public sites.
 */

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

type Load = { status: number; location: string | undefined; headers: Record<string, string | string[] | undefined>; body: string };

/** Loads the client snippet as a browser's `<script>` would: with the page as Referer, no redirect followed. */
function loadSnippet(clientId: string, page: string | null, headers: Record<string, string> = {}, query = ''): Promise<Load> {
  const url = new URL(`/app.js?client=${clientId}${query}`, service.baseUrl);
  return new Promise((resolve, reject) => {
    const sent = { 'sec-fetch-dest': 'script', ...(page === null ? {} : { referer: page }), ...headers };
    const req = request(url, { method: 'GET', headers: sent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, location: res.headers.location, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const domainsOf = async (clientId: string): Promise<{ id: string; name: string; url: string }[]> => {
  const answer = await service.rest('GET', `${API}/${clientId}/domain`);
  expect(answer.status, answer.text).toBe(200);
  return answer.body;
};

const switchOn = async (clientId: string, domainMaxCount: number) => {
  const answer = await service.rest('PUT', `${API}/${clientId}`, { autoCreateDomains: true, domainMaxCount });
  expect(answer.status, answer.text).toBe(200);
};

describe('autoCreateDomains', () => {
  it('off (the default): the client snippet creates nothing and serves nothing', async () => {
    const { id } = await createClient(service);
    const load = await loadSnippet(id, 'https://www.kanzlei-neu.de/');
    expect(load.status).toBe(404);
    expect(await domainsOf(id)).toEqual([]);
  });

  it('on (REST): a page of a new site gets its domain once, and the snippet leads to its banner', async () => {
    const { id } = await createClient(service);
    await switchOn(id, 3);
    const first = await loadSnippet(id, 'https://www.kanzlei-neu.de/kontakt?x=1');
    expect(first.status, first.body).toBe(302);
    expect(first.headers['cache-control']).toBe('no-store');
    expect(first.headers.vary).toContain('Referer');
    const domains = await domainsOf(id);
    expect(domains.map(({ name, url }) => ({ name, url }))).toEqual([{ name: 'www.kanzlei-neu.de', url: 'https://www.kanzlei-neu.de/' }]);
    expect(first.location).toBe(`/app.js?domain=${domains[0]!.id}`);

    // Another page of the same site, in a forced language: the same domain, nothing new.
    const again = await loadSnippet(id, 'https://www.kanzlei-neu.de/impressum', {}, '&lang=en_US');
    expect(again.location).toBe(`/app.js?domain=${domains[0]!.id}&lang=en_US`);
    expect(await domainsOf(id)).toHaveLength(1);

    // Where the redirect goes: the domain's banner.
    const banner = await fetch(new URL(first.location!, service.baseUrl));
    expect(banner.status).toBe(200);
    expect(banner.headers.get('content-type')).toContain('javascript');
    expect(await banner.text()).toContain('__ccmGuard');
  });

  it('on (GraphQL): the switch set through GraphQL creates, and the new domain is listed there', async () => {
    const { id } = await createClient(service);
    const set = await service.graphql(`mutation($id: ID!) { updateClient(id: $id, input: { autoCreateDomains: true, domainMaxCount: 2 }) { autoCreateDomains } }`, { id });
    expect(set.errors).toBeUndefined();
    expect((await loadSnippet(id, 'http://blog.kanzlei-neu.de/')).status).toBe(302);
    const read = await service.graphql(`query($id: ID!) { client(id: $id) { domainCount domains { name url } } }`, { id });
    expect(read.errors).toBeUndefined();
    expect(read.data.client).toEqual({ domainCount: 1, domains: [{ name: 'blog.kanzlei-neu.de', url: 'http://blog.kanzlei-neu.de/' }] });
  });

  it("the onboarding snippet's fetch (Origin only, Sec-Fetch-Dest: empty) picks the site as well", async () => {
    const { id } = await createClient(service);
    await switchOn(id, 2);
    const load = await loadSnippet(id, null, { origin: 'https://www.fetch-kanzlei.de', 'sec-fetch-dest': 'empty' });
    expect(load.status, load.body).toBe(302);
    expect(load.headers['access-control-allow-origin']).toBe('*');
    expect((await domainsOf(id)).map((domain) => domain.url)).toEqual(['https://www.fetch-kanzlei.de/']);
  });

  it("uses a domain the client already has for the page's host, whatever its path", async () => {
    const { clientId, domainId } = await createDomain(service, 'https://www.alt-kanzlei.de/shop/');
    await switchOn(clientId, 5);
    const load = await loadSnippet(clientId, 'https://www.alt-kanzlei.de/');
    expect(load.location).toBe(`/app.js?domain=${domainId}`);
    expect(await domainsOf(clientId)).toHaveLength(1);
  });

  it('creates nothing for pages that are not a site of the client, nor for requests that are not a script load', async () => {
    const { id } = await createClient(service);
    await switchOn(id, -1);
    const refused: [string | null, Record<string, string>][] = [
      ['https://www-kanzlei--neu-de.translate.goog/', {}],
      ['https://webcache.googleusercontent.com/search?q=cache:x', {}],
      ['https://web.archive.org/web/2026/https://www.kanzlei-neu.de/', {}],
      ['http://203.0.113.7/', {}],
      ['http://[2001:db8::1]/', {}],
      ['http://localhost:8080/', {}],
      ['http://intranet/', {}],
      ['https://kanzlei.local/', {}],
      ['https://staging.kanzlei.test/', {}],
      ['https://consent.example.test/', {}],
      ['file:///home/x/index.html', {}],
      [null, {}],
      ['https://www.kanzlei-neu.de/', { 'sec-fetch-dest': 'document' }],
      ['https://www.kanzlei-neu.de/', { 'sec-fetch-dest': 'iframe' }],
      ['https://www.kanzlei-neu.de/', { 'sec-fetch-dest': 'embed' }],
    ];
    for (const [page, headers] of refused) {
      const load = await loadSnippet(id, page, headers);
      expect([400, 404], `${page} ${JSON.stringify(headers)}: ${load.body}`).toContain(load.status);
      expect(load.headers['content-type']).toContain('application/problem+json');
    }
    expect(await domainsOf(id)).toEqual([]);
  });

  it("stops at the client's domainMaxCount", async () => {
    const { clientId } = await createDomain(service, 'www.erste-seite.de');
    await switchOn(clientId, 2);
    expect((await loadSnippet(clientId, 'https://www.zweite-seite.de/')).status).toBe(302);
    const over = await loadSnippet(clientId, 'https://www.dritte-seite.de/');
    expect(over.status).toBe(409);
    expect(over.body).toContain('domainMaxCount');
    expect((await domainsOf(clientId)).map((domain) => domain.name).sort()).toEqual(['www.erste-seite.de', 'www.zweite-seite.de']);
  });

  it('creates at most 10 domains an hour for one client, even with an unlimited quota', async () => {
    const { id } = await createClient(service);
    await switchOn(id, -1);
    for (let site = 1; site <= 10; site++) expect((await loadSnippet(id, `https://site-${site}.beispiel-kanzlei.de/`)).status).toBe(302);
    const eleventh = await loadSnippet(id, 'https://site-11.beispiel-kanzlei.de/');
    expect(eleventh.status).toBe(429);
    expect(Number(eleventh.headers['retry-after'])).toBeGreaterThan(0);
    expect(await domainsOf(id)).toHaveLength(10);
    // A site it already has still loads.
    expect((await loadSnippet(id, 'https://site-3.beispiel-kanzlei.de/about')).status).toBe(302);
  });

  it('serves nothing for an inactive client', async () => {
    const { id } = await createClient(service);
    await switchOn(id, 5);
    expect((await service.rest('PUT', `${API}/${id}`, { active: false })).status).toBe(200);
    expect((await loadSnippet(id, 'https://www.inaktiv-kanzlei.de/')).status).toBe(404);
    expect(await domainsOf(id)).toEqual([]);
  });

  it('refuses a snippet whose client is not an id', async () => {
    expect((await loadSnippet('not-a-uuid', 'https://www.kanzlei-neu.de/')).status).toBe(400);
  });
});
