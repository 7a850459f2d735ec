import type { FieldMap, GenericFieldRef, GenericInputFieldRef, InputFieldMap } from '@pothos/core';
import type { z } from 'zod';
import {
  type FieldList,
  type PayloadOf,
  sentFields,
  sentSchema,
  takenSchema,
  type UpdateShape,
} from '../kernel/contract/field-list.ts';
import type { builder } from './builder.ts';
import { type DerivedType, type GraphqlScalar, requireDerivedType } from './derived-type.ts';

/**
 * The GraphQL side of a payload's field list (src/kernel/contract/field-list.ts): the fields of
 * its object type and of its input types. Each is derived from the field's zod schema where a
 * scalar or a list of scalars says it (derived-type.ts); the caller declares the others
 * (translations as lists of entries, nested objects), and the compiler asks for them.
 */

type Types = typeof builder.$inferSchemaTypes;
type ObjectFieldBuilder<Shape> = PothosSchemaTypes.ObjectFieldBuilder<Types, Shape>;
type InputFieldBuilder = PothosSchemaTypes.InputFieldBuilder<Types, 'InputObject'>;

// ── which fields must be declared ───────────────────────────────────────────

type ScalarValue = string | number | boolean;
type Derivable<T> = [Exclude<T, null | undefined>] extends [ScalarValue | readonly ScalarValue[]] ? true : false;
type Underived<Values> = { [K in keyof Values]-?: Derivable<Values[K]> extends true ? never : K }[keyof Values];
type WrittenValues<L> = z.output<z.ZodObject<UpdateShape<L>>>;
type OfferedKeys<L> = { [K in keyof L]: L[K] extends { readonly readOnly: true } ? never : K }[keyof L];

/** Declared GraphQL fields: required for every field whose type is not derived, allowed for the others. */
type Declared<Keys extends PropertyKey, Underivable extends PropertyKey, Ref> = { readonly [K in Keys]?: Ref } & {
  readonly [K in Underivable]: Ref;
};

export type DeclaredOutputs<L> = Declared<keyof L, Underived<PayloadOf<L>>, GenericFieldRef<unknown>>;
export type DeclaredInputs<L> = Declared<
  OfferedKeys<L>,
  Underived<Pick<WrittenValues<L>, OfferedKeys<L> & keyof WrittenValues<L>>>,
  GenericInputFieldRef<unknown>
>;

// ── fields ──────────────────────────────────────────────────────────────────

const typeParam = (type: DerivedType): GraphqlScalar | [GraphqlScalar] => (type.list ? [type.scalar] : type.scalar);

function exposedField<Shape>(t: ObjectFieldBuilder<Shape>, key: string, type: DerivedType) {
  return t.field({
    type: typeParam(type),
    nullable: type.nullable,
    description: type.description,
    extensions: { pothosExposedField: key },
    // The parent's own field, which the zod schema the type is derived from describes.
    resolve: (parent) => (parent as Record<string, unknown>)[key] as never,
  });
}

const inputField = (t: InputFieldBuilder, type: DerivedType, required: boolean) =>
  t.field({ type: typeParam(type), required, description: type.description });

/**
 * The fields of a payload's object type: every field of the list, as responses send it.
 * `declared` gives those whose GraphQL type is not derived.
 */
export function payloadObjectFields<L extends FieldList, Shape extends PayloadOf<L>>(
  t: ObjectFieldBuilder<Shape>,
  list: L,
  declared: DeclaredOutputs<L>,
): FieldMap {
  const given: Partial<Record<string, GenericFieldRef<unknown>>> = declared;
  return Object.fromEntries(
    sentFields(list).map(([key, field]) => [
      key,
      given[key] ?? exposedField(t, key, requireDerivedType(key, sentSchema(field))),
    ]),
  );
}

/**
 * The fields of a payload's create or update input type: every field the write takes but the
 * read-only ones, required in a create where the list says so. `declared` gives those whose
 * GraphQL type is not derived.
 */
export function payloadInputFields<L extends FieldList>(
  t: InputFieldBuilder,
  list: L,
  write: 'create' | 'update',
  declared: DeclaredInputs<L>,
): InputFieldMap {
  const given: Partial<Record<string, GenericInputFieldRef<unknown>>> = declared;
  return Object.fromEntries(
    Object.entries(list).flatMap(([key, field]) => {
      const taken = takenSchema(field, write);
      if (!taken || field.readOnly) return [];
      const required = write === 'create' && field.required === true;
      return [[key, given[key] ?? inputField(t, requireDerivedType(key, taken), required)]];
    }),
  );
}

type Shape = Readonly<Record<string, z.ZodType>>;

/** The fields of a zod object of scalars (a translation's texts) as an object type's fields. */
export const shapeObjectFields = <Parent>(t: ObjectFieldBuilder<Parent>, shape: Shape): FieldMap =>
  Object.fromEntries(
    Object.entries(shape).map(([key, schema]) => [key, exposedField(t, key, requireDerivedType(key, schema))]),
  );

/** The same as an input type's fields; those the zod object requires are required. */
export const shapeInputFields = (t: InputFieldBuilder, shape: Shape): InputFieldMap =>
  Object.fromEntries(
    Object.entries(shape).map(([key, schema]) => [
      key,
      inputField(t, requireDerivedType(key, schema), !schema.safeParse(undefined).success),
    ]),
  );
