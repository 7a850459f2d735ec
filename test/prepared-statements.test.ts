import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDomain, embeddingPayload } from './support/fixtures.ts';
import { startTestService, type TestService } from './support/service.ts';

const onPostgres = Boolean(process.env.DATABASE_URL);

/**
 * On a PostgreSQL server, the statements a request runs again and again go out under a name, so
 * that each connection parses and plans them once (src/db/prepared-statements.ts): seen in the
 * server's own list of the one pooled connection's prepared statements.
 */
describe.runIf(onPostgres)('prepared statements on a PostgreSQL server', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ poolSize: 1 });
  });
  afterAll(() => service?.close());

  const preparedOnTheConnection = async () =>
    (await service.database.orm.em.fork().execute<{ statement: string }[]>(`select "statement" from "pg_prepared_statements"`)).map((row) => row.statement);

  it('names the hot writes and the revision round’s read, with their values as parameters, and not the round’s store', async () => {
    const domain = await createDomain(service);
    const created = await service.rest('POST', `${domain.base}/embedding`, embeddingPayload({ name: 'Prepared', assets: [{ name: '_prepared' }] }));
    expect(created.status, created.text).toBe(201);
    const embeddingId = (created.body as { id: string }).id;
    expect((await service.rest('PUT', `${domain.base}/embedding/${embeddingId}`, { name: 'Renamed' })).status).toBe(200);
    expect((await service.rest('DELETE', `${domain.base}/embedding/${embeddingId}`)).status).toBe(204);
    const statements = await preparedOnTheConnection();
    const named = (pattern: RegExp) => statements.filter((statement) => pattern.test(statement));
    // The create, the update and the delete: each one statement, its values ($n) not in its text.
    expect(named(/insert into "embedding" /)).toHaveLength(1);
    expect(named(/update "embedding"/).length).toBeGreaterThanOrEqual(1);
    expect(named(/delete from "embedding" /)).toHaveLength(1);
    for (const statement of named(/"owned_domain"/)) {
      expect(statement).toContain('$1');
      expect(statement).not.toContain(domain.domainId);
    }
    // The revision round's read is named: its plan does not depend on the domain's size (each changed embedding is
    // looked up by its key). Its store is sent with parameters but unnamed (a write, planned for its values).
    expect(named(/with "due" as \(select \* from "revision_due"/)).toHaveLength(1);
    expect(named(/revision_round_next/)).toEqual([]);
  });
});
