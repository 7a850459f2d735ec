import type { EntityName } from '@mikro-orm/core';
import type { RequestContext } from '../../kernel/context.ts';
import { type FieldList, sentFields } from '../../kernel/contract/field-list.ts';

/**
 * What the selection compiler knows of the GraphQL object types that are rows of a table: per
 * GraphQL field, the stored properties (MikroORM entity properties) it reads, or the list of
 * child rows it is. Each feature declares its own types here from its *.graphql.ts, mostly from
 * the payload's field list: a field list key reads its stored property (`stored ?? key`), so a
 * new field of a payload needs no declaration of its own. Fields declared nowhere (fields with
 * arguments, revisions, consents, scans, …) are left to their resolvers, which need no more of
 * the node than its id (and a domain's client id), always selected.
 */

/** A row as the compiled statement returns it: stored properties by name, lists of child rows. */
export type Row = Record<string, unknown>;

export type TableDeclaration<T extends object = object> = {
  /** The GraphQL object type. */
  type: string;
  /** The entity whose table holds the rows; column names come from its metadata. */
  entity: EntityName<T>;
  /** The payload's field list: every field it sends reads its stored property (`stored ?? key`). */
  fields?: FieldList;
  /**
   * Fields that read other stored properties than their own: computed by the view (a domain's
   * `url` from scheme, host, port and path), or outside the field list (a domain's `clientId`).
   */
  reads?: Readonly<Record<string, readonly string[]>>;
  /** Stored properties every node of the type reads, whatever is selected: its id, what its view always reads. */
  always: readonly string[];
  /**
   * A row (the properties the selection needs; those it does not need are absent) → the node its
   * resolvers get, through the payload's view, so every value is the one the usual path makes.
   */
  toNode: (row: Row) => object;
  /**
   * For selections with fields left to resolvers that read the node's whole stored record through
   * a loader of the request (a domain's scans, snippets, revisions read it with `readDomain`): the
   * row then holds the record as the read model reads it (`fieldsOf`: every stored column but the
   * timestamps), and `keep` gets it, to put it in that loader as if it had read it.
   */
  keep?: (ctx: RequestContext, record: Row, row: Row) => void;
};

export type ListDeclaration = {
  /** The GraphQL object type the list is a field of, and the field. */
  parent: string;
  field: string;
  /** The GraphQL object type of the items. */
  child: string;
  /** The items' many-to-one property that points at the parent. */
  foreignKey: string;
  /** The item property the list is ordered by, ascending: as the reads of the usual path order it. */
  orderBy: string;
  /**
   * Whether the list is a field of the parent's payload (an embedding's `assets`), set on the node;
   * otherwise the field has a resolver of its own, which takes the list with `prefetched`.
   */
  inPayload?: boolean;
  /** Fields with arguments that read the list from the node (an embedding's `asset(id:)`). */
  readBy?: readonly string[];
  /** Puts the items' nodes in the order the usual path sends them, when SQL does not (locales by name). */
  arrange?: (nodes: object[]) => object[];
};

/** What a GraphQL field of a table's type is to the compiler. */
export type FieldUse = { readonly reads: readonly string[] } | { readonly list: string };

export type Shape = {
  readonly type: string;
  readonly entity: EntityName<object>;
  readonly fields: ReadonlyMap<string, FieldUse>;
  readonly lists: ReadonlyMap<string, ListDeclaration>;
  readonly always: readonly string[];
  readonly toNode: (row: Row) => object;
  readonly keep?: (ctx: RequestContext, record: Row, row: Row) => void;
};

const tables = new Map<string, TableDeclaration<object>>();
const lists: ListDeclaration[] = [];
let shapes: Map<string, Shape> | undefined;

function checkOpen(what: string): void {
  if (shapes) throw new Error(`${what} declared after the first compiled selection: declare it when the schema is built`);
}

/** Declares a GraphQL object type as rows of a table. */
export function declareTable<T extends object>(declaration: TableDeclaration<T>): void {
  checkOpen(`table type ${declaration.type}`);
  if (tables.has(declaration.type)) throw new Error(`table type ${declaration.type} is declared twice`);
  tables.set(declaration.type, declaration as unknown as TableDeclaration<object>);
}

/** Declares a list field of a table's type whose items are rows of another table's type. */
export function declareList(declaration: ListDeclaration): void {
  checkOpen(`list ${declaration.parent}.${declaration.field}`);
  lists.push(declaration);
}

function build(): Map<string, Shape> {
  const built = new Map<string, Shape>();
  for (const table of tables.values()) {
    const fields = new Map<string, FieldUse>();
    for (const [key, field] of sentFields(table.fields ?? {})) fields.set(key, { reads: [field.stored ?? key] });
    for (const [key, reads] of Object.entries(table.reads ?? {})) fields.set(key, { reads });
    const { type, entity, always, toNode, keep } = table;
    built.set(type, { type, entity, fields, lists: new Map(), always, toNode, keep });
  }
  for (const list of lists) {
    const parent = built.get(list.parent);
    if (!parent) throw new Error(`list ${list.parent}.${list.field}: ${list.parent} is not a declared table type`);
    if (!built.has(list.child)) throw new Error(`list ${list.parent}.${list.field}: ${list.child} is not a declared table type`);
    if (parent.lists.has(list.field)) throw new Error(`list ${list.parent}.${list.field} is declared twice`);
    (parent.lists as Map<string, ListDeclaration>).set(list.field, list);
    const fields = parent.fields as Map<string, FieldUse>;
    for (const field of [list.field, ...(list.readBy ?? [])]) fields.set(field, { list: list.field });
  }
  return built;
}

/** The shape of a declared table type (every declaration is in once the first one is asked for). */
export function shapeOf(type: string): Shape {
  shapes ??= build();
  const shape = shapes.get(type);
  if (!shape) throw new Error(`${type} is not a declared table type`);
  return shape;
}
