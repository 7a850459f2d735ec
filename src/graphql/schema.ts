import { lexicographicSortSchema, printSchema } from 'graphql';
import { builder } from './builder.ts';
// Each feature adds its types, its fields on Domain, its queries and mutations.
import '../features/clients/client.graphql.ts';
import '../features/api-keys/api-key.graphql.ts';
import '../features/domains/domain.graphql.ts';
import '../features/placeholders/placeholder.graphql.ts';
import '../features/embeddings/embedding.graphql.ts';
import '../features/themes/theme.graphql.ts';
import '../features/catalog/catalog.graphql.ts';
import '../features/onboarding/onboarding.graphql.ts';

export const schema = builder.toSchema();

/** The SDL checked in as schema.graphql. */
export const printedSchema = () => `${printSchema(lexicographicSortSchema(schema))}\n`;
