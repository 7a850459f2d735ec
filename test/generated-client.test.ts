import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { codegen } from '@graphql-codegen/core';
import * as typescriptOperationsPlugin from '@graphql-codegen/typescript-operations';
import { parse } from 'graphql';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Clients generated from the committed contracts compile: TypeScript types made by
 * openapi-typescript from openapi.json, used with openapi-fetch, and by GraphQL Code Generator
 * (typescript-operations) from schema.graphql and an operation, used with fetch — as
 * an integrator would. A sample that gets a field's type wrong must not compile, which shows the
 * types are real and not `any`.
 */

const OPENAPI = new URL('../openapi.json', import.meta.url);
const GRAPHQL_SCHEMA = new URL('../schema.graphql', import.meta.url);

/** The integrator's GraphQL operations, which the generator types. */
const GRAPHQL_OPERATIONS = `
query DomainPlaceholders($clientId: ID!, $id: ID!) {
  domain(clientId: $clientId, id: $id) { name placeholders { name value } }
}
mutation AddPlaceholder($clientId: ID!, $domainId: ID!, $input: PlaceholderInput!) {
  createPlaceholder(clientId: $clientId, domainId: $domainId, input: $input) { name value }
}
`;

/** A sample over the generated GraphQL types: read a domain's placeholders, add one. */
const graphqlSample = (placeholderValue: string) => `
import type { AddPlaceholderMutation, AddPlaceholderMutationVariables, DomainPlaceholdersQuery, DomainPlaceholdersQueryVariables } from './graphql.ts';

async function request<Result, Variables>(endpoint: string, apiKey: string, query: string, variables: Variables): Promise<Result> {
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: \`Bearer \${apiKey}\` },
    body: JSON.stringify({ query, variables }),
  });
  const { data, errors } = (await response.json()) as { data?: Result; errors?: { message: string }[] };
  if (!data) throw new Error(errors?.map((error) => error.message).join('; '));
  return data;
}

export async function addPlaceholder(endpoint: string, apiKey: string, clientId: string, domainId: string): Promise<string[]> {
  const read = await request<DomainPlaceholdersQuery, DomainPlaceholdersQueryVariables>(endpoint, apiKey, 'query DomainPlaceholders …', { clientId, id: domainId });
  const names: string[] = read.domain.placeholders.map((placeholder) => placeholder.name);
  const added = await request<AddPlaceholderMutation, AddPlaceholderMutationVariables>(endpoint, apiKey, 'mutation AddPlaceholder …', {
    clientId,
    domainId,
    input: { name: 'Firma_Web', value: ${placeholderValue} },
  });
  const value: string = added.createPlaceholder.value;
  return [...names, value];
}
`;
const NODE_MODULES = fileURLToPath(new URL('../node_modules', import.meta.url));

/** A sample integration over the REST types: list a client's domains, add a placeholder to the first. */
const restSample = (placeholderValue: string) => `
import createClient from 'openapi-fetch';
import type { components, paths } from './openapi.ts';

type Domain = components['schemas']['Domain'];

export async function firstDomainGetsAPlaceholder(baseUrl: string, apiKey: string, clientId: string): Promise<string[]> {
  const api = createClient<paths>({ baseUrl, headers: { Authorization: \`Bearer \${apiKey}\` } });
  const { data: domains, error } = await api.GET('/hosting/api/client/{clientId}/domain', { params: { path: { clientId } } });
  if (error) throw new Error(\`\${error.status} \${error.detail}\`);
  const first: Domain | undefined = domains[0];
  if (first) {
    const created = await api.POST('/hosting/api/client/{clientId}/domain/{domainId}/placeholder', {
      params: { path: { clientId, domainId: first.id } },
      body: { name: 'Firma_Web', value: ${placeholderValue} },
    });
    const value: string | undefined = created.data?.value;
    if (value === undefined) throw new Error(created.error?.detail);
  }
  return domains.map((domain) => domain.name);
}
`;

let dir: string;
/** Each sample file → its type errors. */
let errors: Map<string, string[]>;

/** The type errors of `files`, compiled together as strict TypeScript against the DOM's fetch (what openapi-fetch uses). */
function typeErrors(files: string[]): Map<string, string[]> {
  const program = ts.createProgram(files, {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    allowImportingTsExtensions: true,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    types: [],
    skipLibCheck: true,
  });
  const found = new Map<string, string[]>(files.map((file) => [file, []]));
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const file = diagnostic.file?.fileName ?? '(no file)';
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
    (found.get(file) ?? found.set(file, []).get(file)!).push(message);
  }
  return found;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'generated-client-'));
  // The samples import openapi-fetch as an integrator's project would: from its node_modules.
  await symlink(NODE_MODULES, join(dir, 'node_modules'), 'dir');

  await writeFile(join(dir, 'openapi.ts'), astToString(await openapiTS(OPENAPI)));
  await writeFile(
    join(dir, 'graphql.ts'),
    await codegen({
      filename: 'graphql.ts',
      schema: parse(await readFile(GRAPHQL_SCHEMA, 'utf8')),
      documents: [{ location: 'operations.graphql', document: parse(GRAPHQL_OPERATIONS) }],
      // Version 6 of typescript-operations writes the schema types its operations use itself.
      plugins: [{ typescriptOperations: {} }],
      pluginMap: { typescriptOperations: typescriptOperationsPlugin },
      config: { enumsAsTypes: true },
    }),
  );
  const samples = {
    'rest.ts': restSample('first.url'),
    'rest-wrong.ts': restSample('42'),
    'graphql-sample.ts': graphqlSample("'https://www.example.org/'"),
    'graphql-wrong.ts': graphqlSample('42'),
  };
  for (const [name, text] of Object.entries(samples)) await writeFile(join(dir, name), text);
  errors = typeErrors(Object.keys(samples).map((name) => join(dir, name)));
}, 60_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const errorsOf = (name: string) => errors.get(join(dir, name)) ?? [];

describe('a TypeScript client generated from openapi.json (openapi-typescript, openapi-fetch)', () => {
  it('compiles a sample that lists a client\'s domains and creates a placeholder', () => {
    expect(errorsOf('rest.ts')).toEqual([]);
  });

  it('refuses a sample that sends a number where the placeholder takes a string', () => {
    expect(errorsOf('rest-wrong.ts').join('\n')).toMatch(/'number' is not assignable to type 'string'/);
  });

  it('leaves no error elsewhere (the generated types compile)', () => {
    expect([...errors].filter(([file]) => !/\/(rest(-wrong)?|graphql-sample|graphql-wrong)\.ts$/.test(file))).toEqual([]);
  });
});

describe('TypeScript types generated from schema.graphql and an operation (GraphQL Code Generator)', () => {
  it('compile a sample that reads a domain\'s placeholders and adds one', () => {
    expect(errorsOf('graphql-sample.ts')).toEqual([]);
  });

  it('refuse a sample that sends a number where the placeholder takes a string', () => {
    expect(errorsOf('graphql-wrong.ts').join('\n')).toMatch(/'number' is not assignable to type 'string'|Type 'number' is not assignable/);
  });
});
