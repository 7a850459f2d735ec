import { readFile } from 'node:fs/promises';
import { parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { printedSchema, schema } from '../src/app/graphql-schema.ts';

describe('schema.graphql', () => {
  it('is exactly the schema the code builds (run `npm run schema:print` after changing it)', async () => {
    const checkedIn = await readFile(new URL('../schema.graphql', import.meta.url), 'utf8');
    expect(checkedIn).toBe(printedSchema());
  });
});

describe('the example operations GraphiQL opens with', () => {
  it('are valid against the schema', async () => {
    const examples = await readFile(new URL('../src/graphql/graphiql/examples.graphql', import.meta.url), 'utf8');
    const document = parse(examples);
    expect(document.definitions.length).toBeGreaterThan(5);
    expect(validate(schema, document).map((error) => error.message)).toEqual([]);
  });
});
