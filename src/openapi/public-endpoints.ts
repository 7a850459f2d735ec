import { z } from 'zod';
import { CONSENT_BODY_LIMIT, consentIntake } from '../features/consents/consent.contract.ts';
import { PUBLIC_INTAKE_HEADERS } from '../features/consents/consent-intake.routes.ts';
import type { ConsentReceipt } from '../features/consents/consent-records.ts';

/**
 * The endpoints outside the hosting API that the OpenAPI document describes beside the REST
 * table: what the banner loads and posts, the probes, the metrics. Their routes are written by
 * hand (banner.routes.ts, consent-intake.routes.ts, http-app.ts), so these entries are too;
 * bodies and answers use the schemas the code parses with where it has them. document.ts turns
 * them into operations; test/support/openapi-validator.ts holds every answer the tests get
 * from them against the document.
 */

export const PUBLIC_TAG = {
  name: 'Public endpoints',
  description:
    "Outside the hosting API: the banner's script and the consent records it sends (no key, any origin), " +
    'the health and readiness probes (no key), and the Prometheus metrics (the administrator key).',
};

type HeaderText = { description: string; required?: true; schema: Record<string, unknown> };

export type PublicAnswer = {
  description: string;
  headers?: Record<string, HeaderText>;
  /** A JSON body of this schema. */
  json?: z.ZodType;
  /** A body of another media type, with its JSON schema. */
  media?: { type: string; schema: Record<string, unknown> };
  /** A problem+json body, of the schema every error of the service has. */
  problem?: true;
};

export type PublicEndpoint = {
  method: 'get' | 'post';
  path: string;
  operationId: string;
  summary: string;
  description: string;
  /** `anyone`: no key; `administrator`: the administrator key, as the API takes keys. */
  caller: 'anyone' | 'administrator';
  /** Its query parameters: an object, each property one parameter. */
  query?: z.ZodType;
  /** Its JSON body (the schema's `.meta({ examples })` gives the example); `asText`: the same JSON may come as text/plain. */
  body?: { schema: z.ZodType; asText?: true };
  /** Statuses not in `errors` below: each with its answer. */
  responses: Record<number, PublicAnswer>;
  /** Error statuses whose answer is the API's own (`components.responses`), as the HTTP edge sends it. */
  sharedErrors?: number[];
};

// ── answers ──────────────────────────────────────────────────────────────────

/** What /healthz answers while the process runs. */
const health = z.strictObject({ status: z.literal('ok') }).meta({ id: 'Health' });

const checkResults = (description: string) => z.record(z.string(), z.string()).meta({ description });

/** What /readyz answers (src/http/readiness.ts). */
const readiness = z
  .strictObject({
    status: z.enum(['ready', 'not ready', 'stopping']).meta({ description: '`stopping` from SIGTERM on, with no checks.' }),
    checks: checkResults('Each check by name (`database`, `migrations`): `ok`, or a few fixed words saying what is wrong (the cause is logged).'),
    optional: checkResults(
      "Parts the service answers without (`browser`: the scanner's browser; while it does not start, scans answer 503), said the same way.",
    ).optional(),
  })
  .meta({ id: 'Readiness' });

/** What POST /consent answers once the record is stored. */
const consentReceipt = z
  .strictObject({
    consentId: z.uuid().meta({ description: 'The consent id, as sent.' }),
    receivedAt: z.iso.datetime().meta({ description: 'When the record was stored (ISO 8601, UTC).' }),
  })
  .meta({ id: 'ConsentReceipt' });

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const agree = <_T extends true>() => undefined;
agree<Same<z.output<typeof consentReceipt>, ConsentReceipt>>();

const text = (description: string): HeaderText => ({ description, required: true, schema: { type: 'string' } });
const always = (value: string): HeaderText => ({ description: `Always \`${value}\`.`, required: true, schema: { const: value } });

/** The headers the banner's script is sent with (banner.routes.ts, `sendScript`). */
const SCRIPT_HEADERS: Record<string, HeaderText> = {
  ETag: text('The version of the script; send it back as `If-None-Match` for a 304.'),
  'Cache-Control': text(
    '`public, max-age=60, stale-while-revalidate=86400, stale-if-error=86400`, or `no-cache` where the domain turned caching off (`frontendWidgetCache`) or the copy is stale.',
  ),
  'Access-Control-Allow-Origin': always('*'),
  'Cross-Origin-Resource-Policy': always('cross-origin'),
};

/** The headers of every answer of the consent intake (consent-intake.routes.ts). */
const INTAKE_HEADERS = Object.fromEntries(
  (['Access-Control-Allow-Origin', 'Cross-Origin-Resource-Policy', 'Cache-Control'] as const).map((name) => [name, always(PUBLIC_INTAKE_HEADERS[name])]),
);

