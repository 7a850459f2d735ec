import { DefaultLogger, type LogContext } from '@mikro-orm/core';
import { recordSpan, tracingEnabled } from '../kernel/tracing.ts';

/** A statement as the ORM sent it: its text with `?` for each of its values. */
export type SentStatement = { query: string; params: readonly unknown[] };

/**
 * Counts every SQL statement the ORM sends (begin and commit included), for metrics and tests;
 * `watch`, when set, sees each of them (a test reads the plans of what a request sends).
 */
export type StatementCounter = { total: number; watch?: ((statement: SentStatement) => void) | undefined };

/** MikroORM hands every statement to its logger; this one counts them too, and traces them while tracing is on. */
export const countingLogger = (counter: StatementCounter) =>
  class CountingLogger extends DefaultLogger {
    override logQuery(context: { query: string } & LogContext): void {
      counter.total++;
      counter.watch?.({ query: context.query, params: context.params ?? [] });
      if (tracingEnabled()) traceStatement(context);
      super.logQuery(context);
    }
  };

/** Longer statements (compiled GraphQL selections) are cut in the span. */
const MAX_TRACED_TEXT = 2_000;

/**
 * A span for a statement that has been answered (the logger hears of it afterwards, with its
 * duration), a child of the active span. Its text is as sent: values are `?`, never in it.
 */
function traceStatement(context: { query: string } & LogContext): void {
  const endTime = Date.now();
  const text = context.query;
  const operation = /^\s*(\w+)/.exec(text)?.[1]?.toUpperCase();
  const table = /\b(?:from|into|update)\s+"?([\w.]+)"?/i.exec(text)?.[1];
  recordSpan(operation && table ? `${operation} ${table}` : (operation ?? 'SQL'), {
    kind: 'client',
    startTime: endTime - (context.took ?? 0),
    endTime,
    attributes: {
      'db.system.name': 'postgresql',
      'db.operation.name': operation,
      'db.collection.name': table,
      'db.query.text': text.length > MAX_TRACED_TEXT ? `${text.slice(0, MAX_TRACED_TEXT)}…` : text,
      'db.response.returned_rows': context.results,
    },
    failed: context.level === 'error' ? 'the statement failed' : undefined,
  });
}
