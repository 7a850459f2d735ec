/** Writes the GraphQL schema the code builds to schema.graphql (checked in; a test compares). */
import { writeFile } from 'node:fs/promises';
import { printedSchema } from '../src/app/graphql-schema.ts';

const target = new URL('../schema.graphql', import.meta.url);
await writeFile(target, printedSchema());
console.log(`wrote ${target.pathname}`);
