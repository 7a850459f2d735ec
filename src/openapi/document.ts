import { readFileSync } from 'node:fs';
import type { RequestHandler } from 'express';
import { z } from 'zod';
import { MAX_ITEMS } from '../kernel/contract/fields.ts';
import { BODY_LIMIT_TEXT } from '../kernel/limits.ts';
import { problem, type Problem, PROBLEM_TYPE } from '../kernel/problem.ts';
import type { Feature, RestRoute } from '../features/feature.ts';
import { PUBLIC_ENDPOINTS, PUBLIC_TAG, type PublicAnswer, type PublicEndpoint } from './public-endpoints.ts';

/**
 * The OpenAPI 3.1 document of the REST layer, generated from the route rows and the contract's
 * zod schemas: schema names come from `.meta({ id })` on the schemas, request examples from their
 * `.meta({ examples })`, tags and parameter texts from the features. Nothing in it is a
 * hand-written copy of a payload or a list of resources. The endpoints outside the hosting API
 * (app.js, /consent, the probes, the metrics) come from public-endpoints.ts.
 */

export type JsonSchema = { [key: string]: unknown };
export type OpenApiDocument = {
  openapi: string;
  info: { title: string; version: string; description: string };
  servers: { url: string; description: string }[];
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: {
    schemas: Record<string, JsonSchema>;
    responses: Record<string, OpenApiResponse>;
    securitySchemes: Record<string, JsonSchema>;
  };
  security: Record<string, string[]>[];
  tags: { name: string; description: string }[];
};
export type OpenApiResponse = {
  description: string;
  headers?: Record<string, { description: string; required: boolean; schema: JsonSchema }>;
  content?: Record<string, { schema: JsonSchema }>;
};
export type OpenApiOperation = {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  parameters?: { name: string; in: 'path' | 'query'; required: boolean; description: string; schema: JsonSchema }[];
  requestBody?: { required: true; content: Record<string, { schema: JsonSchema; example: unknown }> };
  responses: Record<string, OpenApiResponse | { $ref: string }>;
  /** `[]` on an endpoint that takes no key; absent: the document's (a key). */
  security?: Record<string, string[]>[];
  /** false on a GET whose HEAD is refused (405), because answering it would do the GET's whole work. */
  'x-head'?: false;
};

const JSON_TYPE = 'application/json';

// ── problem+json (RFC 9457) ──────────────────────────────────────────────────

const fieldProblem = z.strictObject({
  path: z.string().meta({ description: 'JSON pointer (RFC 6901) into the payload; empty for the payload itself.' }),
  message: z.string(),
});

const problemFields = {
  type: z.string().meta({ format: 'uri-reference', description: 'The kind of problem, e.g. `/problems/not-found`.' }),
  title: z.string().meta({ description: 'The HTTP status text.' }),
  status: z.int().min(400).max(599),
  detail: z.string().meta({ description: 'What went wrong, for a person.' }),
};

/** Every error answer but a 400. */
const problemResponse = z.strictObject(problemFields).meta({ id: 'Problem' });
/** A 400: every bad field listed (nothing was stored). */
const validationProblemResponse = z.strictObject({
  ...problemFields,
  errors: z.array(fieldProblem).meta({ description: 'Every problem of the payload, one entry per field.' }),
}).meta({ id: 'ValidationProblem' });

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const agree = <_T extends true>() => undefined;
agree<Same<Problem, z.output<typeof problemResponse> & Partial<Pick<z.output<typeof validationProblemResponse>, 'errors'>>>>();

// ── schemas ──────────────────────────────────────────────────────────────────

const SCHEMA_REF = '#/components/schemas/';
const LOCAL_REF = /"#\/\$defs\//g;

/** Drops the keys that only a stand-alone JSON schema carries. */
function embeddable(schema: JsonSchema): JsonSchema {
  const { $schema: _schema, $id: _id, $defs: _defs, ...rest } = schema;
  return rest;
}

/**
 * Converts schemas with zod's JSON Schema generator, draft 2020-12 (`io` input for bodies, output
 * for answers). Every schema with an `id` in its metadata becomes a component that the others
 * refer to; the rest are written inline.
 */
