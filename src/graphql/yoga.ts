import type { GraphQLSchema } from 'graphql';
import { useGraphQlJit } from '@envelop/graphql-jit';
import type { CompilerOptions } from 'graphql-jit';
import type { Request, Response } from 'express';
import { type DefinitionNode, type DocumentNode, Kind, type OperationDefinitionNode } from 'graphql';
import { createYoga, type Plugin } from 'graphql-yoga';
import type { RequestContext } from '../kernel/context.ts';
import { GRAPHQL_PATH } from '../http/refusal.ts';
import { contextOf } from '../http/request-context.ts';
import type { Metrics } from '../http/metrics.ts';
import type { Logger } from '../logger.ts';
import { graphqlCaches } from './document-cache.ts';
import { createErrorReporter, createMaskError, errorLogging, requestErrorStatus, yogaLogger } from './errors.ts';
import { graphqlHardening } from './hardening.ts';
import { jitKeepsConditions } from './jit-conditions.ts';
import { useVariableProblems } from './variable-errors.ts';
import { operationTracing } from './tracing.ts';
import { tracingEnabled } from '../kernel/tracing.ts';

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

/**
 * How graphql-jit compiles documents: the conditions of a named fragment's fields are kept per
 * place it is spread (otherwise `...Part @skip(if: true)` in one place skips Part's fields in every
 * other place too).
 */
export const JIT_OPTIONS: Partial<CompilerOptions> = { useExperimentalPathBasedSkipInclude: true };

/** GraphQL Yoga at /graphql (GraphiQL, for browsers, is served by graphiql/page.ts). */
export function createGraphqlHandler(
  schema: GraphQLSchema,
  logger: Logger,
  { development, metrics }: { development: boolean; metrics?: Metrics },
) {
  const report = createErrorReporter(logger);
  return createYoga<{ req: Request; res: Response }, RequestContext>({
    schema,
    plugins: [
      ...graphqlHardening({ suggestFields: development, onDocumentTooLarge: () => metrics?.graphqlRejected('parse') }),
      errorLogging(report),
      requestErrorStatus,
      ...(metrics ? [operationMetrics(metrics)] : []),
      // While tracing is on: a span per execution, around the resolvers (tracing.ts).
      ...(tracingEnabled() ? [operationTracing()] : []),
      // Before graphql-jit, which would report them without paths: stops the execution.
      useVariableProblems(),
      // Documents compiled once to JavaScript (and kept as long as their parsed document stays
      // cached): a large result, a whole domain of embeddings, executes several times faster.
      // graphql-jit is overridden to 0.8.9 (package.json): the 0.8.7 that @envelop/graphql-jit
      // pins memoized every compiled field path for good, a few KB per distinct document
      // (zalando-incubator/graphql-jit#287, fixed by #288).
      // A document that does not compile fails its execution with the reason, which is logged
      // as any unexpected error (graphql-jit would also print it to the console). The few that
      // graphql-jit would answer wrongly under @skip/@include are executed by graphql-js.
      useGraphQlJit(JIT_OPTIONS, { onError: () => {}, enableIf: ({ document }) => jitKeepsConditions(document) }),
    ],
    // Parsed documents and parse errors, kept by bytes (document-cache.ts).
    parserAndValidationCache: { documentCache: graphqlCaches.documents, errorCache: graphqlCaches.errors },
    // CORS is the Express app's (CORS_ORIGINS); Yoga's own would echo any origin.
    cors: false,
    graphqlEndpoint: GRAPHQL_PATH,
    context: ({ req }) => contextOf(req),
    maskedErrors: { maskError: createMaskError(report, { suggestFields: development }) },
    graphiql: false,
    landingPage: false,
    // Yoga's own notes, never the errors it would log with their messages (errors.ts).
    logging: yogaLogger(logger),
  });
}
