import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { printedSchema } from '../src/graphql/schema.ts';

describe('schema.graphql', () => {
  it('is exactly the schema the code builds (run `npm run schema:print` after changing it)', async () => {
    const checkedIn = await readFile(new URL('../schema.graphql', import.meta.url), 'utf8');
    expect(checkedIn).toBe(printedSchema());
  });
});
