import pg from 'pg';

type Query = (this: pg.Client, config: unknown, values?: unknown, callback?: unknown) => unknown;
const query = pg.Client.prototype.query as unknown as Query;

/**
 * `pg`'s client, whose promise-returning `query` (what Kysely, and so MikroORM, calls) runs as
 * a callback query instead. Garbage collection is why (issue 17): with pg 8's own promise form,
 * while the calling code ran unoptimised (the first seconds, and again after each deoptimisation,
 * which new HTTP connections set off) every young collection promoted whole requests to the old
 * generation, 1–4 MB each time under 32 connections of single reads, where the callback form
 * promotes next to nothing (young collections' pauses: median 4.9 ms with the promise form, 1.6 ms
 * with this; full collections in 12 s of that load: 5, and none). The promise here settles as pg's
 * does; an error carries pg's own stack, which Kysely extends with the caller's. As pg writes a
 * query's values into a config object it is given, it now writes the callback there too: a
 * config object is one query's (Kysely and prepared-statements.ts make one per query).
 */
export class CallbackQueryClient extends pg.Client {}

type ErrorMessage = { severity?: string };
type ClientInternals = pg.Client & { _connecting: boolean; _queryable: boolean };
const handleErrorMessage = (pg.Client.prototype as unknown as { _handleErrorMessage(this: pg.Client, message: ErrorMessage): void })._handleErrorMessage;

/**
 * A FATAL error ends the session: PostgreSQL closes the connection right after sending it (the
 * server terminated the process, an administrator command, a shutdown). `pg` notices only when the
 * socket closes, so a client whose BEGIN or COMMIT failed that way could go back to the pool in
 * between and be handed to the next request, which then failed without reaching the database.
 * Marked as unusable on the message itself, the pool drops it on its release instead.
 * Tests: test/pg-client.test.ts ("a connection the server ends with a FATAL error") and, under
 * load, test/faults.test.ts ("the server terminates its process").
 */
(CallbackQueryClient.prototype as unknown as { _handleErrorMessage(this: ClientInternals, message: ErrorMessage): void })._handleErrorMessage =
  function endedByFatalError(this: ClientInternals, message: ErrorMessage) {
    if (!this._connecting && message.severity === 'FATAL') this._queryable = false;
    handleErrorMessage.call(this, message);
  };

(CallbackQueryClient.prototype as unknown as { query: Query }).query = function queryWithCallback(config, values, callback) {
  if (typeof callback === 'function' || typeof values === 'function' || typeof (config as { submit?: unknown } | null)?.submit === 'function') {
    return query.call(this, config, values, callback);
  }
  return new Promise((resolve, reject) => {
    query.call(this, config, values, (error: Error | null, result: unknown) => (error ? reject(error) : resolve(result)));
  });
};
