import { useCSRFPrevention } from '@graphql-yoga/plugin-csrf-prevention';
import { blockFieldSuggestionsPlugin } from '@escape.tech/graphql-armor-block-field-suggestions';
import { costLimitPlugin } from '@escape.tech/graphql-armor-cost-limit';
import { maxAliasesPlugin } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesPlugin } from '@escape.tech/graphql-armor-max-directives';
import { maxTokensPlugin } from '@escape.tech/graphql-armor-max-tokens';
import { GraphQLError, type ValidationContext } from 'graphql';
import type { Plugin } from 'graphql-yoga';

/**
 * Limits on what one GraphQL document may ask for (GraphQL Armor). A dashboard's query of a
 * whole domain — client, domain, placeholders, themes, embeddings with assets and translations —
 * stays well inside them.
 */
export const GRAPHQL_LIMITS = {
  depth: 10,
  aliases: 15,
  directives: 20,
  tokens: 3_000,
  cost: 20_000,
};

/**
 * GraphQL Armor throws its refusals out of the validation step, which Yoga answers with
 * HTTP 200; reported as validation errors instead, they get 400 and the usual code, like
 * every other invalid document.
 */
const asValidationError = {
  propagateOnRejection: false,
  onReject: [
    (context: ValidationContext | null, error: GraphQLError) => {
      const message = error.message.replace(/^Syntax Error: /, '');
      context?.reportError(new GraphQLError(message, { extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }));
    },
  ],
};

/** Brackets a document may nest: graphql-js parses recursively and overflows its stack a few thousand deep. */
export const MAX_NESTING = 64;

/** How deep `[`, `{` and `(` nest in a GraphQL document, strings and comments aside. */
export function nestingDepth(source: string): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < source.length; i++) {
    const char = source[i];
    if (char === '#') {
      while (i < source.length && source[i] !== '\n') i++;
    } else if (char === '"') {
      const block = source.startsWith('"""', i);
      const end = block ? '"""' : '"';
      i += end.length;
      while (i < source.length && !source.startsWith(end, i)) i += source[i] === '\\' ? 2 : 1;
      i += end.length - 1;
    } else if (char === '[' || char === '{' || char === '(') {
      deepest = Math.max(deepest, ++depth);
    } else if (char === ']' || char === '}' || char === ')') {
      depth--;
    }
  }
  return deepest;
}

/** Refuses over-nested documents before graphql-js parses them. */
const maxNestingPlugin = (limit: number): Plugin => ({
  onParse({ params }) {
    const source = typeof params.source === 'string' ? params.source : params.source.body;
    const depth = nestingDepth(source);
    if (depth > limit) {
      throw new GraphQLError(`the document nests ${depth} levels deep; at most ${limit} are allowed`, {
        extensions: { code: 'GRAPHQL_PARSE_FAILED', http: { status: 400 } },
      });
    }
  },
});

/** Browsers may only send GraphQL requests a form or image tag cannot forge. */
export const CSRF_HEADER = 'x-graphql-yoga-csrf';

export function graphqlHardening({ suggestFields }: { suggestFields: boolean }) {
  return [
    maxNestingPlugin(MAX_NESTING),
    maxDepthPlugin({ n: GRAPHQL_LIMITS.depth, flattenFragments: true, ...asValidationError }),
    maxAliasesPlugin({ n: GRAPHQL_LIMITS.aliases, ...asValidationError }),
    maxDirectivesPlugin({ n: GRAPHQL_LIMITS.directives, ...asValidationError }),
    maxTokensPlugin({ n: GRAPHQL_LIMITS.tokens }),
    costLimitPlugin({ maxCost: GRAPHQL_LIMITS.cost, ...asValidationError }),
    // "Did you mean …?" helps developers and tells attackers the schema: off outside development.
    ...(suggestFields ? [] : [blockFieldSuggestionsPlugin()]),
    useCSRFPrevention({ requestHeaders: [CSRF_HEADER] }),
  ];
}