function converter(io: 'input' | 'output') {
  const components: Record<string, JsonSchema> = {};
  const schemaOf = (schema: z.ZodType): JsonSchema => {
    const converted = JSON.parse(
      JSON.stringify(z.toJSONSchema(schema, { target: 'draft-2020-12', io })).replace(LOCAL_REF, `"${SCHEMA_REF}`),
    ) as JsonSchema;
    for (const [id, definition] of Object.entries((converted.$defs ?? {}) as Record<string, JsonSchema>)) {
      if (id.startsWith('__schema')) throw new Error(`schema ${id} has no id: give it one with .meta({ id })`);
      const text = JSON.stringify(definition);
      if (components[id] && JSON.stringify(components[id]) !== text) throw new Error(`two different schemas are named ${id}`);
      components[id] = definition;
    }
    return embeddable(converted);
  };
  return { components, schemaOf };
}

// ── the parts of an operation ────────────────────────────────────────────────

const staticSegments = (path: string) => path.split('/').filter((segment) => segment !== '' && !segment.startsWith(':'));

/** A path segment as a part of an identifier: `apikey` → `ApiKey`, `script-findings` → `ScriptFindings`, `evidence.html` → `EvidenceHtml`. */
const pascal = (segment: string) =>
  segment === 'apikey' ? 'ApiKey' : segment.split(/[-.]/).map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join('');

/** `Embedding` → `Embeddings`; a segment that is a plural already (`bannerWarnings`) stays as it is. */
const plural = (name: string) => (name.endsWith('s') ? name : `${name}s`);

/** Last path segments that name an action on the object before them, not a collection of it. */
const ACTIONS = new Set(['diff', 'restore', 'evidence', 'evidence.html']);

/** What an operation id may be: a name every client generator keeps as it is. */
const OPERATION_ID = /^[a-z][A-Za-z0-9]*$/;

/** `createEmbedding`, `listEmbeddings`, `getConsentEvidenceHtml`, … from method and path, unless the row names its own. */
function operationIdOf(row: RestRoute): string {
  if (row.operationId) return row.operationId;
  const segments = staticSegments(row.path);
  const last = segments.at(-1)!;
  if (segments.at(-2) === 'onboarding' || segments.at(-2) === 'consent') return `${row.method.toLowerCase()}${pascal(segments.at(-2)!)}${pascal(last)}`;
  // An action on one object (`/revision/:revisionId/restore`): `restoreRevision`, `getRevisionDiff`.
  if (ACTIONS.has(last) && row.path.endsWith(`/:${segments.at(-2)}Id/${last}`)) {
    return row.method === 'POST' ? `${last}${pascal(segments.at(-2)!)}` : `get${pascal(segments.at(-2)!)}${pascal(last)}`;
  }
  const item = row.path.endsWith(`/${last}`) ? 'collection' : 'item';
  const verb = { GET: item === 'item' ? 'get' : 'list', POST: 'create', PUT: item === 'item' ? 'update' : 'replace', DELETE: 'delete' }[
    row.method
  ];
  return `${verb}${item === 'collection' && row.method !== 'POST' ? plural(pascal(last)) : pascal(last)}`;
}

/** `/a/:x/b` → `/a/{x}/b` */
export const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

/** The summary, with what it says in brackets moved to the description. */
function summaryOf(row: RestRoute): { summary: string; description?: string } {
  const match = /^(.*?) \((.*)\)$/.exec(row.summary);
  const head = row.head === false ? ' HEAD is refused (405): answering it would do the whole work.' : '';
  if (!match) return { summary: row.summary, ...(head ? { description: head.trim() } : {}) };
  return { summary: match[1]!, description: `${match[2]!.charAt(0).toUpperCase()}${match[2]!.slice(1)}.${head}` };
}

