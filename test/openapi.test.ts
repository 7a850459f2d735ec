import { readFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { compileErrors, validate } from '@readme/openapi-parser';
import puppeteer from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restRoutes } from '../rest-adapter/routes.ts';
import { CLIENT_FEATURES } from '../src/features/clients/client.contract.ts';
import { CHROMIUM_FLAGS, findChromium } from '../src/scanner/chromium.ts';
import {
  buildOpenApiDocument,
  COMMITTED_SERVER_URL,
  documentedErrors,
  type OpenApiDocument,
  type OpenApiOperation,
  openApiPath,
  printedOpenApiDocument,
} from '../src/openapi/document.ts';
import { PUBLIC_ENDPOINTS } from '../src/openapi/public-endpoints.ts';
import { openApiSource } from '../src/app/http-app.ts';
import { createDomain, unknownId } from './support/fixtures.ts';
import { createOpenApiValidator, type Exchange, OpenApiMismatch } from './support/openapi-validator.ts';
import { PUBLIC_BASE_URL, startTestService, type TestService } from './support/service.ts';

/**
 * The OpenAPI document of the REST layer (GET /openapi.json) and its reference page (GET /docs).
 * That every REST answer of the other suites matches the document is checked by the harness
 * (test/support/openapi-validator.ts) on every request they make.
 */

let service: TestService;
let document: OpenApiDocument;

beforeAll(async () => {
  service = await startTestService();
  const answer = await service.as(null).rest('GET', '/openapi.json');
  expect(answer.status, answer.text).toBe(200);
  document = answer.body;
});
afterAll(async () => {
  await service?.close();
});

const operationOf = (route: (typeof restRoutes)[number]): OpenApiOperation | undefined =>
  document.paths[openApiPath(route.path)]?.[route.method.toLowerCase()];

