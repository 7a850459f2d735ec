import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PrivatePostgres, privatePostgresUnavailable, startPrivatePostgres } from './support/private-postgres.ts';

/** The harness behind the fault tests: a cluster of the test's own that it may crash and restart. */

const unavailable = privatePostgresUnavailable();

describe.skipIf(unavailable)(`a private PostgreSQL cluster${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  let server: PrivatePostgres;
  beforeAll(async () => {
    server = await startPrivatePostgres();
  }, 30_000);
  afterAll(() => server?.destroy());

  it('runs with fsync on and keeps a committed row through an immediate stop', async () => {
    expect(await server.query('show fsync')).toEqual([{ fsync: 'on' }]);
    await server.query('create table kept (value text)');
    await server.query(`insert into kept values ('committed')`);
    await server.stop('immediate');
    await expect(server.query('select 1')).rejects.toThrow();
    await server.start();
    expect(await server.query('select value from kept')).toEqual([{ value: 'committed' }]);
    expect(await server.log()).toMatch(/not properly shut down|automatic recovery/);
  });

  it('finds a backend by its application_name', async () => {
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: server.url, application_name: 'smoke-listener' });
    await client.connect();
    try {
      const { pid } = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!;
      expect(await server.pidOfBackend({ applicationName: 'smoke-listener' })).toBe(pid);
      expect(await server.pidOfBackend({ applicationName: 'nobody' })).toBeUndefined();
    } finally {
      await client.end();
    }
  });
});
