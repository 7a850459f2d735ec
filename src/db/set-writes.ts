import { ReferenceKind } from '@mikro-orm/core';
import type { EntityManager, EntityName } from '@mikro-orm/postgresql';

/**
 * Hot writes skip the unit of work: a set of rows goes to the database as one JSON parameter,
 * turned into rows of the table by PostgreSQL (`json_populate_recordset`), in one statement
 * however many rows there are. Records are keyed by entity property names, a many-to-one by the
 * id it points at; columns and table names come from the ORM's metadata.
 */

const quote = (identifier: string) => `"${identifier.replaceAll('"', '""')}"`;

type Column = { property: string; column: string; scalar: boolean };

const columnCache = new WeakMap<object, Column[]>();

/** The stored columns of `entity`: its scalar properties and the foreign keys of its many-to-ones. */
function columnsOf<T extends object>(em: EntityManager, entity: EntityName<T>): Column[] {
  const meta = em.getMetadata().get(entity);
  let columns = columnCache.get(meta);
  if (!columns) {
    columns = meta.props
      .filter((prop) => (prop.kind === ReferenceKind.SCALAR || prop.kind === ReferenceKind.MANY_TO_ONE) && prop.persist !== false)
      .map((prop) => ({ property: prop.name, column: prop.fieldNames[0]!, scalar: prop.kind === ReferenceKind.SCALAR }));
    columnCache.set(meta, columns);
  }
  return columns;
}

/** The quoted table name of `entity`. */
export const tableOf = <T extends object>(em: EntityManager, entity: EntityName<T>): string => quote(em.getMetadata().get(entity).tableName);

/**
 * `insert into "t" ("a", "b", …) select "a", "b", … from json_populate_recordset(null::"t", ?::json)`
 * followed by `where` (one condition, e.g. that the parent exists): the rows of one parameter
 * (see `rowsParameter`) inserted at once.
 */
export function insertRows<T extends object>(em: EntityManager, entity: EntityName<T>, where = 'true'): string {
  return `${insertFrom(em, entity, `json_populate_recordset(null::${tableOf(em, entity)}, ?::json)`)} where ${where}`;
}

/** Records (keyed by property name) as the JSON parameter of `insertRows`: keyed by column, dates as ISO text. */
export function rowsParameter<T extends object>(em: EntityManager, entity: EntityName<T>, records: readonly object[]): string {
  const columns = columnsOf(em, entity);
  return JSON.stringify(
    records.map((record) => {
      const row: Record<string, unknown> = {};
      for (const { property, column } of columns) row[column] = (record as Record<string, unknown>)[property] ?? null;
      return row;
    }),
  );
}

/**
 * An update's assignments of the given properties (those undefined left out), from one JSON
 * parameter: `("a", "b") = (select r."a", r."b" from json_populate_record(null::"t", ?::json) r)`
 * and its parameter.
 */
export function assignments<T extends object>(
  em: EntityManager,
  entity: EntityName<T>,
  values: Record<string, unknown>,
): { sql: string; params: [string] } {
  const given = columnsOf(em, entity).filter(({ property }) => values[property] !== undefined);
  const targets = given.map(({ column }) => quote(column)).join(', ');
  const sources = given.map(({ column }) => `r.${quote(column)}`).join(', ');
  const row = Object.fromEntries(given.map(({ property, column }) => [column, values[property]]));
  return {
    sql: `(${targets}) = (select ${sources} from json_populate_record(null::${tableOf(em, entity)}, ?::json) r)`,
    params: [JSON.stringify(row)],
  };
}

const TIMESTAMPS = new Set(['createdAt', 'updatedAt']);

/**
 * The stored scalar fields of `entity` (timestamps aside), each as the read model names it:
 * `"a"."storage_type" as "storageType", …` (without `alias`: `"storage_type" as "storageType"`,
 * for a RETURNING clause) — the same record `fieldsOf` selects through the query builder.
 */
export function recordColumns<T extends object>(em: EntityManager, entity: EntityName<T>, alias?: string): string {
  return columnsOf(em, entity)
    .filter(({ property, scalar }) => scalar && !TIMESTAMPS.has(property))
    .map(({ property, column }) => `${alias ? `${quote(alias)}.` : ''}${quote(column)} as ${quote(property)}`)
    .join(', ');
}

/**
 * The stored columns of `entity` as a select list in `insertRows`' order, each its column of the
 * row source, or an expression of its own where `instead` gives one (keyed by property name).
 */
export function selectedColumns<T extends object>(em: EntityManager, entity: EntityName<T>, instead: Record<string, string> = {}): string {
  return columnsOf(em, entity)
    .map(({ property, column }) => (property in instead ? `${instead[property]} as ${quote(column)}` : quote(column)))
    .join(', ');
}

/** `insert into "t" (…) select … from <source>`: the rows of `source`, a relation of the statement with every stored column (e.g. a common table expression). */
export function insertFrom<T extends object>(em: EntityManager, entity: EntityName<T>, source: string): string {
  const names = columnsOf(em, entity)
    .map(({ column }) => quote(column))
    .join(', ');
  return `insert into ${tableOf(em, entity)} (${names}) select ${names} from ${source}`;
}

/**
 * `insertFrom`, but a row whose id is taken updates that row instead: every column but the id
 * and the creation time, and only when one of them differs, so an unchanged row keeps its
 * `updatedAt` (as the unit of work would).
 */
export function upsertRows<T extends object>(em: EntityManager, entity: EntityName<T>, source: string): string {
  const columns = columnsOf(em, entity);
  const table = tableOf(em, entity);
  const changeable = columns.filter(({ property }) => property !== 'id' && property !== 'createdAt');
  const compared = changeable.filter(({ property }) => property !== 'updatedAt');
  const list = (of: typeof columns, prefix: string) => of.map(({ column }) => `${prefix}.${quote(column)}`).join(', ');
  return (
    `${insertFrom(em, entity, source)} on conflict ("id") do update ` +
    `set ${changeable.map(({ column }) => `${quote(column)} = excluded.${quote(column)}`).join(', ')} ` +
    `where (${list(compared, table)}) is distinct from (${list(compared, 'excluded')})`
  );
}