describe('GET /openapi.json', () => {
  it('answers without a key (and with a wrong one), as JSON: the document the route table and contract schemas make', async () => {
    const withoutKey = await service.as(null).rest('GET', '/openapi.json');
    expect(withoutKey.status).toBe(200);
    expect(withoutKey.headers.get('content-type')).toMatch(/^application\/json/);
    expect(withoutKey.body).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument(openApiSource(PUBLIC_BASE_URL)))));
    const wrongKey = await service.as('not-a-key-at-all-0123456789').rest('GET', '/openapi.json');
    expect(wrongKey.status).toBe(200);
    expect(wrongKey.text).toBe(withoutKey.text);
  });

  it('is a valid OpenAPI 3.1 document (every reference resolves)', async () => {
    expect(document.openapi).toMatch(/^3\.1\.\d+$/);
    const result = await validate(structuredClone(document) as unknown as Parameters<typeof validate>[0]);
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
  });

  it('names the server and both ways to present a key: ?apiKey= and Authorization: Bearer', () => {
    expect(document.servers.map((server) => server.url)).toEqual([PUBLIC_BASE_URL]);
    expect(document.components.securitySchemes).toEqual({
      apiKey: expect.objectContaining({ type: 'apiKey', in: 'query', name: 'apiKey' }),
      bearer: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
    });
    expect(document.security).toEqual([{ apiKey: [] }, { bearer: [] }]);
  });

  it('takes its server from the PUBLIC_BASE_URL setting, never from the Host the request names', async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const url = new URL('/openapi.json', service.baseUrl);
      const headers = { host: 'attacker.example', 'x-forwarded-host': 'attacker.example', 'x-forwarded-proto': 'https' };
      httpRequest(url, { headers }, (response) => {
        let text = '';
        response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk)).on('end', () => resolve(text));
      }).on('error', reject).end();
    });
    expect((JSON.parse(answer) as OpenApiDocument).servers.map((server) => server.url)).toEqual([PUBLIC_BASE_URL]);
    expect(answer).not.toContain('attacker.example');
  });

  it('has one operation per row of the route table and per public endpoint, and no other, with unique plain operation ids', () => {
    const operations = Object.values(document.paths).flatMap((item) => Object.values(item));
    expect(operations).toHaveLength(restRoutes.length + PUBLIC_ENDPOINTS.length);
    const ids = operations.map((operation) => operation.operationId);
    expect(new Set(ids).size).toBe(operations.length);
    // Names every client generator keeps as they are: no `.`, `-` or `_`, nothing to rename.
    for (const id of ids) expect(id).toMatch(/^[a-z][A-Za-z0-9]*$/);
    for (const route of restRoutes) expect(operationOf(route), `${route.method} ${route.path}`).toBeDefined();
    for (const endpoint of PUBLIC_ENDPOINTS) expect(document.paths[endpoint.path]?.[endpoint.method]?.operationId).toBe(endpoint.operationId);
  });

  it('has an example for every request body, valid against the body schema of the document and the one the service parses with', () => {
    const validator = createOpenApiValidator(document);
    const parsers = new Map<string, { safeParse(value: unknown): { success: boolean } }>([
      ...restRoutes.filter((route) => route.body).map((route) => [`${route.method.toLowerCase()} ${openApiPath(route.path)}`, route.body!] as const),
      ...PUBLIC_ENDPOINTS.filter((endpoint) => endpoint.body).map((endpoint) => [`${endpoint.method} ${endpoint.path}`, endpoint.body!.schema] as const),
    ]);
    let bodies = 0;
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        if (!operation.requestBody) continue;
        bodies++;
        const where = `${method} ${path}`;
        for (const [type, { schema, example }] of Object.entries(operation.requestBody.content)) {
          expect(example, `${where} ${type}`).toBeDefined();
          expect(validator.schemaErrors(schema, example), `${where} ${type}`).toBeUndefined();
        }
        const json = operation.requestBody.content['application/json']!.example;
        expect(parsers.get(where)?.safeParse(json).success, `${where}: the service takes the example`).toBe(true);
        const text = operation.requestBody.content['text/plain']?.example;
        if (text !== undefined) expect(JSON.parse(text as string), where).toEqual(json);
      }
    }
    expect(bodies).toBe(parsers.size);
    // The examples a body schema carries itself (a component's `examples`) are valid too.
    for (const [name, schema] of Object.entries(document.components.schemas)) {
      for (const example of (schema.examples ?? []) as unknown[]) {
        expect(validator.schemaErrors({ $ref: `#/components/schemas/${name}` }, example), name).toBeUndefined();
      }
    }
  });

  it('is committed as openapi.json, exactly as the code builds it (with the server at its placeholder address)', async () => {
    const committed = await readFile(new URL('../openapi.json', import.meta.url), 'utf8').catch(() => 'missing');
    const built = printedOpenApiDocument(openApiSource(COMMITTED_SERVER_URL));
    expect(committed === built, 'openapi.json differs from the document the code builds: run `npm run openapi:print`').toBe(true);
  });

  it.each(restRoutes.map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s: summary, tag, path parameters, body, success and every error status',
    (_, route) => {
      const operation = operationOf(route)!;
      expect(route.summary.startsWith(operation.summary)).toBe(true);
      expect(operation.tags).toHaveLength(1);
      expect(document.tags.map((tag) => tag.name)).toContain(operation.tags[0]);
      const params = [...route.path.matchAll(/:(\w+)/g)].map((match) => match[1]);
      const query = Object.keys((route.query as { in?: { shape?: object }; shape?: object } | undefined)?.shape ?? (route.query as { in?: { shape?: object } } | undefined)?.in?.shape ?? {});
      expect((operation.parameters ?? []).map((p) => [p.name, p.in, p.required])).toEqual([
        ...params.map((name) => [name, 'path', true]),
        // Every query parameter is optional: each has a default.
        ...query.map((name) => [name, 'query', false]),
      ]);

      if (route.body) expect(operation.requestBody?.content['application/json']?.schema).toBeDefined();
      else expect(operation.requestBody).toBeUndefined();

      const statuses = Object.keys(operation.responses).map(Number);
      expect(statuses).toEqual([route.status, ...documentedErrors(route)].sort((a, b) => a - b));
      for (const status of route.errors) expect(statuses).toContain(status);
      for (const status of [401, 429, 503]) expect(statuses).toContain(status);
      expect(statuses.includes(413)).toBe(route.body !== undefined);

      const success = operation.responses[route.status] as { content?: Record<string, { schema: unknown }> };
      if (route.status === 204) expect(success.content).toBeUndefined();
      else expect(Object.keys(success.content ?? {})).toEqual([route.produces ?? 'application/json']);

      for (const status of documentedErrors(route)) {
        const ref = (operation.responses[status] as { $ref: string }).$ref;
        const response = document.components.responses[ref.replace('#/components/responses/', '')];
        expect(Object.keys(response?.content ?? {}), `${status}`).toEqual(['application/problem+json']);
      }
    },
  );

  it('describes problem+json: a 400 lists its errors, the others have none; 401, 405, 429 and 503 carry their headers', () => {
    const { schemas, responses } = document.components;
    expect(schemas.ValidationProblem).toMatchObject({ required: expect.arrayContaining(['type', 'title', 'status', 'detail', 'errors']) });
    expect(schemas.Problem).toMatchObject({ required: ['type', 'title', 'status', 'detail'], additionalProperties: false });
    expect(JSON.stringify(responses.BadRequest)).toContain('#/components/schemas/ValidationProblem');
    expect(responses.Unauthorized?.headers).toHaveProperty('WWW-Authenticate');
    expect(responses.MethodNotAllowed?.headers).toHaveProperty('Allow');
    expect(responses.TooManyRequests?.headers).toHaveProperty('Retry-After');
    expect(responses.ServiceUnavailable?.headers).toHaveProperty('Retry-After');
    expect(responses.PayloadTooLarge).toBeDefined();
  });

  it('describes what the service sends: read-only and extra fields, defaults, nullable fields', () => {
    const { schemas } = document.components;
    const required = (name: string) => (schemas[name] as { required: string[] }).required;
    expect(required('Domain')).toEqual(expect.arrayContaining(['id', 'name', 'path', 'url', 'country', 'locales', 'consentStorage']));
    expect(required('Embedding')).toEqual(expect.arrayContaining(['id', 'active', 'tcfVendor', 'assets']));
    expect(required('OnboardingScanResult')).toEqual(
      expect.arrayContaining(['address', 'imprintUrl', 'privacyPolicyUrl', 'availablePresets', 'storage', 'url', 'pages', 'durationMs']),
    );
    expect(JSON.stringify(schemas.Theme)).toContain('"logoImage":{');
    expect(schemas.CreatedApiKey).toMatchObject({ required: expect.arrayContaining(['key']) });
    expect(schemas.ApiKey).toMatchObject({ additionalProperties: false });
    expect((schemas.ApiKey as { required: string[] }).required).not.toContain('key');
  });
});

