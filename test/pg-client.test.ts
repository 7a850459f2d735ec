import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallbackQueryClient } from '../src/db/pg-client.ts';
import { type RelayedDatabase, relayedTestDatabase } from './support/relayed-database.ts';
import { startTestService, type TestService } from './support/service.ts';
import { errorResponse, simpleQuery } from './support/tcp-proxy.ts';

/**
 * The pool's connections are CallbackQueryClient (src/db/pg-client.ts): its promise form of
 * `query` must answer exactly as pg's own would, the callback and submittable forms untouched;
 * a connection the server has ended with a FATAL error never goes to another request.
 */
describe('the database client behind the pool', () => {
  let service: TestService;
  let client: pg.PoolClient;
  beforeAll(async () => {
    service = await startTestService();
    const pool = (await service.database.orm.em.getConnection().getNativeClient()) as unknown as pg.Pool;
    client = await pool.connect();
  });
  afterAll(async () => {
    client?.release();
    await service?.close();
  });

  it('is the callback-query client', () => {
    expect(client).toBeInstanceOf(CallbackQueryClient);
  });

  it('resolves a query’s result, with its values as parameters, named or not', async () => {
    const plain = await client.query<{ n: number; s: string }>('select $1::int as n, $2::text as s', [7, 'seven']);
    expect(plain.rows).toEqual([{ n: 7, s: 'seven' }]);
    expect(plain.rowCount).toBe(1);
    expect(plain.command).toBe('SELECT');
    const named = await client.query<{ n: number }>({ name: 'pg-client-test', text: 'select $1::int + 1 as n' }, [41]);
    expect(named.rows).toEqual([{ n: 42 }]);
    const config = await client.query<{ n: number }>({ text: 'select $1::int * 2 as n', values: [21] });
    expect(config.rows).toEqual([{ n: 42 }]);
  });

  it('rejects with the server’s error, and the connection goes on answering', async () => {
    const failed = await client.query('select 1 / $1::int', [0]).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failed).toBeInstanceOf(Error);
    expect((failed as { code?: string }).code).toBe('22012');
    expect((await client.query<{ ok: boolean }>('select true as ok')).rows).toEqual([{ ok: true }]);
  });

  it('leaves the callback form and a submittable query to pg', async () => {
    const viaCallback = await new Promise<unknown>((resolve, reject) =>
      client.query('select $1::int as n', [3], (error, result) => (error ? reject(error) : resolve(result.rows))),
    );
    expect(viaCallback).toEqual([{ n: 3 }]);
    const submittable = new pg.Query('select 4 as n');
    const rows: unknown[] = [];
    submittable.on('row', (row: unknown) => rows.push(row));
    const ended = new Promise((resolve, reject) => {
      submittable.on('end', resolve);
      submittable.on('error', reject);
    });
    expect(client.query(submittable)).toBe(submittable);
    await ended;
    expect(rows).toEqual([{ n: 4 }]);
  });
});

describe('a connection the server ends with a FATAL error', () => {
  // The relay answers a statement with the FATAL error a terminated server process sends and
  // keeps the socket open: the moment between that message and the close, made to last.
  let database: RelayedDatabase;
  let pool: pg.Pool;
  beforeAll(async () => {
    database = await relayedTestDatabase();
    pool = new pg.Pool({ connectionString: database.url, max: 1, Client: CallbackQueryClient });
  });
  afterAll(async () => {
    await pool?.end();
    await database?.close();
  });

  it('is not handed out again once given back, though its socket is still open', async () => {
    const first = await pool.connect();
    const ended = database.proxy.answerWhenSent(simpleQuery('begin'), errorResponse('FATAL', '57P01', 'terminating connection due to administrator command'));
    const failed = await first.query('begin').then(
      () => undefined,
      (error: unknown) => error,
    );
    await ended;
    expect((failed as { code?: string }).code).toBe('57P01');
    // Given back without an error, as Kysely gives back a connection whose BEGIN failed.
    first.release();
    expect(pool.totalCount).toBe(0);
    const next = await pool.connect();
    expect(next).not.toBe(first);
    expect((await next.query<{ ok: boolean }>('select true as ok')).rows).toEqual([{ ok: true }]);
    next.release();
  });
});
