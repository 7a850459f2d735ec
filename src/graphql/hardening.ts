import { useCSRFPrevention } from '@graphql-yoga/plugin-csrf-prevention';
import { blockFieldSuggestionsPlugin } from '@escape.tech/graphql-armor-block-field-suggestions';
import { costLimitPlugin } from '@escape.tech/graphql-armor-cost-limit';
import { maxAliasesPlugin } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesPlugin } from '@escape.tech/graphql-armor-max-directives';
import {
  type ASTVisitor,
  GraphQLError,
  Lexer,
  parse,
  type ParseOptions,
  Source,
  type Token,
  TokenKind,
  type ValidationContext,
} from 'graphql';
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
  /** Lexical tokens, comments included. */
  tokens: 3_000,
  cost: 20_000,
  /**
   * Bytes (UTF-8) of the document text, refused before it is parsed or cached. A dashboard's
   * largest document, every field of a domain or of a client, has under 3 KB pretty-printed (about
   * 150 tokens); GraphiQL's introspection query about 2 KB. Indented, those documents take 16–19
   * bytes a token: 64 KiB is about what the 3,000 tokens allowed take, so a real document meets
   * the token limit first. What only this limit stops is padding (comments, blanks) and large
   * inline values, which belong in variables (the request body may have 2 MiB).
   */
  documentBytes: 64 * 1024,
};

/** Every document error is a 400 on both answer types (see requestErrorStatus in errors.ts). */
const refusal = (message: string) => new GraphQLError(message, { extensions: { code: 'GRAPHQL_PARSE_FAILED', http: { status: 400 } } });

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
function nestingDepth(source: string): number {
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

/**
 * Lexical tokens of a document, comments included, counted up to one more than `limit`.
 * (GraphQL Armor's max-tokens and graphql-js's `maxLexicalTokens` skip comments, so a document
 * of a few tokens could carry megabytes of them.) Syntax errors the lexer meets are thrown.
 */
function countTokens(source: string | Source, limit: number): number {
  const lexer = new Lexer(typeof source === 'string' ? new Source(source) : source);
  let count = 0;
  let previous: Token = lexer.token;
  while (count <= limit) {
    const token = lexer.advance();
    // The lexer links the comments it skipped between the previous token and this one.
    for (let between = previous.next; between && between !== token; between = between.next) count++;
    if (token.kind === TokenKind.EOF) break;
    count++;
    previous = token;
  }
  return count;
}

/**
 * graphql-js's parse, behind the limits a document must meet first: brackets nested at most
 * `MAX_NESTING` deep (graphql-js parses recursively) and `GRAPHQL_LIMITS.tokens` tokens,
 * comments included. Runs only for documents not in the cache; its refusals are cached as
 * parse errors are.
 */
function limitedParse(source: string | Source, options?: ParseOptions) {
  const text = typeof source === 'string' ? source : source.body;
  const depth = nestingDepth(text);
  if (depth > MAX_NESTING) throw refusal(`the document nests ${depth} levels deep; at most ${MAX_NESTING} are allowed`);
  if (countTokens(source, GRAPHQL_LIMITS.tokens) > GRAPHQL_LIMITS.tokens) {
    throw refusal(`Token limit of ${GRAPHQL_LIMITS.tokens} exceeded (comments count as tokens).`);
  }
  return parse(source, options);
}

const limitedParsing: Plugin = {
  onParse({ setParseFn }) {
    setParseFn(limitedParse);
  },
};

/**
 * Refuses a document longer than `limit` bytes as soon as the request is read: before it is
 * parsed, and before it becomes a key of the document cache.
 */
const maxDocumentSize = (limit: number, onRefused?: () => void): Plugin => ({
  onParams({ params }) {
    const query: unknown = params.query;
    if (typeof query !== 'string' || query.length <= limit / 3) return;
    const bytes = Buffer.byteLength(query, 'utf8');
    if (bytes > limit) {
      onRefused?.();
      throw refusal(`the document has ${bytes} bytes; at most ${limit} are allowed (values belong in variables)`);
    }
  },
});

/**
 * An operation the schema has no root type for (it has no Subscription type) is invalid.
 * graphql-js 16 leaves that to execution, which fails with an unexpected error.
 */
function KnownOperationTypesRule(context: ValidationContext): ASTVisitor {
  const schema = context.getSchema();
  return {
    OperationDefinition(node) {
      if (!schema.getRootType(node.operation)) {
        context.reportError(new GraphQLError(`The ${node.operation} operation is not supported by the schema.`, { nodes: node }));
      }
    },
  };
}

const knownOperationTypes: Plugin = {
  onValidate({ addValidationRule }) {
    addValidationRule(KnownOperationTypesRule);
  },
};

/** Browsers may only send GraphQL requests a form or image tag cannot forge. */
export const CSRF_HEADER = 'x-graphql-yoga-csrf';

export function graphqlHardening({ suggestFields, onDocumentTooLarge }: { suggestFields: boolean; onDocumentTooLarge?: () => void }) {
  return [
    maxDocumentSize(GRAPHQL_LIMITS.documentBytes, onDocumentTooLarge),
    limitedParsing,
    knownOperationTypes,
    maxDepthPlugin({ n: GRAPHQL_LIMITS.depth, flattenFragments: true, ...asValidationError }),
    maxAliasesPlugin({ n: GRAPHQL_LIMITS.aliases, ...asValidationError }),
    maxDirectivesPlugin({ n: GRAPHQL_LIMITS.directives, ...asValidationError }),
    costLimitPlugin({ maxCost: GRAPHQL_LIMITS.cost, ...asValidationError }),
    // "Did you mean …?" helps developers and tells attackers the schema: off outside development.
    ...(suggestFields ? [] : [blockFieldSuggestionsPlugin()]),
    useCSRFPrevention({ requestHeaders: [CSRF_HEADER] }),
  ];
}
