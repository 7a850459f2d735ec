import {
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  Kind,
  type SelectionNode,
  type SelectionSetNode,
} from 'graphql';

/**
 * Which documents graphql-jit (0.8.9) would answer otherwise than graphql-js because of @skip or
 * @include, so that graphql-js executes them instead. It goes wrong where a response key occurs
 * more than once in a selection and one occurrence is conditional:
 * - a field reached through a fragment below the conditional occurrence loses the condition, so
 *   `embeddings @skip(if: true) { ... { assets { id } } } embeddings { name }` sends the assets;
 * - the key stays where its first occurrence is, skipped or not, where graphql-js puts it where
 *   the first included one is.
 * A response key that occurs once is answered rightly whatever its conditions, and so is
 * everything below it; dashboards rarely repeat a field under a condition.
 */

const CONDITIONS = new Set(['skip', 'include']);

const conditional = (selection: SelectionNode) => !!selection.directives?.some((directive) => CONDITIONS.has(directive.name.value));

type Occurrence = { field: FieldNode; conditional: boolean };
type Fragments = ReadonlyMap<string, FragmentDefinitionNode>;

/** The fields of a selection set by response key, through its fragments, in order, each with whether a condition governs it. */
function collect(selectionSet: SelectionSetNode, fragments: Fragments, condition: boolean, into: Map<string, Occurrence[]>, spreading: ReadonlySet<string>): void {
  for (const selection of selectionSet.selections) {
    const governed = condition || conditional(selection);
    if (selection.kind === Kind.FIELD) {
      const key = selection.alias?.value ?? selection.name.value;
      let occurrences = into.get(key);
      if (!occurrences) into.set(key, (occurrences = []));
      occurrences.push({ field: selection, conditional: governed });
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      collect(selection.selectionSet, fragments, governed, into, spreading);
    } else {
      const name = selection.name.value;
      const fragment = fragments.get(name);
      // An unknown or cyclic spread fails validation before anything executes.
      if (fragment && !spreading.has(name)) collect(fragment.selectionSet, fragments, governed, into, new Set([...spreading, name]));
    }
  }
}

/** Whether the merged selection sets (of one response key's occurrences) repeat a key under a condition, at any depth. */
function repeatsUnderCondition(selectionSets: readonly SelectionSetNode[], fragments: Fragments): boolean {
  const fields = new Map<string, Occurrence[]>();
  for (const selectionSet of selectionSets) collect(selectionSet, fragments, false, fields, new Set());
  for (const occurrences of fields.values()) {
    if (occurrences.length > 1 && occurrences.some((occurrence) => occurrence.conditional)) return true;
    const below = occurrences.flatMap(({ field }) => (field.selectionSet ? [field.selectionSet] : []));
    if (below.length > 0 && repeatsUnderCondition(below, fragments)) return true;
  }
  return false;
}

const verdicts = new WeakMap<DocumentNode, boolean>();

/** Whether graphql-jit answers the document as graphql-js does, as far as @skip and @include go. */
export function jitKeepsConditions(document: DocumentNode): boolean {
  let verdict = verdicts.get(document);
  if (verdict !== undefined) return verdict;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  verdict = !document.definitions.some(
    (definition) => definition.kind === Kind.OPERATION_DEFINITION && repeatsUnderCondition([definition.selectionSet], fragments),
  );
  verdicts.set(document, verdict);
  return verdict;
}