const bannerQuery = z.object({
  domain: z
    .uuid()
    .optional()
    .meta({ description: 'The id of the domain whose banner to load, as the snippet writes it. Either this or `client`.' }),
  client: z
    .uuid()
    .optional()
    .meta({
      description:
        "The key-less snippet of a client with `autoCreateDomains`: the page's host (Referer, else Origin) picks the client's domain, created when there is none; the answer is a 302 to that domain's address.",
    }),
  lang: z
    .string()
    .optional()
    .meta({
      description: "An active locale of the domain (`de_DE`, also written `de-DE`) that the banner speaks; absent or another: the visitor's browser language picks one.",
    }),
});

const ADMINISTRATOR_ONLY = 'Any key but the administrator\'s: the metrics are only the administrator\'s, and are "not found" for everyone else.';

export const PUBLIC_ENDPOINTS: readonly PublicEndpoint[] = [
  {
    method: 'get',
    path: '/app.js',
    operationId: 'getBannerScript',
    summary: "The banner's script",
    description:
      "What the snippet loads on the operator's pages: the consent banner of a domain with its configuration, as JavaScript. No key, no cookie, any origin; cacheable by browsers and CDNs.",
    caller: 'anyone',
    query: bannerQuery,
    responses: {
      200: {
        description: 'The script (gzipped when the browser takes it).',
        headers: {
          ...SCRIPT_HEADERS,
          'X-Banner-Stale': {
            description: 'Present when the database could not be read and this is the last built copy (then `no-cache`).',
            schema: { type: 'string' },
          },
        },
        media: { type: 'text/javascript', schema: { type: 'string' } },
      },
      302: {
        description: "`client` was given: to the address of the banner of the client's domain of the page's host.",
        headers: { Location: text('`/app.js?domain=…`, with `lang` when it was given.') },
      },
      304: { description: 'The browser\'s copy (`If-None-Match`) is current.', headers: SCRIPT_HEADERS },
      400: {
        description:
          '`domain` (or `client`) is not a UUID, `lang` is given twice, or a `client` load names no page (no Referer or Origin) or was opened as a page (`Sec-Fetch-Dest`).',
        problem: true,
      },
      404: {
        description: 'No such domain; for `client`: no such client with `autoCreateDomains`, or no domain of the page\'s host that may be created by itself.',
        problem: true,
      },
      409: { description: '`client`: the client has as many domains as it may (`domainMaxCount`); none was created.', problem: true },
      429: {
        description: 'Too many loads from this address that the memory could not answer, or too many domains created by themselves for the client this hour.',
        problem: true,
      },
      503: { description: 'The database is unreachable and no copy of the banner was built; try again.', problem: true },
    },
  },
  {
    method: 'post',
    path: '/consent',
    operationId: 'recordConsent',
    summary: "Record a visitor's choice",
    description:
      "What the banner sends for each choice a visitor makes. No key, any origin; stored before it is acknowledged. The body may come as `text/plain` (so that the browser sends it without a CORS preflight). A record must name a revision the domain published and only services and categories that revision offered.",
    caller: 'anyone',
    body: { schema: consentIntake, asText: true },
    responses: {
      201: { description: 'Stored.', headers: INTAKE_HEADERS, json: consentReceipt },
      400: {
        description: 'The record is invalid (every bad field listed), names a revision the domain did not publish, or services or categories that revision did not offer. Nothing was stored.',
        problem: true,
      },
      404: { description: 'No such domain.', problem: true },
      413: { description: `The body is larger than ${CONSENT_BODY_LIMIT / 1024} KiB.`, problem: true },
      429: { description: 'Too many records from this address.', problem: true },
      503: { description: 'The database is unreachable; try again.', problem: true },
    },
  },
  {
    method: 'get',
    path: '/healthz',
    operationId: 'getHealth',
    summary: 'Liveness',
    description: 'Whether the process is alive: it answers without touching the database.',
    caller: 'anyone',
    responses: { 200: { description: 'Alive.', json: health } },
  },
  {
    method: 'get',
    path: '/readyz',
    operationId: 'getReadiness',
    summary: 'Readiness',
    description:
      'Whether the service can do its work: the database answers and every migration is applied. The answer is public, so it says what is wrong in a few fixed words.',
    caller: 'anyone',
    responses: {
      200: { description: 'Ready: every check is `ok`.', json: readiness },
      503: { description: 'Not ready (each failed check named), or stopping (from SIGTERM on).', json: readiness },
    },
  },
  {
    method: 'get',
    path: '/metrics',
    operationId: 'getMetrics',
    summary: 'Metrics',
    description: 'The Prometheus metrics of this process (HTTP, GraphQL, scans, the database pool, Node.js). Only for the administrator key.',
    caller: 'administrator',
    responses: {
      200: { description: 'The metrics in the Prometheus text format.', media: { type: 'text/plain; version=0.0.4', schema: { type: 'string' } } },
      404: { description: ADMINISTRATOR_ONLY, problem: true },
    },
    sharedErrors: [401, 403, 429, 503],
  },
];
