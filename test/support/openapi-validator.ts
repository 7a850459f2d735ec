import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import {
  buildOpenApiDocument,
  ERROR_RESPONSE_NAMES,
  type JsonSchema,
  type OpenApiDocument,
  type OpenApiOperation,
  type OpenApiResponse,
} from '../../src/openapi/document.ts';
import { PROBLEM_TYPE } from '../../src/kernel/problem.ts';
import { openApiSource } from '../../src/app/http-app.ts';

/**
 * Holds every answer of the REST layer that the test harness receives against the OpenAPI
 * document: the method and path must match an operation (or be a path no route has: 404, or a
 * method the path does not take: 405 with `Allow`), the status must be documented for it, the
 * documented headers must be there, and the body must be of the documented media type and
 * validate against the documented schema. A mismatch throws, so the test that made the request
 * fails and the document cannot drift from the behaviour.
 */

export type Exchange = { method: string; path: string; status: number; headers: Headers; body: unknown; text: string };

/** Paths the REST document does not describe. */
const OUTSIDE = [/^\/graphql(?:\/|$)/, /^\/graphiql\//, /^\/openapi\.json$/, /^\/docs(?:\/|$)/];

/** What any request can get before it reaches a route: no or a wrong key, a rate limit. */
const BEFORE_ROUTING = [401, 429];

const DOC_ID = 'urn:openapi:rest';
const SCHEMA_REF = '#/components/schemas/';
const RESPONSE_REF = '#/components/responses/';

/** Deep copy with `#/components/schemas/X` references pointing into the schema Ajv knows the components as. */
function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key,
      key === '$ref' && typeof inner === 'string' && inner.startsWith(SCHEMA_REF)
        ? `${DOC_ID}#/$defs/${inner.slice(SCHEMA_REF.length)}`
        : rewriteRefs(inner),
    ]),
  );
}

type Template = { template: string; pattern: RegExp; operations: Record<string, OpenApiOperation> };

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `/a/{x}/b` → a regular expression matching a request path as the REST router does (case-sensitive, optional trailing slash). */
function templatePattern(template: string): RegExp {
  const source = template
    .split(/(\{\w+\})/)
    .map((part) => (/^\{\w+\}$/.test(part) ? '[^/]+' : escapeRegExp(part)))
    .join('');
  return new RegExp(`^${source}/?$`);
}

const bareMediaType = (type: string) => type.split(';')[0]!.trim().toLowerCase();
const mediaTypeOf = (headers: Headers) => bareMediaType(headers.get('content-type') ?? '');

export class OpenApiMismatch extends Error {
  override name = 'OpenApiMismatch';
}

