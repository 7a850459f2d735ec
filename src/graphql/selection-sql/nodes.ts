import { readingEm, type RequestContext } from '../../kernel/context.ts';
import { listKey, recordProperties } from './emit.ts';
import type { Row } from './shapes.ts';
import type { Plan } from './walk.ts';

/**
 * The rows a compiled statement returns → the nodes resolvers get: each through its type's
 * `toNode` (the payload's view), the lists of a node either set in its payload (an embedding's
 * `assets`) or kept beside it for the list field's resolver (`prefetched`). They are kept under a
 * symbol, not enumerable, so nothing that copies or serialises a node ever carries them along.
 */

const LISTS = Symbol('prefetched lists');

type WithLists = { [LISTS]?: Record<string, object[]> };

/** The items of the node's list field, when the node came with them; undefined: the field's usual read. */
export function prefetched<T>(node: object, field: string): T[] | undefined {
  return (node as WithLists)[LISTS]?.[field] as T[] | undefined;
}

/** A row → its node, its lists' rows → theirs; a type that keeps its record (shapes.ts) gets it. */
export function toNode(ctx: RequestContext, plan: Plan, row: Row): object {
  const { keep } = plan.shape;
  if (keep && plan.others) {
    const record: Row = {};
    for (const name of recordProperties(readingEm(ctx), plan.shape.entity)) record[name] = row[name];
    keep(ctx, record, row);
  }
  const node = plan.shape.toNode(row);
  let kept: Record<string, object[]> | undefined;
  for (const [field, items] of plan.lists) {
    const list = plan.shape.lists.get(field)!;
    const rows = (row[listKey(field)] ?? []) as Row[];
    let nodes = rows.map((item) => toNode(ctx, items, item));
    if (list.arrange) nodes = list.arrange(nodes);
    if (list.inPayload) (node as Record<string, unknown>)[field] = nodes;
    else (kept ??= {})[field] = nodes;
  }
  if (kept) Object.defineProperty(node, LISTS, { value: kept, enumerable: false });
  return node;
}
