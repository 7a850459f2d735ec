import { DefaultLogger, type LogContext } from '@mikro-orm/core';

/** A statement as the ORM sent it: its text with `?` for each of its values. */
export type SentStatement = { query: string; params: readonly unknown[] };

/**
 * Counts every SQL statement the ORM sends (begin and commit included), for metrics and tests;
 * `watch`, when set, sees each of them (a test reads the plans of what a request sends).
 */
export type StatementCounter = { total: number; watch?: ((statement: SentStatement) => void) | undefined };

/** MikroORM hands every statement to its logger; this one counts them too. */
export const countingLogger = (counter: StatementCounter) =>
  class CountingLogger extends DefaultLogger {
    override logQuery(context: { query: string } & LogContext): void {
      counter.total++;
      counter.watch?.({ query: context.query, params: context.params ?? [] });
      super.logQuery(context);
    }
  };
