import { lexicographicSortSchema, printSchema } from 'graphql';
import { builder } from '../graphql/builder.ts';
// Each feature's index module registers its types, its fields on Domain, its queries and mutations.
import '../features/index.ts';

export const schema = builder.toSchema();

/** The SDL checked in as schema.graphql. */
export const printedSchema = () => `${printSchema(lexicographicSortSchema(schema))}\n`;
