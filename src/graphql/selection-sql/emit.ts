import { type EntityMetadata, type EntityProperty, ReferenceKind } from '@mikro-orm/core';
import type { EntityName } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { fieldsOf } from '../../db/read-model.ts';
import type { Plan } from './walk.ts';

/**
 * A plan → one SQL statement that returns each root row as one JSON value, its lists nested in it:
 *
 *     select to_json(r) as "node" from (
 *       select "t0"."id" as "id", "t0"."host" as "host", …,
 *         (select coalesce(json_agg("j1" order by "j1"."id"), '[]'::json) from (
 *            select "t2"."id" as "id", …,
 *              (select coalesce(json_agg("j3" order by "j3"."position"), '[]'::json) from (
 *                 select … from "embedding_asset" as "t4" where "t4"."embedding_id" = "t2"."id") as "j3") as "$assets"
 *            from "embedding" as "t2" where "t2"."domain_id" = "t0"."id") as "j1") as "$embeddings"
 *       from "domain" as "t0" where "t0"."id" = ? and "t0"."client_id" = ?) as "r"
 *
 * Each row becomes JSON whole (`to_json` of a sub-select's row, not `json_build_object`, which
 * takes at most 100 arguments), with only the columns the selection needs: the type's `always`,
 * what its fields read, the items' order and foreign key. Column names, formulas and quoting come
 * from the ORM's metadata and platform; values are `?` parameters, never part of the text.
 */

/** The rows a compiled root statement starts from. */
export type Root = {
  /** The GraphQL object type of the rows. */
  readonly type: string;
  /** Stored properties equal to the statement's values, in the order of the values. */
  readonly where: readonly string[];
  /** The property several rows come ordered by, ascending. */
  readonly orderBy?: string;
  /**
   * Whether a row counts only when it holds exactly the values given, as strings (the usual
   * path finds domains by id in a map, where an upper-case spelling of an id finds nothing).
   */
  readonly exact?: boolean;
};

/**
 * The properties of an entity's stored record as the read model reads it (`fieldsOf`), for the
 * types that keep it (shapes.ts, `keep`): the same properties, so the record kept is the one read.
 */
export function recordProperties(em: EntityManager, entity: EntityName<object>): readonly string[] {
  const metadata = em.getMetadata();
  let byEntity = records.get(metadata);
  if (!byEntity) records.set(metadata, (byEntity = new Map()));
  let names = byEntity.get(entity);
  if (!names) {
    // `fieldsOf` gives `x.<property> as <property>`.
    names = fieldsOf(em, entity, 'x').map((field) => String(field).slice(String(field).lastIndexOf(' as ') + 4));
    byEntity.set(entity, names);
  }
  return names;
}

const records = new WeakMap<object, Map<EntityName<object>, readonly string[]>>();

/** The key a list's items have in their parent's row. */
export const listKey = (field: string): string => `$${field}`;

type Metadata = EntityMetadata;

const propertyOf = (meta: Metadata, name: string): EntityProperty | undefined =>
  (meta.properties as Record<string, EntityProperty | undefined>)[name];

class Emitter {
  private aliases = 0;
  private readonly em: EntityManager;

  constructor(em: EntityManager) {
    this.em = em;
  }

  private quote(identifier: string): string {
    return this.em.getPlatform().quoteIdentifier(identifier);
  }

  private alias(prefix: string): string {
    return `${prefix}${this.aliases++}`;
  }

  /** A stored property of `alias`'s row as an SQL expression: its column, or its formula. */
  column(meta: Metadata, alias: string, name: string): string {
    const prop = propertyOf(meta, name);
    if (!prop) throw new Error(`compiled selection: ${meta.className} has no property ${name}`);
    const platform = this.em.getPlatform();
    if (prop.formula) {
      const quoted = this.quote(alias);
      const schema = meta.schema && meta.schema !== '*' ? meta.schema : undefined;
      const table = { alias: quoted, name: meta.tableName, schema, qualifiedName: schema ? `${schema}.${meta.tableName}` : meta.tableName, toString: () => quoted };
      return `(${this.em.getDriver().evaluateFormula(prop.formula, meta.createColumnMappingObject(alias), table)})`;
    }
    const stored = prop.kind === ReferenceKind.SCALAR || prop.kind === ReferenceKind.MANY_TO_ONE;
    if (!stored || prop.persist === false || prop.fieldNames?.length !== 1) {
      throw new Error(`compiled selection: ${meta.className}.${name} is not one stored column`);
    }
    const prefixed = platform.quoteIdentifier(`${alias}.${prop.fieldNames[0]}`);
    return prop.customType?.convertToJSValueSQL ? prop.customType.convertToJSValueSQL(prefixed, platform) : prefixed;
  }

  private table(meta: Metadata): string {
    const schema = meta.schema && meta.schema !== '*' ? `${this.quote(meta.schema)}.` : '';
    return `${schema}${this.quote(meta.tableName)}`;
  }

  /**
   * The select of the plan's rows: its columns under their property names, each list as a JSON
   * array under `listKey(field)`; `where` gives the condition on the rows' alias.
   */
  select(plan: Plan, extra: readonly string[], where: (meta: Metadata, alias: string) => string): string {
    const meta = this.em.getMetadata().get(plan.shape.entity) as Metadata;
    const alias = this.alias('t');
    const properties = new Set([...plan.shape.always, ...extra, ...plan.properties]);
    if (plan.others && plan.shape.keep) for (const name of recordProperties(this.em, plan.shape.entity)) properties.add(name);
    const columns = [...properties].map((name) => `${this.column(meta, alias, name)} as ${this.quote(name)}`);
    for (const [field, items] of plan.lists) {
      const list = plan.shape.lists.get(field)!;
      const rows = this.select(items, [list.orderBy], (itemMeta, itemAlias) => {
        const foreignKey = propertyOf(itemMeta, list.foreignKey);
        const referenced = foreignKey?.referencedColumnNames?.[0];
        if (foreignKey?.kind !== ReferenceKind.MANY_TO_ONE || !referenced) {
          throw new Error(`compiled selection: ${itemMeta.className}.${list.foreignKey} is not a many-to-one of ${meta.className}`);
        }
        return `${this.column(itemMeta, itemAlias, list.foreignKey)} = ${this.quote(`${alias}.${referenced}`)}`;
      });
      const item = this.quote(this.alias('j'));
      columns.push(
        `(select coalesce(json_agg(${item} order by ${item}.${this.quote(list.orderBy)}), '[]'::json) from (${rows}) as ${item}) as ${this.quote(listKey(field))}`,
      );
    }
    const condition = where(meta, alias);
    return `select ${columns.join(', ')} from ${this.table(meta)} as ${this.quote(alias)}${condition ? ` where ${condition}` : ''}`;
  }
}

/** The statement of a plan from its root rows; its values are the root's `where`, in order. */
export function emitStatement(em: EntityManager, plan: Plan, root: Root): string {
  if (plan.shape.type !== root.type) throw new Error(`compiled selection: a plan of ${plan.shape.type} from a root of ${root.type}`);
  const emitter = new Emitter(em);
  const extra = root.orderBy ? [...root.where, root.orderBy] : root.where;
  const rows = emitter.select(plan, extra, (meta, alias) =>
    root.where.map((name) => `${emitter.column(meta, alias, name)} = ?`).join(' and '),
  );
  const order = root.orderBy ? ` order by "r".${em.getPlatform().quoteIdentifier(root.orderBy)}` : '';
  return `select to_json("r") as "node" from (${rows}) as "r"${order}`;
}
