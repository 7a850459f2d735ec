import type { Request, Response } from 'express';
import { createYoga } from 'graphql-yoga';
import type { RequestContext } from '../context.ts';
import { contextOf } from '../http/request-context.ts';
import type { Logger } from '../logger.ts';
import { createMaskError } from './errors.ts';
import { useGraphQlJit } from '@envelop/graphql-jit';
import { graphqlHardening } from './hardening.ts';
import { schema } from './schema.ts';

const EXAMPLE_QUERY = `# Every client with its domains. Replace the ids below to open one domain whole.
query Clients {
  clients { id username domains { id name url locales } }
}

# query Domain {
#   domain(clientId: "…", id: "…") {
#     name url
#     placeholders { name value }
#     embeddings { id name purpose active assets { id name storageType lifetime } }
#     themes { id name default }
#   }
# }
`;

/** GraphQL Yoga at /graphql; a browser gets GraphiQL there. */
export function createGraphqlHandler(logger: Logger, { development }: { development: boolean }) {
  return createYoga<{ req: Request; res: Response }, RequestContext>({
    schema,
    plugins: [
      ...graphqlHardening({ suggestFields: development }),
      // Documents compiled once to JavaScript (and kept, like Yoga keeps parsed ones): a large
      // result, a whole domain of embeddings, executes several times faster.
      useGraphQlJit(),
    ],
    // CORS is the Express app's (CORS_ORIGINS); Yoga's own would echo any origin.
    cors: false,
    graphqlEndpoint: '/graphql',
    context: ({ req }) => contextOf(req),
    maskedErrors: { maskError: createMaskError(logger, { suggestFields: development }) },
    graphiql: { title: 'Consent domain configuration', defaultQuery: EXAMPLE_QUERY },
    landingPage: false,
    logging: {
      debug: (...args) => logger.debug({ args }, 'yoga'),
      info: (...args) => logger.info({ args }, 'yoga'),
      warn: (...args) => logger.warn({ args }, 'yoga'),
      error: (...args) => logger.error({ args }, 'yoga'),
    },
  });
}
