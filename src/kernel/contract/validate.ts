import type { z } from 'zod';
import { type FieldProblem, invalid, type ServiceError } from '../errors.ts';

/** An issue as zod and the standard-schema interface (Pothos validation) report it. */
type Segment = PropertyKey | { readonly key: PropertyKey };
export type SchemaIssue = { readonly message: string; readonly path?: readonly Segment[] | undefined };

const escapeToken = (token: string) => token.replaceAll('~', '~0').replaceAll('/', '~1');

/** JSON pointer (RFC 6901) to the place a problem is at, '' for the payload itself. */
export function toPointer(path: readonly Segment[]): string {
  return path
    .map((segment) => {
      const key = typeof segment === 'object' ? segment.key : segment;
      return `/${escapeToken(String(key))}`;
    })
    .join('');
}

/**
 * Issues of a schema → the `errors` list of a 400. An unknown property becomes one entry at its
 * own path. `skip` drops leading path segments (GraphQL prefixes the argument's name).
 */
export function toProblems(issues: readonly SchemaIssue[], skip = 0): FieldProblem[] {
  return issues.flatMap((issue) => {
    const path = (issue.path ?? []).slice(skip);
    const keys = (issue as { code?: string; keys?: string[] }).code === 'unrecognized_keys'
      ? ((issue as { keys?: string[] }).keys ?? [])
      : [];
    if (keys.length > 0) {
      return keys.map((key) => ({ path: toPointer([...path, key]), message: 'is not a property of this payload' }));
    }
    return [{ path: toPointer(path), message: issue.message }];
  });
}

export const invalidPayload = (problems: FieldProblem[]): ServiceError =>
  invalid(`the payload is invalid: ${problems.length} problem${problems.length === 1 ? '' : 's'}`, problems);

/**
 * Where a parsed JSON value has a `__proto__` property. No payload has one, but schemas would not
 * say so everywhere: a map such as `translations` drops the key silently instead of refusing it.
 * Walked with a stack of its own: a body may nest thousands of levels deep.
 */
function prototypeKeys(value: unknown): FieldProblem[] {
  type Step = { value: unknown; key?: string | number; parent?: Step };
  const pathOf = (step: Step): (string | number)[] => {
    const path: (string | number)[] = [];
    for (let at: Step | undefined = step; at?.key !== undefined; at = at.parent) path.unshift(at.key);
    return path;
  };
  const found: FieldProblem[] = [];
  const pending: Step[] = [{ value }];
  while (pending.length > 0) {
    const step = pending.pop()!;
    if (typeof step.value !== 'object' || step.value === null) continue;
    const isList = Array.isArray(step.value);
    for (const [key, item] of Object.entries(step.value)) {
      const next: Step = { value: item, key: isList ? Number(key) : key, parent: step };
      if (key === '__proto__') found.push({ path: toPointer(pathOf(next)), message: 'is not a property of this payload' });
      else pending.push(next);
    }
  }
  return found;
}

/** Parses a payload with its contract schema, or throws a validation error listing every problem. */
export function parsePayload<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  const problems = [...prototypeKeys(value), ...(result.success ? [] : toProblems(result.error.issues))];
  if (problems.length > 0 || !result.success) throw invalidPayload(problems);
  return result.data;
}
