import { ReferenceKind } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Owned } from '../kernel/access.ts';

/**
 * The hot read paths skip the unit of work: they select exactly the columns a payload needs and
 * get plain rows back, keyed by entity property names (`script_html_code as "scriptHtmlCode"`),
 * without hydrating entities — a few times cheaper per request than loading entities. Writes go
 * through entities as before. The column lists come from the entity metadata, built once.
 */

const SKIPPED = new Set(['createdAt', 'updatedAt']);

/** An entity definition (`defineEntity(...)`), as the metadata storage takes it. */
type Entity = { meta: { className: string } } | { name: string };
type MetadataKey = Parameters<EntityManager['getMetadata']>[0] & object;
const built = new WeakMap<object, Map<string, string>>();

const nameOf = (entity: Entity) => ('meta' in entity ? entity.meta.className : entity.name);

const quote = (identifier: string) => `"${identifier.replaceAll('"', '""')}"`;

function memo(em: EntityManager, key: string, build: () => string): string {
  const metadata = em.getMetadata();
  let entries = built.get(metadata);
  if (!entries) built.set(metadata, (entries = new Map()));
  let value = entries.get(key);
  if (value === undefined) entries.set(key, (value = build()));
  return value;
}

function scalarColumns(em: EntityManager, entity: Entity): [property: string, column: string][] {
  return em
    .getMetadata(entity as unknown as MetadataKey)
    .props.filter((prop) => prop.kind === ReferenceKind.SCALAR && prop.persist !== false && !SKIPPED.has(prop.name))
    .map((prop) => [prop.name, prop.fieldNames[0]!]);
}

/** `e."id" as "id", e."script_html_code" as "scriptHtmlCode", …` for every stored scalar. */
export function columnsOf(em: EntityManager, entity: Entity, alias: string): string {
  return memo(em, `columns ${nameOf(entity)} ${alias}`, () =>
    scalarColumns(em, entity)
      .map(([property, column]) => `${alias}.${quote(column)} as ${quote(property)}`)
      .join(', '),
  );
}

/** `json_build_object('id', a."id", 'storageType', a."storage_type", …)` for every stored scalar. */
export function jsonObjectOf(em: EntityManager, entity: Entity, alias: string): string {
  return memo(em, `json ${nameOf(entity)} ${alias}`, () =>
    `json_build_object(${scalarColumns(em, entity)
      .map(([property, column]) => `'${property}', ${alias}.${quote(column)}`)
      .join(', ')})`,
  );
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

/** Runs a select whose one parameter is the list of ids (checked to be UUIDs before they get here), as a uuid array. */
export const selectByIds = <T>(em: EntityManager, sql: string, ids: readonly string[]) =>
  em.execute<T[]>(sql, [`{${ids.join(',')}}`]);
