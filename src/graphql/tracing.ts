import { type DefinitionNode, type DocumentNode, Kind, type OperationDefinitionNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { activeSpan, inSpan } from '../kernel/tracing.ts';

/**
 * A span per GraphQL execution (only while tracing is on), a child of the request's: named
 * `query Name` (`mutation`, …; the type alone for an anonymous operation), with
 * `graphql.operation.type` and `.name`. The resolvers run inside it, so the statements they send
 * are its children. Documents refused before execution get none: the request's span shows them.
 */
export const operationTracing = (): Plugin => ({
  instrumentation: {
    execute: (_payload, wrapped) => inSpan('graphql', {}, async () => void (await wrapped())),
  },
  onExecute({ args }) {
    const operation = (args.document as DocumentNode).definitions.find(
      (definition: DefinitionNode): definition is OperationDefinitionNode =>
        definition.kind === Kind.OPERATION_DEFINITION && (!args.operationName || definition.name?.value === args.operationName),
    );
    const span = activeSpan();
    const type = operation?.operation ?? 'unknown';
    const name = operation?.name?.value;
    span.rename(name ? `${type} ${name}` : type);
    span.setAttributes({ 'graphql.operation.type': type, 'graphql.operation.name': name });
    return {
      onExecuteDone({ result }) {
        const errors = 'errors' in result ? (result.errors?.length ?? 0) : 0;
        if (errors > 0) {
          span.setAttributes({ 'graphql.error.count': errors });
          span.fail(`${errors} error(s)`);
        }
      },
    };
  },
});
