import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * Where a test file's service keeps its data. Without DATABASE_URL: embedded PGlite in memory.
 * With DATABASE_URL (a PostgreSQL server): a database of its own, created for the file and
 * dropped afterwards, so test files can run side by side.
 */
export async function freshTestDatabase(): Promise<{ databaseUrl: string | undefined; drop(): Promise<void> }> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) return { databaseUrl: undefined, drop: async () => {} };
  const name = `dcs_test_${randomBytes(6).toString('hex')}`;
  await withAdminClient(serverUrl, (client) => client.query(`create database "${name}"`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    databaseUrl: url.toString(),
    drop: async () => {
      await withAdminClient(serverUrl, (client) => client.query(`drop database if exists "${name}" with (force)`));
    },
  };
}

async function withAdminClient<T>(serverUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
