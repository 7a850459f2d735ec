import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationsList } from '../src/db/migrations/index.ts';
import { freshTestDatabase } from './support/database.ts';
import { type ServiceProcess, startServiceProcess } from './support/service-process.ts';

/**
 * Issue 37, item 11: replicas started together on a new PostgreSQL database all ran the
 * migrations at once, and all but one crashed on a duplicate key in the catalog. Migrating is
 * serialised across processes: the first migrates, the others wait for it and then find every
 * migration applied. (The embedded PGlite is one process's: its data directory is locked.)
 */

const REPLICAS = 4;

describe.skipIf(!process.env.DATABASE_URL)('replicas started at once on an empty database (PostgreSQL only)', () => {
  let database: { databaseUrl: string | undefined; drop(): Promise<void> };
  let replicas: ServiceProcess[] = [];

  beforeAll(async () => {
    database = await freshTestDatabase();
  });
  afterAll(async () => {
    await Promise.all(replicas.map((replica) => replica.stop('SIGKILL')));
    await database?.drop();
  });

  it(`all ${REPLICAS} become healthy, and every migration is applied once`, async () => {
    replicas = await Promise.all(
      Array.from({ length: REPLICAS }, () =>
        startServiceProcess({
          args: ['bin/consent-config.js', 'serve'],
          env: { DATABASE_URL: database.databaseUrl!, ADMIN_API_KEY: 'race-test-admin-key-0123456789', LOG_FORMAT: 'json', NODE_ENV: 'test' },
          timeoutMs: 90_000,
        }),
      ),
    );
    for (const replica of replicas) expect(replica.ready, replica.output().stderr || replica.output().stdout).toBe(true);

    const client = new pg.Client({ connectionString: database.databaseUrl });
    await client.connect();
    try {
      const applied = await client.query<{ name: string }>('select name from mikro_orm_migrations order by id');
      expect(applied.rows.map((row) => row.name)).toEqual(migrationsList.map((migration) => migration.name));
    } finally {
      await client.end();
    }
    // Each of them serves from the complete schema.
    for (const replica of replicas) {
      const clients = await replica.request('GET', '/hosting/api/client');
      expect(clients.status).toBe(200);
    }
  }, 120_000);
});
