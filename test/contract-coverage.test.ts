import { readFile } from 'node:fs/promises';
import { getNamedType, GraphQLInputObjectType, GraphQLNonNull, GraphQLObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { restRoutes } from '../rest-adapter/routes.ts';
import { apiKeyFields, createdApiKeyFields } from '../src/features/api-keys/api-key.contract.ts';
import { bannerWarningFields } from '../src/features/banner-check/banner-warning.contract.ts';
import { clientCreate, clientFields, clientUpdate } from '../src/features/clients/client.contract.ts';
import { domainCreate, domainFields, domainUpdate } from '../src/features/domains/domain.contract.ts';
import { assetCreate, assetFields, assetUpdate } from '../src/features/embeddings/embedding-asset.contract.ts';
import { embeddingCreate, embeddingFields, embeddingUpdate } from '../src/features/embeddings/embedding.contract.ts';
import { localeCreate, localeFields, localeUpdate } from '../src/features/locales/locale.contract.ts';
import { placeholderCreate, placeholderFields, placeholderUpdate } from '../src/features/placeholders/placeholder.contract.ts';
import { themeCreate, themeFields, themeUpdate } from '../src/features/themes/theme.contract.ts';
import { type FieldList, sentSchema, takenSchema } from '../src/kernel/contract/field-list.ts';
import { schema } from '../src/app/graphql-schema.ts';

/** The contract the route table is held to: docs/REST-CONTRACT.md, read from the repository. */
const CONTRACT = new URL('../docs/REST-CONTRACT.md', import.meta.url);
const DOMAIN_PREFIX = '/hosting/api/client/:clientId/domain/:domainId';

/** The rows of one of the contract's operation tables: name, method, path, success status, error statuses. */
async function contractTable(heading: string, nextHeading: string, prefix: string) {
  const contract = await readFile(CONTRACT, 'utf8');
  const start = contract.indexOf(heading);
  const end = contract.indexOf(nextHeading);
  expect(start, `${heading} in docs/REST-CONTRACT.md`).toBeGreaterThanOrEqual(0);
  expect(end, `${nextHeading} in docs/REST-CONTRACT.md`).toBeGreaterThan(start);
  const section = contract.slice(start, end);
  return [...section.matchAll(/^\| ([^|]+?) \| (GET|POST|PUT|DELETE) (\S+) \| [^|]* \| (\d{3})[^|]* \| ([^|]*) \|$/gm)].map(
    ([, name, method, path, success, errors]) => ({
      name: name!,
      method: method!,
      path: `${prefix}${path!.replace(/\{(\w+)\}/g, ':$1')}`,
      success: Number(success),
      errors: errors!.split(',').map((code) => Number(code.trim())).filter(Boolean),
    }),
  );
}

/** The domain-level operations; their paths follow the prefix /hosting/api/client/{clientId}/domain/{domainId}. */
const domainOperations = () => contractTable('## Domain-level operations', '## Management routes', DOMAIN_PREFIX);
/** Clients, their API keys and domains; full paths. */
const managementOperations = () => contractTable('## Management routes', '## Rules for every route', '');

type Operation = Awaited<ReturnType<typeof contractTable>>[number];

function expectRouteFor(operation: Operation) {
  const route = restRoutes.find((r) => r.method === operation.method && r.path === operation.path);
  expect(route, `${operation.name}: ${operation.method} ${operation.path}`).toBeDefined();
  expect(route!.status, operation.name).toBe(operation.success);
  expect(route!.errors, operation.name).toEqual(expect.arrayContaining(operation.errors));
}

describe('the REST route table against the contract (docs/REST-CONTRACT.md)', () => {
  it('has a route with the same success status and error statuses for every operation of the table', async () => {
    const operations = await domainOperations();
    expect(operations).toHaveLength(30);
    for (const operation of operations) {
      expect(operation.path.startsWith(`${DOMAIN_PREFIX}/`), operation.name).toBe(true);
      expectRouteFor(operation);
    }
  });

  it('has the management routes for clients, their API keys, webhooks and domains', () => {
    const management = restRoutes.filter((r) => !r.path.includes('/domain/:domainId/')).map((r) => `${r.method} ${r.path}`);
    expect(management.sort()).toEqual(
      [
        'POST /hosting/api/client',
        'GET /hosting/api/client',
        'GET /hosting/api/client/:clientId',
        'PUT /hosting/api/client/:clientId',
        'DELETE /hosting/api/client/:clientId',
        'GET /hosting/api/clientgetid/:searchTerm',
        'POST /hosting/api/client/:clientId/domain',
        'GET /hosting/api/client/:clientId/domain',
        'GET /hosting/api/client/:clientId/domain/:domainId',
        'PUT /hosting/api/client/:clientId/domain/:domainId',
        'DELETE /hosting/api/client/:clientId/domain/:domainId',
        'POST /hosting/api/client/:clientId/apikey',
        'GET /hosting/api/client/:clientId/apikey',
        'DELETE /hosting/api/client/:clientId/apikey',
        'DELETE /hosting/api/client/:clientId/apikey/:keyId',
        'GET /hosting/api/client/:clientId/webhook',
        'PUT /hosting/api/client/:clientId/webhook',
        'DELETE /hosting/api/client/:clientId/webhook',
      ].sort(),
    );
  });

  it('documents exactly those management routes, each with its route\'s success status and error statuses', async () => {
    const operations = await managementOperations();
    const management = restRoutes.filter((r) => !r.path.includes('/domain/:domainId/')).map((r) => `${r.method} ${r.path}`);
    expect(operations.map((o) => `${o.method} ${o.path}`).sort()).toEqual(management.sort());
    for (const operation of operations) expectRouteFor(operation);
  });
});

/**
 * Fields a client may send back but never sets: those its field list marks read-only. An asset
 * in an embedding's `assets` may carry its id, so that it keeps it; GraphQL offers that field on
 * EmbeddingAssetInput.
 */
const READ_ONLY = new Set(
  [clientFields, domainFields].flatMap((list) => Object.entries(list as FieldList).flatMap(([key, field]) => (field.readOnly ? [key] : []))),
);

describe('GraphQL inputs against the contract schemas', () => {
  const pairs: [string, z.ZodObject][] = [
    ['ClientCreateInput', clientCreate],
    ['ClientUpdateInput', clientUpdate],
    ['DomainCreateInput', domainCreate],
    ['DomainUpdateInput', domainUpdate],
    ['PlaceholderInput', placeholderCreate],
    ['PlaceholderUpdateInput', placeholderUpdate],
    ['EmbeddingCreateInput', embeddingCreate],
    ['EmbeddingUpdateInput', embeddingUpdate],
    ['EmbeddingAssetInput', assetCreate],
    ['EmbeddingAssetUpdateInput', assetUpdate],
    ['ThemeCreateInput', themeCreate],
    ['ThemeUpdateInput', themeUpdate],
    ['LocaleCreateInput', localeCreate],
    ['LocaleUpdateInput', localeUpdate],
  ];

  it.each(pairs)('%s has exactly the writable fields of the payload, required where the payload requires them', (typeName, payload) => {
    const type = schema.getType(typeName);
    expect(type).toBeInstanceOf(GraphQLInputObjectType);
    const fields = (type as GraphQLInputObjectType).getFields();
    const graphqlFields = Object.fromEntries(
      Object.values(fields).map((field) => [field.name, field.type instanceof GraphQLNonNull]),
    );
    const contractFields = Object.fromEntries(
      Object.entries(payload.shape)
        .filter(([key]) => !READ_ONLY.has(key) || (typeName === 'EmbeddingAssetInput' && key === 'id'))
        .map(([key, field]) => [key, !(field as z.ZodType).safeParse(undefined).success]),
    );
    expect(graphqlFields).toEqual(contractFields);
  });
});

/**
 * The GraphQL type the JSON schema of a value calls for (the JSON schema the OpenAPI document
 * publishes), as graphql-js prints it but for the outer `!`, and whether null is a value: a
 * scalar or a list of scalars; undefined for objects and maps, which a GraphQL type declares.
 * A field called `id` is an ID.
 */
type JsonSchema = { type?: string | string[]; anyOf?: JsonSchema[]; items?: JsonSchema };
const SCALARS: Partial<Record<string, string>> = { string: 'String', boolean: 'Boolean', integer: 'Int', number: 'Float' };

function expectedGraphqlType(key: string, schema: z.ZodType, io: 'input' | 'output') {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  // Null is a value either as one of `anyOf` or as one of several `type`s.
  const options = json.anyOf ?? (Array.isArray(json.type) ? json.type.map((type) => ({ ...json, type })) : [json]);
  const values = options.filter((option) => option.type !== 'null');
  const nullable = values.length < options.length;
  const scalarOf = (value: JsonSchema | undefined) =>
    key === 'id' && value?.type === 'string' ? 'ID' : SCALARS[String(value?.type)];
  const [value] = values;
  if (values.length !== 1 || !value) return { type: undefined, nullable };
  if (value.type !== 'array') return { type: scalarOf(value), nullable };
  const item = scalarOf(value.items);
  return { type: item && `[${item}!]`, nullable };
}

/** Every payload's field list with the GraphQL object type it is sent as. */
const OUTPUTS: [string, FieldList][] = [
  ['Client', clientFields],
  ['ApiKey', apiKeyFields],
  ['CreatedApiKey', createdApiKeyFields],
  ['Domain', domainFields],
  ['Placeholder', placeholderFields],
  ['Embedding', embeddingFields],
  ['EmbeddingAsset', assetFields],
  ['Theme', themeFields],
  ['Locale', localeFields],
  ['BannerWarning', bannerWarningFields],
];

/** Every GraphQL input type of a payload, with its field list, the write it is for and any field of its own. */
const INPUTS: [string, FieldList, 'create' | 'update', string[]][] = [
  ['ClientCreateInput', clientFields, 'create', []],
  ['ClientUpdateInput', clientFields, 'update', []],
  ['ApiKeyInput', apiKeyFields, 'create', []],
  ['DomainCreateInput', domainFields, 'create', []],
  ['DomainUpdateInput', domainFields, 'update', []],
  ['PlaceholderInput', placeholderFields, 'create', []],
  ['PlaceholderUpdateInput', placeholderFields, 'update', []],
  ['EmbeddingCreateInput', embeddingFields, 'create', []],
  ['EmbeddingUpdateInput', embeddingFields, 'update', []],
  ['EmbeddingAssetInput', assetFields, 'create', ['id']],
  ['EmbeddingAssetUpdateInput', assetFields, 'update', []],
  ['ThemeCreateInput', themeFields, 'create', []],
  ['ThemeUpdateInput', themeFields, 'update', []],
  ['LocaleCreateInput', localeFields, 'create', []],
  ['LocaleUpdateInput', localeFields, 'update', []],
];

describe('GraphQL types against the payload field lists', () => {
  it.each(OUTPUTS)('%s has every field of its field list, of the type the field\'s schema calls for', (typeName, fields) => {
    const type = schema.getType(typeName);
    expect(type).toBeInstanceOf(GraphQLObjectType);
    const graphqlFields = (type as GraphQLObjectType).getFields();
    for (const [key, field] of Object.entries(fields)) {
      if (field.writeOnly) {
        expect(graphqlFields[key], `${typeName}.${key} is write-only`).toBeUndefined();
        continue;
      }
      const graphqlField = graphqlFields[key];
      expect(graphqlField, `${typeName}.${key}`).toBeDefined();
      const expected = expectedGraphqlType(key, sentSchema(field), 'output');
      if (expected.type) {
        expect(String(graphqlField!.type), `${typeName}.${key}`).toBe(expected.nullable ? expected.type : `${expected.type}!`);
      } else {
        expect(getNamedType(graphqlField!.type), `${typeName}.${key} is an object type`).toBeInstanceOf(GraphQLObjectType);
      }
    }
  });

  it.each(INPUTS)('%s has exactly the written fields of its field list, of the types their schemas call for', (typeName, fields, write, own) => {
    const type = schema.getType(typeName);
    expect(type).toBeInstanceOf(GraphQLInputObjectType);
    const graphqlFields = (type as GraphQLInputObjectType).getFields();
    const written = Object.entries(fields).flatMap(([key, field]) => {
      const taken = takenSchema(field, write);
      return taken && !field.readOnly ? [{ key, taken, required: write === 'create' && field.required === true }] : [];
    });
    expect(Object.keys(graphqlFields).sort()).toEqual([...written.map(({ key }) => key), ...own].sort());
    for (const { key, taken, required } of written) {
      const graphqlType = graphqlFields[key]!.type;
      const expected = expectedGraphqlType(key, taken, 'input');
      if (expected.type) {
        expect(String(graphqlType), `${typeName}.${key}`).toBe(required ? `${expected.type}!` : expected.type);
      } else {
        expect(graphqlType instanceof GraphQLNonNull, `${typeName}.${key} is required`).toBe(required);
        expect(getNamedType(graphqlType), `${typeName}.${key} is an input object type`).toBeInstanceOf(GraphQLInputObjectType);
      }
    }
  });
});
