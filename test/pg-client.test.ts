import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallbackQueryClient } from '../src/db/pg-client.ts';
import { startTestService, type TestService } from './support/service.ts';

/**
 * The pool's connections are CallbackQueryClient (src/db/pg-client.ts): its promise form of
 * `query` must answer exactly as pg's own would, the callback and submittable forms untouched.
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
