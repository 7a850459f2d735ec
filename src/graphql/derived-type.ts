import { z } from 'zod';
import { oneOf } from './builder.ts';

/** The GraphQL type of a value, read off its zod schema where a scalar or a list of scalars spells it out. */

export type GraphqlScalar = 'ID' | 'String' | 'Boolean' | 'Int' | 'Float';

export type DerivedType = {
  scalar: GraphqlScalar;
  list: boolean;
  /** Null is a value, or the field may be left out. */
  nullable: boolean;
  description: string | undefined;
};

/** The schema inside its nullable and optional wrappers, whether the value may be missing, and its description. */
function unwrap(schema: z.ZodType): { inner: z.ZodType; nullable: boolean; description: string | undefined } {
  let inner = schema;
  let nullable = false;
  let present = false;
  let description = schema.description;
  for (;;) {
    if (inner instanceof z.ZodNullable) nullable = true;
    else if (inner instanceof z.ZodNonOptional) present = true;
    else if (inner instanceof z.ZodOptional) nullable ||= !present;
    else break;
    inner = inner.unwrap() as z.ZodType;
    description ??= inner.description;
  }
  return { inner, nullable, description };
}

function scalarOf(schema: z.ZodType): { scalar: GraphqlScalar; values?: readonly string[] } | undefined {
  if (schema instanceof z.ZodString || schema instanceof z.ZodStringFormat) return { scalar: 'String' };
  if (schema instanceof z.ZodEnum) return { scalar: 'String', values: schema.options.map(String) };
  if (schema instanceof z.ZodBoolean) return { scalar: 'Boolean' };
  if (schema instanceof z.ZodNumber) return { scalar: schema.isInt ? 'Int' : 'Float' };
  return undefined;
}

/**
 * The GraphQL type of field `key`; undefined when its schema is no scalar or list of scalars
 * (a map, an object). A field called `id` is an ID. GraphQL takes an enum as a String, so the
 * description lists its values, unless it names them all already.
 */
function derivedType(key: string, schema: z.ZodType): DerivedType | undefined {
  const { inner, nullable, description } = unwrap(schema);
  const list = inner instanceof z.ZodArray;
  const item = scalarOf(list ? (inner.element as z.ZodType) : inner);
  if (!item) return undefined;
  const { values } = item;
  const listed = values && !values.every((value) => description?.includes(value));
  return {
    scalar: key === 'id' && item.scalar === 'String' ? 'ID' : item.scalar,
    list,
    nullable,
    description: [listed ? oneOf(values, list ? 'Each of' : 'One of') : undefined, description].filter(Boolean).join(' ') || undefined,
  };
}

/** The derived type, or a failure that names the field: its GraphQL type must be declared. */
export function requireDerivedType(key: string, schema: z.ZodType): DerivedType {
  const type = derivedType(key, schema);
  if (!type) throw new Error(`the GraphQL type of field ${key} cannot be derived from its schema: declare it`);
  return type;
}