export function createOpenApiValidator(document: OpenApiDocument) {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  addFormats.default(ajv);
  ajv.addSchema({ $id: DOC_ID, $defs: rewriteRefs(document.components.schemas) as Record<string, JsonSchema> });
  const templates: Template[] = Object.entries(document.paths).map(([template, operations]) => ({
    template,
    pattern: templatePattern(template),
    operations,
  }));
  const compiled = new Map<string, ValidateFunction>();

  const resolve = (response: OpenApiResponse | { $ref: string }): OpenApiResponse => {
    if (!('$ref' in response)) return response;
    const name = response.$ref.slice(RESPONSE_REF.length);
    const resolved = document.components.responses[name];
    if (!resolved) throw new Error(`the document refers to a response ${response.$ref} it does not have`);
    return resolved;
  };

  const validatorFor = (key: string, schema: JsonSchema) => {
    let validate = compiled.get(key);
    if (!validate) {
      validate = ajv.compile(rewriteRefs(schema) as JsonSchema);
      compiled.set(key, validate);
    }
    return validate;
  };

  /** The answer against one documented response (its headers, media type and body). */
  function checkAgainst(exchange: Exchange, response: OpenApiResponse, where: string, fail: (why: string) => never): void {
    for (const [name, header] of Object.entries(response.headers ?? {})) {
      if (header.required && !exchange.headers.has(name)) fail(`the header ${name} is missing`);
    }
    const content = response.content;
    if (!content) {
      if (exchange.text !== '') fail(`a body was sent where none is documented: ${exchange.text.slice(0, 200)}`);
      return;
    }
    if (exchange.method === 'HEAD') return;
    const mediaType = mediaTypeOf(exchange.headers);
    // A documented media type may carry parameters (`text/plain; version=0.0.4`).
    const documented = Object.entries(content).find(([type]) => bareMediaType(type) === mediaType)?.[1];
    if (!documented) fail(`content type ${mediaType || '(none)'} is not documented (documented: ${Object.keys(content).join(', ')})`);
    const validate = validatorFor(`${where} ${mediaType}`, documented.schema);
    if (!validate(exchange.body)) {
      fail(`the body does not match the documented schema: ${ajv.errorsText(validate.errors, { separator: '; ' })}`);
    }
  }

  return {
    document,
    /** What is wrong with `value` against `schema` (which may refer to the document's components), or undefined when nothing is. */
    schemaErrors(schema: JsonSchema, value: unknown): string | undefined {
      const validate = validatorFor(JSON.stringify(schema), schema);
      return validate(value) ? undefined : ajv.errorsText(validate.errors, { separator: '; ' });
    },
    /** Throws an OpenApiMismatch when the answer is not what the document says. */
    check(exchange: Exchange): void {
      const path = exchange.path.split('?')[0]!;
      const method = exchange.method.toUpperCase();
      if (OUTSIDE.some((pattern) => pattern.test(path)) || method === 'OPTIONS') return;
      const fail = (why: string): never => {
        throw new OpenApiMismatch(
          `${exchange.method} ${exchange.path} answered ${exchange.status}, which the OpenAPI document does not describe: ${why}\n` +
            `body: ${exchange.text.slice(0, 500)}`,
        );
      };
      const problemOf = (status: number) => {
        const name = ERROR_RESPONSE_NAMES[status];
        const response = name === undefined ? undefined : document.components.responses[name];
        if (!response?.content?.[PROBLEM_TYPE]) fail(`no problem response is documented for status ${status}`);
        return { name: name!, response: response! };
      };

      const template = templates.find((candidate) => candidate.pattern.test(path));
      if (!template) {
        // A path no route has: 404 problem+json (or refused before routing).
        if (exchange.status !== 404 && !BEFORE_ROUTING.includes(exchange.status)) fail('a path that matches no route must answer 404');
        const { name, response } = problemOf(exchange.status);
        return checkAgainst(exchange, response, `unrouted ${name}`, fail);
      }

      // HEAD takes the GET's answer without its body, unless the GET says it refuses HEAD.
      const headRefused = template.operations.get?.['x-head'] === false;
      const operation = method === 'HEAD' && headRefused ? undefined : template.operations[(method === 'HEAD' ? 'GET' : method).toLowerCase()];
      if (!operation) {
        // A known path, a method it does not take: 405 with exactly the documented methods in Allow.
        if (exchange.status !== 405 && !BEFORE_ROUTING.includes(exchange.status)) {
          fail(`${method} is not documented for ${template.template}, so it must answer 405`);
        }
        const { name, response } = problemOf(exchange.status);
        checkAgainst(exchange, response, `unrouted ${name}`, fail);
        if (exchange.status === 405) {
          const documented = Object.keys(template.operations).map((m) => m.toUpperCase());
          if (documented.includes('GET') && !headRefused) documented.push('HEAD');
          // OPTIONS is a CORS preflight's (POST /consent takes one), not an operation of the document.
          const allow = (exchange.headers.get('allow') ?? '').split(',').map((m) => m.trim()).filter((m) => m !== '' && m !== 'OPTIONS');
          if ([...allow].sort().join() !== [...documented].sort().join()) {
            fail(`Allow says ${allow.join(', ')}, the document ${documented.join(', ')}`);
          }
        }
        return;
      }

      const documented = operation.responses[String(exchange.status)];
      if (!documented) {
        fail(`status ${exchange.status} is not documented for ${operation.operationId} (documented: ${Object.keys(operation.responses).join(', ')})`);
      }
      checkAgainst(exchange, resolve(documented!), `${operation.operationId} ${exchange.status}`, fail);
    },
  };
}

export type OpenApiValidator = ReturnType<typeof createOpenApiValidator>;

let shared: OpenApiValidator | undefined;

/** One validator per test process, over the document as the service builds it. */
export function openApiValidator(serverUrl: string): OpenApiValidator {
  shared ??= createOpenApiValidator(buildOpenApiDocument(openApiSource(serverUrl)));
  return shared;
}
