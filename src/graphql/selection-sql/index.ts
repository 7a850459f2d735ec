/**
 * Selections compiled to SQL: a root field's whole selection (a domain with its placeholders,
 * themes, embeddings and their assets) read in one statement with JSON aggregation, only the
 * columns asked for, instead of one read per list.
 *
 * - shapes.ts: what each table-backed GraphQL type is made of (declared by its feature);
 * - walk.ts: the selection of a resolved field → a plan (properties, lists), kept per field node;
 * - emit.ts: a plan → one SQL statement;
 * - rows.ts: its rows, JSON arrays by position → rows by name;
 * - nodes.ts: those rows → the nodes resolvers get, lists kept for their fields (`prefetched`);
 * - run.ts: running it for a root resolver, statements kept; the switch per service.
 */
export { declareList, declareTable, type Row } from './shapes.ts';
export type { Root } from './emit.ts';
export { prefetched } from './nodes.ts';
export { compileSelections, selectList, selectNodes } from './run.ts';
