import { request as httpRequest } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restRoutes } from '../rest-adapter/routes.ts';
import type { RestRoute } from '../src/features/feature.ts';
import { hostileValue, jsonOf, oddPathSegment, PROTO_KEYS, unicodeText } from './support/arbitraries.ts';
import { routeLabel as label, pathOf, samplePayload, seedWorld, stateOf, type World } from './support/route-world.ts';
import { openApiValidator } from './support/openapi-validator.ts';
import { ADMIN_KEY, type HttpAnswer, PUBLIC_BASE_URL, startTestService, type TestService } from './support/service.ts';

/**
 * Hostile and random input on every route of the REST table (SERVICE.md §3): bodies with wrong
 * types, huge strings, deep nesting, odd Unicode, prototype-pollution keys and junk, and odd
 * path ids. Every answer is a status the route documents (or 400/404/405/413), never a 500, and
 * a refused request leaves the stored state as it was.
 */

let service: TestService;
let casesRun = 0;
const statusesSeen = new Map<number, number>();
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  const statuses = [...statusesSeen].sort(([a], [b]) => a - b).map(([status, count]) => `${status}×${count}`);
  console.log(`bad-input properties: ${casesRun} generated requests checked in total (${statuses.join(', ')})`);
  await service.close();
});

// ── the route table, read as data ───────────────────────────────────────────

const allowedStatuses = (route: RestRoute) => new Set([route.status, ...route.errors, 400, 404, 405, 413]);

type SchemaDef = { type: string; shape?: Record<string, unknown>; element?: { def: SchemaDef } };
/** Whether the body is an array payload, and the property names its (item) object knows. */
function bodyShape(route: RestRoute): { array: boolean; fields: string[] } {
  const def = (route.body as unknown as { def: SchemaDef }).def;
  if (def.type === 'array') return { array: true, fields: Object.keys(def.element?.def.shape ?? {}) };
  return { array: false, fields: Object.keys(def.shape ?? {}) };
}

// ── sending verbatim ────────────────────────────────────────────────────────

type Request = { method: string; path: string; body?: string | Buffer; headers?: Record<string, string> };

/** fetch (service.raw) resolves `.`/`..` segments, also `%2e`; such paths go out verbatim by node:http. */
const hasDotSegment = (path: string) => path.split('/').some((segment) => /^(?:\.|%2e){1,2}$/i.test(segment));

function verbatim({ method, path, body, headers = {} }: Request): Promise<HttpAnswer> {
  const { hostname, port } = new URL(service.baseUrl);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: hostname,
        port,
        method,
        path,
        headers: {
          authorization: `Bearer ${ADMIN_KEY}`,
          ...(body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) }),
        },
      },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('error', reject);
        incoming.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const answerHeaders = new Headers();
          for (const [name, value] of Object.entries(incoming.headers)) {
            if (value !== undefined) answerHeaders.set(name, Array.isArray(value) ? value.join(', ') : value);
          }
          const isJson = /json/.test(answerHeaders.get('content-type') ?? '');
          const answer = { status: incoming.statusCode ?? 0, headers: answerHeaders, text, body: isJson && text ? JSON.parse(text) : text };
          try {
            openApiValidator(PUBLIC_BASE_URL).check({ method, path, ...answer });
          } catch (mismatch) {
            return reject(mismatch);
          }
          resolve(answer);
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

const send = (req: Request) => (hasDotSegment(req.path) ? verbatim(req) : service.raw(req));

// ── checking one answer ─────────────────────────────────────────────────────

type Checker = (route: RestRoute, answer: HttpAnswer, what: string) => Promise<void>;

/** A checker remembering the last state it saw; a 4xx must leave that state unchanged. */
function checkerFor(world: World, initial: Awaited<ReturnType<typeof stateOf>>, trackState: boolean): Checker {
  let last = initial;
  return async (route, answer, what) => {
    casesRun += 1;
    statusesSeen.set(answer.status, (statusesSeen.get(answer.status) ?? 0) + 1);
    const summary = `${route.method} ${what} → ${answer.status} ${answer.text.slice(0, 300)}`;
    expect([...allowedStatuses(route)], summary).toContain(answer.status);
    if (answer.status >= 400) {
      expect(answer.headers.get('content-type'), summary).toMatch(/^application\/problem\+json/);
      expect(answer.body?.status, summary).toBe(answer.status);
      if (answer.status === 400) expect(Array.isArray(answer.body.errors), summary).toBe(true);
    }
    expect(({} as Record<string, unknown>).polluted, 'Object.prototype was polluted').toBeUndefined();
    if (!trackState) return;
    const now = await stateOf(service, world);
    if (answer.status >= 400) expect(now, `state changed by a refused request: ${summary}`).toEqual(last);
    last = now;
  };
}

// ── arbitraries: hostile JSON (support/arbitraries.ts), as text ─────────────

/** The JSON text of one (mostly wrong) field value. */
const valueText = hostileValue.map(jsonOf);