/** `components.responses` names of the error statuses. */
export const ERROR_RESPONSE_NAMES: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  409: 'Conflict',
  413: 'PayloadTooLarge',
  429: 'TooManyRequests',
  500: 'InternalServerError',
  503: 'ServiceUnavailable',
};

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: `The payload is invalid (every bad field is listed as a JSON pointer), the body is not JSON or of the wrong shape, an array holds more than ${MAX_ITEMS.toLocaleString('en')} items, a path parameter is not valid percent-encoded UTF-8, or a locale name in the path is not one. Nothing was stored.`,
  401: 'No API key, or one that is not valid.',
  403: "The key's client is not active, or a client key tried what only the administrator may do to a client's account (change its username, `active`, quotas, `autoCreateDomains` or `features`, delete it, revoke a key this key did not create), or a client key set or changed code that runs on visitors' pages (an embedding's `scriptHtmlCode`, a theme's `customCss` or `customCssForIframeBlocker`) while its client's feature `canUseScripts`, `canUseIndCSS` or `canUseIframeCSS` is off, or used what another switched-off feature governs (`canUseOwnLogo`, `canUseIframes`, `canUseConsentSharing`, `canUseIAB`, `moreThan2Lang`; the answer names the switch).",
  404: 'No such client, domain, embedding or object (also on create), or one that this key may not reach.',
  405: 'A known path with a method it does not take; `Allow` lists the methods it takes.',
  409: "A conflict: the name is already used (a placeholder or a locale in the domain, a username), the domain's last active locale would go, a scan of the domain is already running, the client already holds the most API keys it may, or a client key's write would take its client beyond `domainMaxCount` or `whitelabelMaxCount` (the detail names the quota).",
  413: `The request body is larger than ${BODY_LIMIT_TEXT}.`,
  429: 'Over the rate limit of the key, too many failed authentications from this address, or too many scans at once.',
  500: 'The scan could not crawl the site (no answer, unknown host, time-out, browser failure), or something unexpected happened (logged, not shown).',
  503: 'The database is unreachable; try again.',
};

const HEADERS: Record<number, OpenApiResponse['headers']> = {
  401: { 'WWW-Authenticate': { description: 'Always `Bearer`.', required: true, schema: { type: 'string' } } },
  405: { Allow: { description: 'The methods this path takes.', required: true, schema: { type: 'string' } } },
  429: { 'Retry-After': { description: 'Seconds until trying again makes sense.', required: true, schema: { type: 'integer' } } },
  503: { 'Retry-After': { description: 'Seconds until trying again makes sense.', required: true, schema: { type: 'integer' } } },
};

/** The problem+json answer of a status: its `type`, `title` and `status` are those the service sends. */
function errorResponse(status: number, description = ERROR_DESCRIPTIONS[status]!): OpenApiResponse {
  const sample = problem(status, '');
  return {
    description,
    ...(HEADERS[status] ? { headers: HEADERS[status] } : {}),
    content: {
      [PROBLEM_TYPE]: {
        schema: {
          allOf: [
            { $ref: `${SCHEMA_REF}${status === 400 ? 'ValidationProblem' : 'Problem'}` },
            {
              type: 'object',
              properties: { type: { const: sample.type }, title: { const: sample.title }, status: { const: status } },
            },
          ],
        },
      },
    },
  };
}

const hasPathParameters = (row: RestRoute) => row.path.includes('/:');

/** The query parameters of a row, from the JSON schema of its query object (each property one parameter). */
function queryParameters(schema: JsonSchema): NonNullable<OpenApiOperation['parameters']> {
  if (schema.$ref || schema.type !== 'object') throw new Error('a query schema must be an object without an id (each property becomes a parameter)');
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...rest } = property;
    return { name, in: 'query' as const, required: required.has(name), description: String(description ?? name), schema: rest };
  });
}

/**
 * Statuses an operation can answer besides those of its row, from the HTTP layer rather than
 * the operation: no or a wrong key, a key of an inactive client, rate limits, the database gone; 413 where a body is read;
 * 400 where a path parameter is not valid percent-encoded UTF-8 (the router cannot decode it).
 */
const crossCutting = (row: RestRoute) => [
  401,
  403,
  429,
  503,
  ...(row.body ? [413] : []),
  ...(hasPathParameters(row) || row.query ? [400] : []),
];

export const documentedErrors = (row: RestRoute): number[] =>
  [...new Set([...row.errors, ...crossCutting(row)])].sort((a, b) => a - b);

const SUCCESS_DESCRIPTIONS = { 200: 'OK', 201: 'Created', 204: 'Done; no body.' } as const;

/** Headers of a success answer: where a created resource is, and that a secret may not be cached. */
function successHeaders(row: RestRoute): Pick<OpenApiResponse, 'headers'> {
  const headers: NonNullable<OpenApiResponse['headers']> = {
    ...(row.location ? { Location: { description: 'The address of the resource just created.', required: true, schema: { type: 'string' } } } : {}),
    ...(row.secret ? { 'Cache-Control': { description: '`no-store`: the answer holds a secret.', required: true, schema: { const: 'no-store' } } } : {}),
  };
  return Object.keys(headers).length > 0 ? { headers } : {};
}

/** The example of a request body: the first of its schema's `.meta({ examples })`, which every body schema must have. */
function exampleOf(schema: z.ZodType, where: string): unknown {
  const examples = z.globalRegistry.get(schema)?.examples;
  if (!Array.isArray(examples) || examples.length === 0) throw new Error(`the body of ${where} has no example: give its schema .meta({ examples: [...] })`);
  return examples[0];
}

