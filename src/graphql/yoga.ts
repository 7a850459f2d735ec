import type { Request, Response } from 'express';
import { type DefinitionNode, type DocumentNode, Kind, type OperationDefinitionNode } from 'graphql';
import { createYoga, type Plugin } from 'graphql-yoga';
import type { RequestContext } from '../context.ts';
import { GRAPHQL_PATH } from '../http/refusal.ts';
import { contextOf } from '../http/request-context.ts';
import type { Metrics } from '../http/metrics.ts';
import type { Logger } from '../logger.ts';
import { createMaskError } from './errors.ts';
import { useGraphQlJit } from '@envelop/graphql-jit';
import { graphqlHardening } from './hardening.ts';
import { schema } from './schema.ts';


/** Times every operation for the metrics, by type, name and outcome; counts refused documents. */
const operationMetrics = (metrics: Metrics): Plugin => ({
  onParse() {
    return ({ result }) => {
      if (result instanceof Error) metrics.graphqlRejected('parse');
    };
  },
  onValidate() {
    return ({ valid }) => {
      if (!valid) metrics.graphqlRejected('validate');
    };
  },
  onExecute({ args }) {
    const started = performance.now();
    const operation = (args.document as DocumentNode).definitions.find(
      (definition: DefinitionNode): definition is OperationDefinitionNode =>
        definition.kind === Kind.OPERATION_DEFINITION && (!args.operationName || definition.name?.value === args.operationName),
    );
    return {
      onExecuteDone({ result }) {
        const failed = 'errors' in result && (result.errors?.length ?? 0) > 0;
        const seconds = (performance.now() - started) / 1000;
        metrics.graphqlOperation(operation?.operation ?? 'unknown', operation?.name?.value ?? 'anonymous', failed ? 'error' : 'ok', seconds);
      },
    };
  },
});

/** GraphQL Yoga at /graphql (GraphiQL, for browsers, is served by graphiql/page.ts). */
export function createGraphqlHandler(
  logger: Logger,
  { development, metrics }: { development: boolean; metrics?: Metrics },
) {
  return createYoga<{ req: Request; res: Response }, RequestContext>({
    schema,
    plugins: [
      ...graphqlHardening({ suggestFields: development }),
      // Documents compiled once to JavaScript (and kept, like Yoga keeps parsed ones): a large
      // result, a whole domain of embeddings, executes several times faster.
      useGraphQlJit(),
      ...(metrics ? [operationMetrics(metrics)] : []),
    ],
    // CORS is the Express app's (CORS_ORIGINS); Yoga's own would echo any origin.
    cors: false,
    graphqlEndpoint: GRAPHQL_PATH,
    context: ({ req }) => contextOf(req),
    maskedErrors: { maskError: createMaskError(logger, { suggestFields: development }) },
    graphiql: false,
    landingPage: false,
    logging: {
      debug: (...args) => logger.debug({ args }, 'yoga'),
      info: (...args) => logger.info({ args }, 'yoga'),
      warn: (...args) => logger.warn({ args }, 'yoga'),
      error: (...args) => logger.error({ args }, 'yoga'),
    },
  });
}
