import SchemaBuilder from '@pothos/core';
import ValidationPlugin from '@pothos/plugin-validation';
import { invalidPayload, toProblems } from '../kernel/contract/validate.ts';
import type { RequestContext } from '../kernel/context.ts';

/**
 * The Pothos builder, configured once. Input validation runs the same zod schemas as the REST
 * adapter; a failure becomes the same validation error (BAD_USER_INPUT with the `errors` list).
 */
export const builder = new SchemaBuilder<{
  Context: RequestContext;
  DefaultFieldNullability: false;
  Scalars: { ID: { Input: string; Output: string }; JSON: { Input: unknown; Output: unknown } };
}>({
  plugins: [ValidationPlugin],
  defaultFieldNullability: false,
  validation: {
    // Issue paths start with the argument's name; the pointers are relative to its value.
    validationError: (failure) => invalidPayload(toProblems(failure.issues, 1)),
  },
});

/** Any JSON value: a configuration snapshot, the values of a JSON Patch. */
builder.scalarType('JSON', {
  description: 'Any JSON value.',
  serialize: (value) => value,
  parseValue: (value) => value,
});

builder.queryType({});
builder.mutationType({});

/** Describes a string field that takes one of a closed set of values. */
export const oneOf = (values: readonly string[], what = 'One of') => `${what}: ${values.join(', ')}.`;
