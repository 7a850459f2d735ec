import { compileErrors, validate } from '@readme/openapi-parser';
import puppeteer from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restRoutes } from '../rest-adapter/routes.ts';
import { CLIENT_FEATURES } from '../src/features/clients/client.contract.ts';
import { CHROMIUM_FLAGS, findChromium } from '../src/scanner/chromium.ts';
import {
  buildOpenApiDocument,
  documentedErrors,
  type OpenApiDocument,
  type OpenApiOperation,
  openApiPath,
} from '../src/openapi/document.ts';
import { openApiSource } from '../src/app/http-app.ts';
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
    expect(document.servers).toEqual([{ url: PUBLIC_BASE_URL }]);
    expect(document.components.securitySchemes).toEqual({
      apiKey: expect.objectContaining({ type: 'apiKey', in: 'query', name: 'apiKey' }),
      bearer: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
    });
    expect(document.security).toEqual([{ apiKey: [] }, { bearer: [] }]);
  });

  it('has one operation per row of the route table, and no other', () => {
    const operations = Object.values(document.paths).flatMap((item) => Object.values(item));
    expect(operations).toHaveLength(restRoutes.length);
    expect(new Set(operations.map((operation) => operation.operationId)).size).toBe(restRoutes.length);
    for (const route of restRoutes) expect(operationOf(route), `${route.method} ${route.path}`).toBeDefined();
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
  ])('refuses %s', (_, answer) => {
    expect(() => validator.check(answer)).toThrow(OpenApiMismatch);
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