describe('the harness check against the document', () => {
  const validator = createOpenApiValidator(buildOpenApiDocument(openApiSource(PUBLIC_BASE_URL)));
  const exchange = (method: string, path: string, status: number, body: unknown, headers: Record<string, string> = {}): Exchange => {
    const text = body === undefined ? '' : JSON.stringify(body);
    const type = status >= 400 ? 'application/problem+json' : 'application/json';
    return { method, path, status, headers: new Headers({ ...(text ? { 'content-type': type } : {}), ...headers }), body: body ?? '', text };
  };
  const notFound = { type: '/problems/not-found', title: 'Not Found', status: 404, detail: 'no' };
  const client = {
    id: '01950000-0000-7000-8000-000000000000',
    username: 'a',
    emailAddress: 'a@example.org',
    firstName: '',
    lastName: '',
    company: '',
    active: false,
    domainCount: 1,
    domainMaxCount: 0,
    whitelabelCount: 0,
    whitelabelMaxCount: 0,
    widgetDisplayCount: 0,
    widgetDisplayMaxCount: -1,
    autoCreateDomains: false,
    features: Object.fromEntries(CLIENT_FEATURES.map((name) => [name, false])),
  };
  /** The same client as "read all clients" lists it. */
  const listed = { ...client, actualCallCount: 0, domainCountData: [{ domName: 'www.example.org', count: 0 }] };

  it('takes answers the document describes', () => {
    validator.check(exchange('GET', '/hosting/api/client', 200, [listed]));
    validator.check(exchange('GET', `/hosting/api/client/${client.id}/`, 404, notFound));
    validator.check(exchange('DELETE', `/hosting/api/client/${client.id}`, 204, undefined));
    validator.check(exchange('GET', '/hosting/api/nothing', 404, { ...notFound }));
    validator.check(exchange('PATCH', '/hosting/api/client', 405, { ...notFound, type: '/problems/method-not-allowed', title: 'Method Not Allowed', status: 405 }, { allow: 'POST, GET, HEAD' }));
  });

  it.each([
    ['an undocumented status', exchange('GET', '/hosting/api/client', 404, notFound)],
    ['a body the schema refuses', exchange('GET', '/hosting/api/client', 200, [{ ...listed, id: 7 }])],
    ['a property the schema does not have', exchange('GET', '/hosting/api/client', 200, [{ ...listed, secret: 'x' }])],
    ['a missing property', exchange('GET', `/hosting/api/client/${client.id}`, 200, { ...client, username: undefined })],
    ['a problem of the wrong status', exchange('GET', `/hosting/api/client/${client.id}`, 404, { ...notFound, status: 400 })],
    ['a body on a 204', exchange('DELETE', `/hosting/api/client/${client.id}`, 204, { ok: true })],
    ['a path no route has, answered 200', exchange('GET', '/hosting/api/nothing', 200, [])],
    ['a 405 whose Allow differs from the document', exchange('PATCH', '/hosting/api/client', 405, { ...notFound, status: 405 }, { allow: 'GET' })],
    ['a 401 without WWW-Authenticate', exchange('GET', '/hosting/api/client', 401, { type: '/problems/unauthenticated', title: 'Unauthorized', status: 401, detail: 'no' })],
    ['a readiness answer of another shape', exchange('GET', '/readyz', 200, { status: 'up' })],
    ['a health answer on a status the probe never sends', exchange('GET', '/healthz', 503, { status: 'ok' })],
    ['metrics as JSON', exchange('GET', '/metrics', 200, { up: 1 })],
  ])('refuses %s', (_, answer) => {
    expect(() => validator.check(answer)).toThrow(OpenApiMismatch);
  });
});

