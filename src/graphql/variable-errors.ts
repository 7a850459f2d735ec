import {
  coerceInputValue,
  type DocumentNode,
  getNamedType,
  getNullableType,
  getOperationAST,
  GraphQLError,
  type GraphQLInputType,
  type GraphQLSchema,
  isInputObjectType,
  isListType,
  isInputType,
  isNonNullType,
  typeFromAST,
  type VariableDefinitionNode,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { toPointer } from '../kernel/contract/validate.ts';
import type { FieldProblem } from '../kernel/errors.ts';

/**
 * Variables of the wrong type, answered like every other bad input: BAD_USER_INPUT with the
 * `errors` list of the REST layer, a JSON pointer (relative to the variable) and a message per
 * problem — and never the value itself, which graphql-js and graphql-jit put in their messages
 * (a 2 MB value made a 2 MB message).
 *
 * The variables are coerced with graphql-js's own `coerceInputValue` before graphql-jit runs:
 * it reports each problem with its path as a list of keys and indexes. Which field of an input
 * object is missing or unknown is read from the object and its type, not from the message.
 */

/** Problems listed at most; a request with more (1,000 items each wrong) is cut short. */
export const MAX_VARIABLE_PROBLEMS = 100;

const UNKNOWN_FIELD = 'is not a property of this payload';

type Segment = string | number;

/** What a value is, in the words zod uses for REST payloads. */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : Number.isFinite(value) ? 'number' : 'non-finite number';
  return typeof value;
}

/** The type expected at a path inside a variable's value (for a value that is no list, a list's item type). */
function typeAt(type: GraphQLInputType, path: readonly Segment[], value: unknown): GraphQLInputType {
  let at = type;
  for (const segment of path) {
    const inner = getNullableType(at);
    if (typeof segment === 'number' && isListType(inner)) at = inner.ofType as GraphQLInputType;
    else if (typeof segment === 'string' && isInputObjectType(inner)) {
      const field = inner.getFields()[segment];
      if (field) at = field.type;
    }
  }
  // A list takes a single item as a list of one: the item's type is what was wrong.
  for (let inner = getNullableType(at); isListType(inner) && value != null && !Array.isArray(value); inner = getNullableType(at)) {
    at = inner.ofType as GraphQLInputType;
  }
  return at;
}

function expected(type: GraphQLInputType, value: unknown): string {
  // As the REST layer says it of a missing field (contract/fields.ts).
  if (value === undefined) return 'is required';
  if (value === null) return `Invalid input: expected ${String(type)}, received ${kindOf(value)}`;
  const name = getNamedType(type).name;
  if (name === 'Int' && kindOf(value) === 'integer') return 'Invalid input: expected Int, received an integer beyond 32 bits';
  return `Invalid input: expected ${name}, received ${kindOf(value)}`;
}

/** The problems with an input object: its missing required fields and its unknown ones, each at its own path. */
function objectProblems(type: GraphQLInputType, value: object, path: readonly Segment[]): FieldProblem[] {
  const inner = getNullableType(type);
  if (!isInputObjectType(inner) || Array.isArray(value)) return [];
  const fields = inner.getFields();
  const record = value as Record<string, unknown>;
  const missing = Object.values(fields)
    .filter((field) => record[field.name] === undefined && field.defaultValue === undefined && isNonNullType(field.type))
    .map((field) => ({ path: toPointer([...path, field.name]), message: expected(field.type, undefined) }));
  const unknown = Object.keys(record)
    .filter((key) => !Object.hasOwn(fields, key))
    .map((key) => ({ path: toPointer([...path, key]), message: UNKNOWN_FIELD }));
  return [...missing, ...unknown];
}

class TooManyProblems extends Error {}

type VariableProblems = { definition: VariableDefinitionNode; name: string; type: GraphQLInputType; missing: boolean; problems: FieldProblem[] };

/** Every problem with the variables of an operation, by variable (empty: they are fine). */
function variableProblems(
  schema: GraphQLSchema,
  definitions: readonly VariableDefinitionNode[],
  inputs: Record<string, unknown>,
): { variables: VariableProblems[]; complete: boolean } {
  const variables: VariableProblems[] = [];
  let listed = 0;
  try {
    for (const definition of definitions) {
      const name = definition.variable.name.value;
      const type = typeFromAST(schema, definition.type);
      // Validation has refused unknown and output types already.
      if (!type || !isInputType(type)) continue;
      const problems: FieldProblem[] = [];
      const add = (problem: FieldProblem) => {
        if (listed >= MAX_VARIABLE_PROBLEMS) throw new TooManyProblems();
        listed++;
        problems.push(problem);
      };
      const entry = { definition, name, type, missing: false, problems };
      variables.push(entry);
      if (!Object.hasOwn(inputs, name)) {
        if (definition.defaultValue === undefined && isNonNullType(type)) {
          entry.missing = true;
          add({ path: '', message: expected(type, undefined) });
        }
      } else {
        const objectsDone = new Set<string>();
        coerceInputValue(
          inputs[name],
          type,
          (path, invalid) => {
            const at = typeAt(type, path, invalid);
            if (invalid !== null && typeof invalid === 'object' && isInputObjectType(getNullableType(at))) {
              // graphql-js reports each missing and each unknown field at the object: listed once, each at its own path.
              const pointer = toPointer(path);
              if (objectsDone.has(pointer)) return;
              objectsDone.add(pointer);
              const found = objectProblems(at, invalid, path);
              for (const problem of found.length > 0 ? found : [{ path: pointer, message: expected(at, invalid) }]) add(problem);
              return;
            }
            add({ path: toPointer(path), message: expected(at, invalid) });
          },
          true,
        );
      }
    }
  } catch (error) {
    if (!(error instanceof TooManyProblems)) throw error;
    return { variables: variables.filter((entry) => entry.problems.length > 0), complete: false };
  }
  return { variables: variables.filter((entry) => entry.problems.length > 0), complete: true };
}

const plural = (count: number) => `${count} problem${count === 1 ? '' : 's'}`;

/** One BAD_USER_INPUT error per variable in error (HTTP 400). */
export function variableErrors(document: DocumentNode, schema: GraphQLSchema, operationName: string | null | undefined, inputs: unknown): GraphQLError[] {
  const operation = getOperationAST(document, operationName);
  if (!operation?.variableDefinitions?.length) return [];
  const values = inputs !== null && typeof inputs === 'object' && !Array.isArray(inputs) ? (inputs as Record<string, unknown>) : {};
  const { variables, complete } = variableProblems(schema, operation.variableDefinitions, values);
  return variables.map(({ definition, name, type, missing, problems }, index) => {
    const cut = !complete && index === variables.length - 1;
    const count = cut ? `${plural(problems.length)} (the request has more; the first ${MAX_VARIABLE_PROBLEMS} are listed)` : plural(problems.length);
    const message = missing ? `Variable "$${name}" of required type "${String(type)}" was not provided.` : `Variable "$${name}" got an invalid value: ${count}.`;
    return new GraphQLError(message, {
      nodes: definition,
      extensions: { code: 'BAD_USER_INPUT', errors: problems, http: { status: 400 } },
    });
  });
}

/** Checks the variables before graphql-jit executes (it reports them without paths, and with their values). */
export const useVariableProblems = (): Plugin => ({
  onExecute({ args, setResultAndStopExecution }) {
    const errors = variableErrors(args.document, args.schema, args.operationName, args.variableValues);
    if (errors.length > 0) setResultAndStopExecution({ errors });
  },
});
