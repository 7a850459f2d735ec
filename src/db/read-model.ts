import { ReferenceKind } from '@mikro-orm/core';
import { type EntityManager, type EntityName, type Field, type RawQueryFragment, sql } from '@mikro-orm/postgresql';
import type { Owned } from '../kernel/access.ts';
import { executePrepared } from './prepared-statements.ts';

/**
 * The hot read paths skip the unit of work: they select exactly the fields a payload needs and get
 * plain rows back, keyed by entity property names (`{ id, scriptHtmlCode, … }`), without hydrating
 * entities — a few times cheaper per request than loading entities. Writes go through entities as
 * before.
 *
 * Each read is written with MikroORM's query builder, which maps properties to columns and quotes
 * them, and is built once per ORM (`preparedRead`): building and compiling one costs 50–250 µs of
 * CPU (measured with MikroORM 7.2.1), a third to a half on top of running it, so a request only
 * puts its values into SQL compiled before, and sends it as a prepared statement
 * (prepared-statements.ts), which the database plans once per connection.
 */

const SKIPPED = new Set(['createdAt', 'updatedAt']);

/**
 * The stored scalar properties of `entity` as query-builder fields, each selected under its own
 * name: `['t.id as id', 't.isDefault as isDefault', …]` (`"t"."is_default" as "isDefault"` in SQL).
 */
export function fieldsOf<T extends object, Alias extends string>(em: EntityManager, entity: EntityName<T>, alias: Alias): Field<T, Alias>[] {
  return em
    .getMetadata()
    .get(entity)
    .props.filter((prop) => prop.kind === ReferenceKind.SCALAR && prop.persist !== false && !SKIPPED.has(prop.name))
    .map((prop) => `${alias}.${prop.name} as ${prop.name}` as Field<T, Alias>);
}

/**
 * A condition on an id property: equal to any of a list of ids, given as ONE parameter, a
 * `uuid[]` (`"d"."id" = any(?::uuid[])`), whatever the number of ids. MikroORM writes parameter
 * values into the SQL text itself (Platform.formatQuery) and would write a JS array as a comma
 * list, so the list goes as one array literal: see `uuidList`.
 */
export const anyOf = (list: string) => ({ $eq: sql`any(${list}::uuid[])` });

/** Ids (checked to be UUIDs before they get here) as one PostgreSQL array literal, `{…,…}`, for `anyOf`. */
export const uuidList = (em: EntityManager, ids: readonly string[]): string => em.getPlatform().marshallArray([...ids]);

/** A select of the query builder, used as a sub-select. */
type Subselect = { toRaw(): RawQueryFragment };

/**
 * The rows of a (correlated) sub-select as one JSON array of plain objects, ordered by one of its
 * fields, and `[]` when there are none:
 * `coalesce((select json_agg(x order by "x"."position") from (select …) as x), '[]'::json)`.
 */
export const jsonArrayOf = (rows: Subselect, orderBy: string): RawQueryFragment =>
  sql`coalesce((select json_agg(x order by ${sql.ref('x', orderBy)}) from (${rows.toRaw()}) as x), '[]'::json)`;

/** A join condition that always holds, for a lateral join whose sub-select is already correlated. */
const ALWAYS = { [sql`true`]: [] };

/**
 * The owners whose ids are in `ids` (a `uuidList`) left-joined to their items: `select <alias>.id
 * as "ownerId", <ownerOf> as "ownerOf", i.* from <owner> left join lateral (<items>) as i on true
 * where <alias>.id = any(…) order by i.id` — one row per item, and one with null item fields for
 * an owner without items (see `groupByOwner`). `items` selects the fields of one owner's items,
 * correlated to the owner's alias (`{ 'p.domain': sql.ref('d.id') }`); PostgreSQL pulls it up into
 * a plain left join. A lateral sub-select rather than a join of the item entity because the query
 * builder joins relations only, and owners (clients, domains) have no collection of their items.
 */