/** Every answer below passes the harness check against the document (test/support/service.ts). */
describe('the public endpoints answer as the document says', () => {
  const anyone = () => service.as(null);

  it('/healthz, /readyz, and /metrics for the administrator key only', async () => {
    expect((await anyone().rest('GET', '/healthz')).status).toBe(200);
    expect((await anyone().rest('GET', '/readyz')).status).toBe(200);
    const metrics = await service.raw({ method: 'GET', path: '/metrics' });
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect((await anyone().raw({ method: 'GET', path: '/metrics' })).status).toBe(401);
  });

  it('/app.js: the script of a domain, 304 for a current copy, 400 for a malformed id, 404 for an unknown domain, 405 for a POST', async () => {
    const domain = await createDomain(service);
    const script = await anyone().raw({ method: 'GET', path: `/app.js?domain=${domain.domainId}` });
    expect(script.status).toBe(200);
    const again = await anyone().raw({ method: 'GET', path: `/app.js?domain=${domain.domainId}`, headers: { 'if-none-match': script.headers.get('etag')! } });
    expect(again.status).toBe(304);
    expect((await anyone().raw({ method: 'GET', path: '/app.js?domain=not-an-id' })).status).toBe(400);
    expect((await anyone().raw({ method: 'GET', path: `/app.js?domain=${unknownId()}` })).status).toBe(404);
    expect((await anyone().raw({ method: 'POST', path: `/app.js?domain=${domain.domainId}` })).status).toBe(405);
  });

  it("/consent: the document's example (its domain unknown here) as JSON and as text, a bad record, a GET", async () => {
    const content = document.paths['/consent']!.post!.requestBody!.content;
    expect((await anyone().rest('POST', '/consent', content['application/json']!.example)).status).toBe(404);
    const asText = await anyone().raw({ method: 'POST', path: '/consent', body: content['text/plain']!.example as string, headers: { 'content-type': 'text/plain' } });
    expect(asText.status).toBe(404);
    expect((await anyone().rest('POST', '/consent', { choice: 'all' })).status).toBe(400);
    expect((await anyone().raw({ method: 'GET', path: '/consent' })).status).toBe(405);
  });
});

describe('GET /docs', () => {
  const assetUrls = (html: string) => [...html.matchAll(/<(?:script|link|img|iframe)\b[^>]*?\b(?:src|href)\s*=\s*["']([^"']+)["']/gi)].map((m) => m[1]!);

  it('serves an HTML page without a key that loads only assets of this service, each answering 200', async () => {
    const page = await service.as(null).raw({ method: 'GET', path: '/docs', headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const urls = assetUrls(page.text);
    expect(urls.length).toBeGreaterThan(0);
    expect(page.text).not.toMatch(/(?:src|href)\s*=\s*["'](?:https?:)?\/\//i);
    for (const url of urls) {
      expect(url, url).toMatch(/^\/docs\/assets\//);
      const asset = await service.as(null).raw({ method: 'GET', path: url });
      expect(asset.status, url).toBe(200);
      expect(asset.headers.get('content-type'), url).toMatch(/^text\/javascript/);
    }
    const start = await service.as(null).raw({ method: 'GET', path: '/docs/assets/start.js' });
    expect(start.text).toContain('"url":"/openapi.json"');
    expect(start.text).toContain('"withDefaultFonts":false');
  });

  it('renders in a browser with this service as its only source (security headers as served)', { timeout: 60_000 }, async () => {
    const binary = await findChromium(process.env.CHROME_PATH);
    const browser = await puppeteer.launch({ executablePath: binary.path, headless: 'shell', args: CHROMIUM_FLAGS });
    try {
      const page = await browser.newPage();
      const elsewhere: string[] = [];
      const problems: string[] = [];
      page.on('request', (request) => {
        const url = request.url();
        if (!url.startsWith(service.baseUrl) && !/^(?:data|blob|about):/.test(url)) elsewhere.push(url);
      });
      page.on('pageerror', (error) => problems.push(String(error)));
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(message.text());
      });
      await page.goto(`${service.baseUrl}/docs`, { waitUntil: 'networkidle0', timeout: 30_000 });
      // The title comes from the document, the operation from its paths: Scalar read /openapi.json.
      await page.waitForFunction(
        `document.body.innerText.includes(${JSON.stringify(document.info.title)}) && document.body.innerText.includes('Create client')`,
        { timeout: 20_000 },
      );
      expect(elsewhere).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
