import { DefaultLogger, type LogContext } from '@mikro-orm/core';

/** Counts every SQL statement the ORM sends (begin and commit included), for metrics and tests. */
export type StatementCounter = { total: number };

/** MikroORM hands every statement to its logger; this one counts them too. */
export const countingLogger = (counter: StatementCounter) =>
  class CountingLogger extends DefaultLogger {
    override logQuery(context: { query: string } & LogContext): void {
      counter.total++;
      super.logQuery(context);
    }
  };
