import { type FieldList, type PayloadOf, sentFields, sentSchema, type SentValue } from './field-list.ts';

/**
 * The view of a payload (stored record → payload), derived from its field list: each field is
 * read from the stored property of its name (or its `stored` name), unless the view computes it.
 */

type StoredName<K, F> = F extends { readonly stored: infer S extends string } ? S : K;
/** A nullable column the ORM left unset reads as undefined; the view sends null. */
type StoredValue<T> = null extends T ? T | undefined : T;
/** What a stored record must hold for the view to read the fields it does not compute. */
type WriteOnlyKeys<L> = { [K in keyof L]: L[K] extends { readonly writeOnly: true } ? K : never }[keyof L];
export type StoredFieldsOf<L, Computed = never> = {
  [K in Exclude<keyof L, Computed | WriteOnlyKeys<L>> as StoredName<K, L[K]>]: StoredValue<SentValue<L[K]>>;
};

type ComputedFields<L> = { readonly [K in keyof L]?: (row: never) => SentValue<L[K]> };
type UnionToIntersection<U> = (U extends unknown ? (arg: U) => void : never) extends (arg: infer I) => void ? I : never;
/** What the computed fields read from the record. */
type ComputedFrom<C> = UnionToIntersection<{ [K in keyof C]: C[K] extends (row: infer R) => unknown ? R : never }[keyof C]>;

type Reader = (row: Record<string, unknown>) => unknown;

/**
 * The view of the payload of `list`: null where a nullable field is unset; `computed` computes the
 * fields named in it. A record that lacks a stored property the view reads, or holds another type
 * there, does not type-check.
 */
export function viewOf<L extends FieldList, C extends ComputedFields<L> = Record<never, never>>(list: L, computed?: C) {
  const readers = sentFields(list).map(([key, field]): [string, Reader] => {
    const compute = computed?.[key] as Reader | undefined;
    if (compute) return [key, compute];
    const property = field.stored ?? key;
    const nullable = sentSchema(field).safeParse(null).success;
    return [key, (row) => (row[property] === undefined && nullable ? null : row[property])];
  });
  return <Row extends StoredFieldsOf<L, keyof C> & ComputedFrom<C>>(row: Row): PayloadOf<L> => {
    const payload: Record<string, unknown> = {};
    for (const [key, read] of readers) payload[key] = read(row as unknown as Record<string, unknown>);
    return payload as PayloadOf<L>;
  };
}
