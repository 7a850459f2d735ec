import { useCSRFPrevention } from '@graphql-yoga/plugin-csrf-prevention';
import { blockFieldSuggestionsPlugin } from '@escape.tech/graphql-armor-block-field-suggestions';
import { costLimitPlugin } from '@escape.tech/graphql-armor-cost-limit';
import { maxAliasesPlugin } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesPlugin } from '@escape.tech/graphql-armor-max-directives';
import { maxTokensPlugin } from '@escape.tech/graphql-armor-max-tokens';

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

/** Browsers may only send GraphQL requests a form or image tag cannot forge. */
export const CSRF_HEADER = 'x-graphql-yoga-csrf';

export function graphqlHardening({ suggestFields }: { suggestFields: boolean }) {
  return [
    maxDepthPlugin({ n: GRAPHQL_LIMITS.depth, flattenFragments: true }),
    maxAliasesPlugin({ n: GRAPHQL_LIMITS.aliases }),
    maxDirectivesPlugin({ n: GRAPHQL_LIMITS.directives }),
    maxTokensPlugin({ n: GRAPHQL_LIMITS.tokens }),
    costLimitPlugin({ maxCost: GRAPHQL_LIMITS.cost }),
    // "Did you mean …?" helps developers and tells attackers the schema: off outside development.
    ...(suggestFields ? [] : [blockFieldSuggestionsPlugin()]),
    useCSRFPrevention({ requestHeaders: [CSRF_HEADER] }),
  ];
}
