import { type DocumentNode, Kind, type SelectionSetNode, type Token, TokenKind } from 'graphql';
import { LRUCache } from 'lru-cache';

/**
 * Yoga keeps every parsed document (and every parse error) by its source text, so that a
 * dashboard's recurring queries are parsed, validated and compiled once. Its own caches count
 * entries (1,024 of each), not bytes: 1,024 documents of 2 MB each are 2 GB. These count bytes.
 *
 * What a cached document keeps alive, measured with Node 24 on this schema (heap retained per
 * distinct document after it was answered, with the process collected):
 *
 * - the source text: 1 byte a character, 2 when it has any character beyond Latin-1;
 * - the syntax tree: about 500 bytes a token (node, name node, token, location), about 100 a
 *   comment (its token; the text is a slice of the source);
 * - graphql-jit's compiled query, kept in a WeakMap by the document, and Yoga's validation
 *   result, kept the same way: about 10 KB of fixed cost (serializer, variable parser) and
 *   300–1,000 bytes a selected field, fragments counted at every spread.
 *
 * Measured: `{ clients { id } }` 13 KB; a 17-field dashboard query 35 KB; every field of a
 * client 118 KB; 15 aliases of a fragment of every domain field 640 KB; 1,500 comments in 70 KB
 * of text 260 KB; 3,000 tokens of `__typename` 1.5 MB. The estimate below is 1.5 to 3.3 times
 * each of them: the cache's real footprint stays under its budget.
 */
const ESTIMATE = {
  perDocument: 16 * 1024,
  perCharacter: 2,
  perToken: 600,
  perComment: 150,
  perSelectedField: 1_000,
};

/** At most this many bytes of parsed documents (and what hangs off them) are kept. */
export const DOCUMENT_CACHE_BYTES = 32 * 1024 * 1024;
/** At most this many bytes of parse errors (each keeps its source) are kept. */
export const ERROR_CACHE_BYTES = 4 * 1024 * 1024;
/** Yoga's own time-to-live, kept: a document unused for an hour is dropped. */
const TTL_MS = 60 * 60 * 1000;

/** Tokens and comments of a parsed document (its tokens stay linked from its location). */
function tokensOf(document: DocumentNode): { tokens: number; comments: number } | undefined {
  let token: Token | null | undefined = document.loc?.startToken;
  if (!token) return undefined;
  let tokens = 0;
  let comments = 0;
  for (; token; token = token.next) {
    if (token.kind === TokenKind.COMMENT) comments++;
    else if (token.kind !== TokenKind.SOF && token.kind !== TokenKind.EOF) tokens++;
  }
  return { tokens, comments };
}

/** Fields the operations select, each fragment counted wherever it is spread (as graphql-jit compiles it). */
function selectedFields(document: DocumentNode, cap = 1_000_000): number {
  const fragments = new Map(
    document.definitions.flatMap((definition) => (definition.kind === Kind.FRAGMENT_DEFINITION ? [[definition.name.value, definition] as const] : [])),
  );
  const perFragment = new Map<string, number>();
  const expanding = new Set<string>();
  const count = (selectionSet: SelectionSetNode | undefined): number => {
    let fields = 0;
    for (const selection of selectionSet?.selections ?? []) {
      if (selection.kind === Kind.FIELD) fields += 1 + count(selection.selectionSet);
      else if (selection.kind === Kind.INLINE_FRAGMENT) fields += count(selection.selectionSet);
      else {
        const name = selection.name.value;
        let inside = perFragment.get(name);
        if (inside === undefined) {
          // A cycle (which validation refuses) or an unknown fragment adds nothing.
          const fragment = fragments.get(name);
          if (!fragment || expanding.has(name)) continue;
          expanding.add(name);
          inside = count(fragment.selectionSet);
          expanding.delete(name);
          perFragment.set(name, inside);
        }
        fields += inside;
      }
      if (fields >= cap) return cap;
    }
    return fields;
  };
  let total = 0;
  for (const definition of document.definitions) {
    if (definition.kind === Kind.OPERATION_DEFINITION) total = Math.min(cap, total + count(definition.selectionSet));
  }
  return total;
}

/** Bytes a cached document is estimated to keep alive (see above). */
function documentBytes(document: DocumentNode, source: string): number {
  const counted = tokensOf(document) ?? { tokens: Math.ceil(source.length / 2), comments: 0 };
  return Math.ceil(
    ESTIMATE.perDocument +
      ESTIMATE.perCharacter * source.length +
      ESTIMATE.perToken * counted.tokens +
      ESTIMATE.perComment * counted.comments +
      ESTIMATE.perSelectedField * selectedFields(document),
  );
}

/** A parse error keeps its source (for its location) and little else. */
const errorBytes = (_error: unknown, source: string): number => 2 * 1024 + ESTIMATE.perCharacter * source.length;

/**
 * The caches Yoga's parser and validation cache uses, one per process (every Yoga instance of
 * the process shares the budget). Yoga's validation cache is a WeakMap by document, as is
 * graphql-jit's cache of compiled queries: both live as long as their document stays here.
 */
export const graphqlCaches = {
  documents: new LRUCache<string, DocumentNode>({
    maxSize: DOCUMENT_CACHE_BYTES,
    sizeCalculation: documentBytes,
    ttl: TTL_MS,
  }),
  errors: new LRUCache<string, object>({
    maxSize: ERROR_CACHE_BYTES,
    sizeCalculation: errorBytes,
    ttl: TTL_MS,
  }),
};
