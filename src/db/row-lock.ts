import type { EntityName } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';

const quote = (identifier: string) => `"${identifier.replaceAll('"', '""')}"`;

/**
 * Loads the row with primary key `id` into the EntityManager and locks it until the transaction ends, or null.
 *
 * The lock is FOR NO KEY UPDATE, not FOR UPDATE: writers that lock the same row still queue
 * up, but inserting a child row, whose foreign-key check takes a KEY SHARE lock on this row,
 * does not wait for them. With FOR UPDATE a bulk replace holding the domain and a concurrent
 * create waiting on it for its key check could wait on each other: a deadlock.
 *
 * Raw SQL because MikroORM has no such lock mode. Checked in MikroORM 7.2.1: its `LockMode` enum
 * (@mikro-orm/core, packages/core/src/enums.ts upstream) offers NONE, OPTIMISTIC and the
 * PESSIMISTIC_* modes, and the query builder writes those as `for share` or `for update` (with
 * `skip locked` / `nowait`) and nothing else (`NativeQueryBuilder.addLockClause`, @mikro-orm/sql,
 * packages/sql/src/query/NativeQueryBuilder.ts upstream): no `for no key update`, no `for key share`.
 */
export async function lockById<T extends object>(
  em: EntityManager,
  entity: EntityName<T>,
  id: string,
): Promise<T | null> {
  const meta = em.getMetadata().get(entity);
  const key = quote(meta.properties[meta.primaryKeys[0] as keyof typeof meta.properties]!.fieldNames[0]!);
  const [row] = await em.execute<Record<string, unknown>[]>(`select * from ${quote(meta.tableName)} where ${key} = ? for no key update`, [id]);
  return row ? em.map(entity, row as never) : null;
}