const objectText = (entries: [string, string][]) => `{${entries.map(([key, value]) => `${JSON.stringify(key)}:${value}`).join(',')}}`;

/** Hostile bodies for a route: its sample with hostile fields laid over it, wrong shapes, junk. */
function hostileBody(route: RestRoute): fc.Arbitrary<{ body: string | Buffer; contentType: string | undefined }> {
  const { array, fields } = bodyShape(route);
  const sample = (tag: string) => samplePayload(route, tag);
  const key = fc.oneof(
    { weight: 6, arbitrary: fields.length > 0 ? fc.constantFrom(...fields) : fc.constant('name') },
    { weight: 2, arbitrary: fc.constantFrom(...PROTO_KEYS) },
    { weight: 1, arbitrary: unicodeText },
  );
  const item = fc
    .record({
      tag: fc.uuid(),
      keepSample: fc.boolean(),
      // Sometimes a plausible value (any text), so some bodies pass validation and reach the database.
      overrides: fc.array(fc.tuple(key, fc.oneof({ weight: 3, arbitrary: valueText }, { weight: 1, arbitrary: unicodeText.map((t) => JSON.stringify(t)) })), { maxLength: 4 }),
    })
    .map(({ tag, keepSample, overrides }) => {
      const base = sample(tag);
      const baseObject = (Array.isArray(base) ? base[0] : base) as Record<string, unknown>;
      const baseEntries = keepSample ? Object.entries(baseObject).map(([k, v]): [string, string] => [k, JSON.stringify(v)]) : [];
      // Later duplicate keys win in JSON.parse, so an override replaces the sample's value.
      return objectText([...baseEntries, ...overrides]);
    });
  const items = fc.array(item, { minLength: 1, maxLength: 4 }).map((list) => `[${list.join(',')}]`);
  const shaped = array ? items : item;
  const wrongShape = array ? item : items;
  const text = fc.oneof(
    { weight: 8, arbitrary: shaped },
    { weight: 1, arbitrary: wrongShape },
    { weight: 1, arbitrary: fc.array(valueText, { maxLength: 8 }).map((junk) => `[${junk.join(',')}]`) },
    { weight: 1, arbitrary: valueText },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }) },
  );
  const body = fc.oneof(
    { weight: 9, arbitrary: text },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes)) },
  );
  const contentType = fc.constantFrom(
    'application/json',
    'application/json',
    'application/json; charset=utf-8',
    'text/plain',
    'application/json; charset=latin1',
    undefined,
  );
  return fc.limitShrink(fc.record({ body, contentType }), 200);
}

// ── the properties ──────────────────────────────────────────────────────────

const BODY_RUNS = 50;
const PATH_RUNS = 25;
const bodyRoutes = restRoutes.filter((route) => route.body !== undefined);
const routesWithParams = restRoutes.filter((route) => route.path.includes(':'));

describe('hostile bodies on every route that takes one', () => {
  it.each(bodyRoutes.map((route) => [label(route), route] as const))(
    '%s: documented status, never 500; a refusal changes nothing',
    async (_, route) => {
      const world = await seedWorld(service);
      const check = checkerFor(world, await stateOf(service, world), true);
      const path = pathOf(route, world);
      await fc.assert(
        fc.asyncProperty(hostileBody(route), async ({ body, contentType }) => {
          const answer = await send({
            method: route.method,
            path,
            body,
            headers: contentType === undefined ? {} : { 'content-type': contentType },
          });
          await check(route, answer, `${path} with ${contentType ?? 'no content type'}`);
        }),
        { numRuns: BODY_RUNS },
      );
    },
    60_000,
  );
});

describe('odd path ids on every route', () => {
  it.each(routesWithParams.map((route) => [label(route), route] as const))(
    '%s: 4xx from the documented set for any odd id; a refusal changes nothing',
    async (_, route) => {
      const world = await seedWorld(service);
      const params = [...route.path.matchAll(/:(\w+)/g)].map((match) => match[1]!);
      const check = checkerFor(world, await stateOf(service, world), route.method !== 'GET');
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...params), oddPathSegment, fc.uuid(), async (param, segment, tag) => {
          const path = pathOf(route, world, { param, segment });
          const answer = await send({
            method: route.method,
            path,
            ...(route.body ? { body: JSON.stringify(samplePayload(route, tag)), headers: { 'content-type': 'application/json' } } : {}),
          });
          // No seeded object has this id: whatever the route, nothing is found or the id is malformed.
          expect(answer.status, `${route.method} ${path.slice(0, 300)} → ${answer.status}`).toBeGreaterThanOrEqual(400);
          await check(route, answer, path.slice(0, 300));
        }),
        {
          numRuns: PATH_RUNS,
          // Always tried on the addressed object's id: NUL, a lone surrogate, a dot segment.
          examples: ['%00', 'a%00b', '%ED%A0%80', '..'].map((segment): [string, string, string] => [params.at(-1)!, segment, '01900000-0000-7000-8000-000000000001']),
        },
      );
    },
    60_000,
  );
});
