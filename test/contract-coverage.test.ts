import { readFile } from 'node:fs/promises';
import { GraphQLInputObjectType, GraphQLNonNull } from 'graphql';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { restRoutes } from '../rest-adapter/routes.ts';
import { clientCreate, clientUpdate } from '../src/features/clients/client.contract.ts';
import { domainCreate, domainUpdate } from '../src/features/domains/domain.contract.ts';
import { assetCreate, assetUpdate } from '../src/features/embeddings/embedding-asset.contract.ts';
import { embeddingCreate, embeddingUpdate } from '../src/features/embeddings/embedding.contract.ts';
import { placeholderCreate, placeholderUpdate } from '../src/features/placeholders/placeholder.contract.ts';
import { themeCreate, themeUpdate } from '../src/features/themes/theme.contract.ts';
import { schema } from '../src/graphql/schema.ts';

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
    expect(operations).toHaveLength(25);
    for (const operation of operations) {
      expect(operation.path.startsWith(`${DOMAIN_PREFIX}/`), operation.name).toBe(true);
      expectRouteFor(operation);
    }
  });

  it('has the management routes for clients, their API keys and domains', () => {
    const management = restRoutes.filter((r) => !r.path.includes('/domain/:domainId/')).map((r) => `${r.method} ${r.path}`);
    expect(management.sort()).toEqual(
      [
        'POST /hosting/api/client',
        'GET /hosting/api/client',
        'GET /hosting/api/client/:clientId',
        'PUT /hosting/api/client/:clientId',
        'DELETE /hosting/api/client/:clientId',
        'POST /hosting/api/client/:clientId/domain',
        'GET /hosting/api/client/:clientId/domain',
        'GET /hosting/api/client/:clientId/domain/:domainId',
        'PUT /hosting/api/client/:clientId/domain/:domainId',
        'DELETE /hosting/api/client/:clientId/domain/:domainId',
        'POST /hosting/api/client/:clientId/apikey',
        'GET /hosting/api/client/:clientId/apikey',
        'DELETE /hosting/api/client/:clientId/apikey/:keyId',
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
 * Fields a client may send back but never sets. An asset in an embedding's `assets` may carry
 * its id, so that it keeps it; GraphQL offers that field on EmbeddingAssetInput.
 */
const READ_ONLY = new Set(['id', 'path', 'url']);

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
