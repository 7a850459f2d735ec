import type { EntityManager } from '@mikro-orm/postgresql';
import type { GraphQLResolveInfo } from 'graphql';
import { executePrepared } from '../../db/prepared-statements.ts';
import { type AppServices, readingEm, type RequestContext } from '../../kernel/context.ts';
import { emitStatement, type Layout, type Root } from './emit.ts';
import { prefetched, toNode } from './nodes.ts';
import { rowOf } from './rows.ts';
import { shapeOf } from './shapes.ts';
import { emptyPlan, type Plan, planOf } from './walk.ts';

/**
 * Runs compiled selections: the resolver of a root field (a domain, a client) hands over its
 * resolve info and the values that find its rows; the selection below it is planned (walk.ts),
 * compiled to one statement (emit.ts) and run through the request's EntityManager as a prepared
 * statement (db/prepared-statements.ts), so the ORM's statement counter sees it like any other
 * read. Statements are kept per ORM metadata and plan, and plans per field node, so a recurring
 * document costs its SQL text once.
 *
 * The caller checks access first, as the operation it stands in for does, and calls that
 * operation when nothing comes back: its answer, and its error, stay exactly the usual ones.
 */

/** Services (one per running service) whose GraphQL does not compile selections. */
const notCompiling = new WeakSet<AppServices>();

/**
 * Turns compiled selections on or off for one service (on by default): with them off every
 * field is read as it is without them, which the tests compare against.
 */
export function compileSelections(services: AppServices, on: boolean): void {
  if (on) notCompiling.delete(services);
  else notCompiling.add(services);
}

type Statement = { readonly sql: string; readonly layout: Layout };

const statements = new WeakMap<object, WeakMap<Plan, Map<Root, Statement>>>();

function statementOf(em: EntityManager, plan: Plan, root: Root): Statement {
  const metadata = em.getMetadata();
  let byPlan = statements.get(metadata);
  if (!byPlan) statements.set(metadata, (byPlan = new WeakMap()));
  let byRoot = byPlan.get(plan);
  if (!byRoot) byPlan.set(plan, (byRoot = new Map()));
  let statement = byRoot.get(root);
  if (!statement) byRoot.set(root, (statement = emitStatement(em, plan, root)));
  return statement;
}

async function run<T>(ctx: RequestContext, plan: Plan, root: Root, values: readonly string[]): Promise<T[]> {
  const em = readingEm(ctx);
  const { sql, layout } = statementOf(em, plan, root);
  const sent = await executePrepared<{ node: unknown[] }>(em, sql, values);
  const rows = sent.map(({ node }) => rowOf(layout, node));
  const found = root.exact ? rows.filter((row) => root.where.every((name, i) => row[name] === values[i])) : rows;
  return found.map((row) => toNode(ctx, plan, row) as T);
}

/**
 * The nodes of the rows of `root` equal to `values`, with everything the resolved field selects
 * below them, in one statement; undefined when the service does not compile selections.
 */
export async function selectNodes<T>(
  ctx: RequestContext,
  info: GraphQLResolveInfo,
  root: Root,
  values: readonly string[],
): Promise<T[] | undefined> {
  if (notCompiling.has(ctx.services)) return undefined;
  return run<T>(ctx, planOf(info, root.type), root, values);
}

/** Plans of a parent row that selects one list and nothing else, by the list's plan. */
const parentPlans = new WeakMap<Plan, Map<string, Plan>>();

function parentPlan(type: string, field: string, items: Plan): Plan {
  let byField = parentPlans.get(items);
  if (!byField) parentPlans.set(items, (byField = new Map()));
  const key = `${type}.${field}`;
  let plan = byField.get(key);
  if (!plan) {
    plan = emptyPlan(shapeOf(type));
    plan.lists.set(field, items);
    byField.set(key, plan);
  }
  return plan;
}

/**
 * The items of the list field `field` of the one row of `root` equal to `values` (a node that
 * came without them), with what the resolved field selects below them, in one statement. Null
 * when there is no such row; undefined when the service does not compile selections.
 */
export async function selectList<T>(
  ctx: RequestContext,
  info: GraphQLResolveInfo,
  root: Root,
  field: string,
  values: readonly string[],
): Promise<T[] | null | undefined> {
  if (notCompiling.has(ctx.services)) return undefined;
  const list = shapeOf(root.type).lists.get(field);
  if (!list) throw new Error(`compiled selection: ${root.type}.${field} is not a declared list`);
  const [node] = await run<object>(ctx, parentPlan(root.type, field, planOf(info, list.child)), root, values);
  if (!node) return null;
  return list.inPayload ? ((node as Record<string, unknown>)[field] as T[]) : (prefetched<T>(node, field) ?? []);
}