export function ownersWithItems<T extends object, Alias extends string>(
  em: EntityManager,
  owner: EntityName<T>,
  alias: Alias,
  ownerOf: `${Alias}.${string}`,
  items: Subselect,
  ids: string,
) {
  return em
    .qb(owner, alias)
    .select([`${alias}.id as ownerId`, `${ownerOf} as ownerOf`, 'i.*'] as Field<T, Alias>[])
    .leftJoinLateral(items.toRaw(), 'i', ALWAYS)
    .where({ [`${alias}.id`]: anyOf(ids) } as never)
    .orderBy({ 'i.id': 'asc' } as never);
}

/**
 * Groups `owner left join item` rows by owner: owners absent from the rows do not exist (null);
 * a row without an item id is an owner without items.
 */
export function groupByOwner<T extends { id: string | null }>(
  keys: readonly string[],
  rows: (T & { ownerId: string; ownerOf: string })[],
): (Owned<T> | null)[] {
  const owners = new Map<string, Owned<T>>();
  for (const { ownerId, ownerOf, ...item } of rows) {
    const owner = owners.get(ownerId) ?? { ownerOf, items: [] };
    owners.set(ownerId, owner);
    if ((item as unknown as T).id !== null) owner.items.push(item as unknown as T);
  }
  return keys.map((key) => owners.get(key) ?? null);
}

/** Marks a stand-in for a parameter value while a prepared read is built. */
const STAND_IN = '\u0000prepared read parameter:';

/** A parameter of compiled SQL: a value the read is given on each run. */
class Slot {
  readonly name: string;
  constructor(name: string) {
    this.name = name;
  }
}

type Compiled = { sql: string; params: readonly unknown[] };

/**
 * A read built with the query builder once per ORM, then run with new values as often as needed.
 * `build` gets, for each value, a stand-in to put where the value goes (`{ 't.id': values.themeId }`,
 * `{ 'd.id': anyOf(values.ids) }`); the compiled SQL keeps a parameter there, which each run fills
 * with the value it is given. Building fails if a stand-in ends up written into the SQL text itself
 * (a raw fragment at the top of a where clause is formatted at once: use it as a value instead).
 *
 * It goes out as a named prepared statement (db/prepared-statements.ts), which PostgreSQL plans once
 * per connection for any values: write it so that its best plan does not change as the tables grow
 * (a plan kept from when a domain was small must not scan all of its rows once it is large).
 *
 * `rowsAsJson`: each row comes as one JSON value (`row_to_json`), parsed with one `JSON.parse`.
 * For rows of many columns that costs the service less than pg's work per column and per result
 * (a parser per field, and a row object built key by key from the row description): the single
 * embedding read, 25 columns with its assets, took 15 % less CPU per request (bench/HISTORY.md).
 * Only for reads whose values JSON keeps as pg would give them: no timestamps, no int8.
 */
export function preparedRead<Values extends Record<string, string>, Row>(
  build: (em: EntityManager, values: Values) => { toQuery(): Compiled },
  options: { rowsAsJson?: boolean } = {},
): (em: EntityManager, values: Values) => Promise<Row[]> {
  const compiled = new WeakMap<object, Compiled>();
  const standIns = new Proxy({} as Values, { get: (_, name) => `${STAND_IN}${String(name)}` });

  function compile(em: EntityManager): Compiled {
    const query = build(em, standIns).toQuery();
    if (query.sql.includes(STAND_IN)) throw new Error(`a value of a prepared read went into its SQL text: ${query.sql}`);
    const params = query.params.map((param) =>
      typeof param === 'string' && param.startsWith(STAND_IN) ? new Slot(param.slice(STAND_IN.length)) : param,
    );
    return { sql: options.rowsAsJson ? `select row_to_json("row") as "row" from (${query.sql}) as "row"` : query.sql, params };
  }

  return async (em, values) => {
    const metadata = em.getMetadata();
    let query = compiled.get(metadata);
    if (!query) compiled.set(metadata, (query = compile(em)));
    const params = query.params.map((param) => (param instanceof Slot ? values[param.name] : param));
    const rows = await executePrepared<Row>(em, query.sql, params);
    return options.rowsAsJson ? rows.map((row) => (row as { row: Row }).row) : rows;
  };
}