type Converter = ReturnType<typeof converter>;

/** One of the endpoints outside the hosting API, as an operation. */
function publicOperation(endpoint: PublicEndpoint, requests: Converter, responses: Converter): OpenApiOperation {
  const where = `${endpoint.method.toUpperCase()} ${endpoint.path}`;
  const answer = (status: number, { description, headers, json, media, problem: isProblem }: PublicAnswer): OpenApiResponse => {
    if (isProblem) return errorResponse(status, description);
    return {
      description,
      ...(headers
        ? { headers: Object.fromEntries(Object.entries(headers).map(([name, header]) => [name, { ...header, required: header.required ?? false }])) }
        : {}),
      ...(json ? { content: { [JSON_TYPE]: { schema: responses.schemaOf(json) } } } : {}),
      ...(media ? { content: { [media.type]: { schema: media.schema } } } : {}),
    };
  };
  const body = endpoint.body;
  const example = body && exampleOf(body.schema, where);
  return {
    operationId: endpoint.operationId,
    summary: endpoint.summary,
    description: endpoint.description,
    tags: [PUBLIC_TAG.name],
    ...(endpoint.caller === 'anyone' ? { security: [] } : {}),
    ...(endpoint.query ? { parameters: queryParameters(requests.schemaOf(endpoint.query)) } : {}),
    ...(body
      ? {
          requestBody: {
            required: true as const,
            content: {
              [JSON_TYPE]: { schema: requests.schemaOf(body.schema), example },
              ...(body.asText ? { 'text/plain': { schema: { type: 'string', description: 'The same JSON, as text.' }, example: JSON.stringify(example) } } : {}),
            },
          },
        }
      : {}),
    responses: {
      ...Object.fromEntries(Object.entries(endpoint.responses).map(([status, response]) => [status, answer(Number(status), response)])),
      ...Object.fromEntries((endpoint.sharedErrors ?? []).map((status) => [status, { $ref: `#/components/responses/${ERROR_RESPONSE_NAMES[status]}` }])),
    },
  };
}

// ── the document ─────────────────────────────────────────────────────────────

