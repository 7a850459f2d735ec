import { type Layout, listKey } from './emit.ts';
import type { Row } from './shapes.ts';

/**
 * A row as the compiled statement sends it, a JSON array of its values by position (emit.ts) →
 * the row by name: each property under its name, each list's items, rows themselves, under
 * `listKey(field)`, in the order the row's properties and lists were selected.
 */
export function rowOf(layout: Layout, sent: readonly unknown[]): Row {
  const values = layout.chunked ? sent.flat(1) : sent;
  const row: Row = {};
  let at = 0;
  for (const name of layout.properties) row[name] = values[at++];
  for (const [field, items] of layout.lists) {
    row[listKey(field)] = (values[at++] as unknown[][]).map((item) => rowOf(items, item));
  }
  return row;
}