const packageVersion = (): string =>
  (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

const DESCRIPTION = `The REST layer of the consent domain configuration service, with the paths, payloads and
status codes of CCM19's hosting API. Generated from the service's route table and payload schemas.

**Authentication.** Every request to the hosting API presents an API key, as the query parameter \`apiKey\` or as
\`Authorization: Bearer …\` (the public endpoints say what they take). An administrator key reaches every client; a client key reaches only its own
client's paths (anything else answers 404, exactly like an id that does not exist).

**Errors** are \`${PROBLEM_TYPE}\` (RFC 9457): \`type\`, \`title\`, \`status\`, \`detail\`, and for a 400 an \`errors\`
list of \`{ path, message }\` with a JSON pointer into the payload. A path that matches no route answers 404;
a known path with a method it does not take answers 405 with \`Allow\`.

**Limits.** A body over ${BODY_LIMIT_TEXT} answers 413; an array payload or field over ${MAX_ITEMS.toLocaleString('en')} items answers 400;
over the rate limit 429 with \`Retry-After\`. A 400 changes nothing: a bulk request with one bad item stores none of them.`;

export type OpenApiSource = {
  serverUrl: string;
  routes: readonly RestRoute[];
  /** Where the tags' and path parameters' texts come from. */
  features: readonly Pick<Feature, 'tags' | 'parameters'>[];
};

export function buildOpenApiDocument({ serverUrl, routes, features }: OpenApiSource): OpenApiDocument {
  const requests = converter('input');
  const responses = converter('output');
  responses.schemaOf(problemResponse);
  responses.schemaOf(validationProblemResponse);
  const tags = features.flatMap((feature) => feature.tags ?? []);
  const parameterTexts: Record<string, string> = Object.assign({}, ...features.map((feature) => feature.parameters ?? {}));

  const paths: OpenApiDocument['paths'] = {};
  const operationIds = new Set<string>();
  const takeOperationId = (operationId: string) => {
    if (!OPERATION_ID.test(operationId)) throw new Error(`operationId ${operationId} is not a plain name (${OPERATION_ID})`);
    if (operationIds.has(operationId)) throw new Error(`operationId ${operationId} is taken twice`);
    operationIds.add(operationId);
    return operationId;
  };
  const usedStatuses = new Set<number>([405]);
  for (const row of routes) {
    const operationId = takeOperationId(operationIdOf(row));
    if (row.status !== 204 && !row.response && !row.produces) throw new Error(`${row.method} ${row.path} has no response schema`);

    const params = [...row.path.matchAll(/:(\w+)/g)].map((match) => match[1]!);
    const errors = documentedErrors(row);
    errors.forEach((status) => usedStatuses.add(status));
    const parameters = [
      ...params.map((name) => ({
        name,
        in: 'path' as const,
        required: true,
        description: parameterTexts[name] ?? name,
        schema: { type: 'string' },
      })),
      ...(row.query ? queryParameters(requests.schemaOf(row.query)) : []),
    ];
    const operation: OpenApiOperation = {
      operationId,
      ...summaryOf(row),
      tags: [row.tag],
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(row.body
        ? {
            requestBody: {
              required: true as const,
              content: { [JSON_TYPE]: { schema: requests.schemaOf(row.body), example: exampleOf(row.body, `${row.method} ${row.path}`) } },
            },
          }
        : {}),
      ...(row.head === false ? { 'x-head': false as const } : {}),
      responses: {
        [row.status]: {
          description: SUCCESS_DESCRIPTIONS[row.status],
          ...successHeaders(row),
          ...(row.produces
            ? { content: { [row.produces]: { schema: { type: 'string' } } } }
            : row.response
              ? { content: { [JSON_TYPE]: { schema: responses.schemaOf(row.response) } } }
              : {}),
        },
        ...Object.fromEntries(errors.map((status) => [status, { $ref: `#/components/responses/${ERROR_RESPONSE_NAMES[status]}` }])),
      },
    };
    (paths[openApiPath(row.path)] ??= {})[row.method.toLowerCase()] = operation;
  }
  for (const endpoint of PUBLIC_ENDPOINTS) {
    takeOperationId(endpoint.operationId);
    endpoint.sharedErrors?.forEach((status) => usedStatuses.add(status));
    (paths[endpoint.path] ??= {})[endpoint.method] = publicOperation(endpoint, requests, responses);
  }

  for (const id of Object.keys(requests.components)) {
    if (id in responses.components) throw new Error(`schema ${id} is both a request and a response schema`);
  }
  const usedTags = new Set(routes.map((row) => row.tag));
  for (const tag of usedTags) if (!tags.some((known) => known.name === tag)) throw new Error(`no feature describes the tag ${tag}`);
  return {
    openapi: '3.1.0',
    info: { title: 'Consent domain configuration service — REST API', version: packageVersion(), description: DESCRIPTION },
    servers: [{ url: serverUrl, description: 'This service, at the address its PUBLIC_BASE_URL setting names.' }],
    tags: [...tags.filter((tag) => usedTags.has(tag.name)), PUBLIC_TAG],
    security: [{ apiKey: [] }, { bearer: [] }],
    paths,
    components: {
      schemas: { ...requests.components, ...responses.components },
      responses: Object.fromEntries(
        [...usedStatuses].sort((a, b) => a - b).map((status) => {
          const name = ERROR_RESPONSE_NAMES[status];
          if (!name) throw new Error(`no response description for status ${status}`);
          return [name, errorResponse(status)];
        }),
      ),
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'query', name: 'apiKey', description: 'The API key as a query parameter, as the real API takes it.' },
        bearer: { type: 'http', scheme: 'bearer', description: 'The API key as `Authorization: Bearer <key>`.' },
      },
    },
  };
}

/** The address openapi.json in the repository names as its server: PUBLIC_BASE_URL's default form. */
export const COMMITTED_SERVER_URL = 'http://localhost:4000';

/** The document as openapi.json in the repository holds it (`npm run openapi:print` writes it; a test compares). */
export const printedOpenApiDocument = (source: OpenApiSource): string => `${JSON.stringify(buildOpenApiDocument(source), null, 2)}\n`;

/**
 * GET /openapi.json: the document, built at the first request and kept. Its server is the one
 * `source` names (the PUBLIC_BASE_URL setting), never the request's Host.
 */
export function openApiDocumentHandler(source: OpenApiSource): RequestHandler {
  let body: string | undefined;
  return (_req, res) => {
    body ??= JSON.stringify(buildOpenApiDocument(source));
    res.type(JSON_TYPE).send(body);
  };
}
