import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../src/db/orm.ts';
import { openServiceDatabase } from '../../../src/app/database.ts';
import {
  GlobalVendorListError,
  importGlobalVendorList,
  parseGlobalVendorList,
} from '../../../src/features/tcf-vendors/import-global-vendor-list.ts';
import { TcfVendorEntity } from '../../../src/features/tcf-vendors/tcf-vendor.entity.ts';
import { domainState, embeddingPayload } from '../../support/fixtures.ts';
import { freshTestDatabase } from '../../support/database.ts';
import { type Finished, runToEnd } from '../../support/run-to-end.ts';
import { useServiceWithDomain } from '../../support/service-with-domain.ts';

/**
 * TCF vendors from an IAB Europe Global Vendor List an operator imports, and what they do to
 * embeddings: CCM19 documents that `tcfVendor` "takes precedence over the `vendor` property and
 * overwrites it with the respective vendor's name". The list is the project's own fixture
 * (test/fixtures/global-vendor-list.json, format v3, version 41): vendors 1, 2 and 40, and
 * vendor 3, deleted. Newer and broken lists are made from it here.
 */

type Json = Record<string, any>;

const GVL_PATH = new URL('../../fixtures/global-vendor-list.json', import.meta.url).pathname;
const GVL_TEXT = readFileSync(GVL_PATH, 'utf8');
const gvl = (): Json => JSON.parse(GVL_TEXT);
const VERSION = 41;
const NAMES = { 1: 'Example Ad Tech GmbH', 2: 'Sample Measurement Ltd.', 3: 'Former Retargeting SA', 40: 'Demo Video Analytics Inc.' };

/** The fixture as a later list: vendor 1 renamed, vendor 2 gone, vendor 77 new. */
function newerList(): Json {
  const list = gvl();
  list.vendorListVersion = VERSION + 1;
  list.lastUpdated = '2026-10-08T16:00:21Z';
  list.vendors['1'].name = 'Example Ad Tech SE';
  delete list.vendors['2'];
  list.vendors['77'] = { ...list.vendors['40'], id: 77, name: 'New Consent Partner Oy' };
  return list;
}

const notInList = (version: number) => `is not a vendor of the imported Global Vendor List (version ${version})`;

let workDir: string;
beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'tcf-vendors-'));
});
afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
});

async function writeJson(name: string, value: unknown): Promise<string> {
  const file = join(workDir, name);
  await writeFile(file, typeof value === 'string' ? value : JSON.stringify(value));
  return file;
}

describe('the Global Vendor List file', () => {
  it('is read for its version and each vendor id, name and deletion date', () => {
    const list = parseGlobalVendorList(GVL_TEXT);
    expect(list.vendorListVersion).toBe(VERSION);
    expect(Object.values(list.vendors).map(({ id, name, deletedDate }) => ({ id, name, deletedDate }))).toEqual([
      { id: 1, name: NAMES[1], deletedDate: undefined },
      { id: 2, name: NAMES[2], deletedDate: undefined },
      { id: 3, name: NAMES[3], deletedDate: '2025-02-01T00:00:00Z' },
      { id: 40, name: NAMES[40], deletedDate: undefined },
    ]);
  });

  it.each([
    ['a CSV file', 'ID,Platform\n1,x\n', /^not a JSON file: /],
    ['a JSON array', '[]', /^not an IAB Europe Global Vendor List \(vendor-list\.json, format v3\): the file: /],
    [
      'JSON without the list fields',
      '{"vendors": {}}',
      /^not an IAB Europe Global Vendor List \(vendor-list\.json, format v3\): gvlSpecificationVersion: .*; vendorListVersion: .*; tcfPolicyVersion: .* \(and \d+ more problems\)$/,
    ],
    ['a format v2 list', JSON.stringify({ ...gvl(), gvlSpecificationVersion: 2 }), /gvlSpecificationVersion: must be 3: only format v3 lists/],
    ['a vendor without a name', JSON.stringify({ ...gvl(), vendors: { ...gvl().vendors, 5: { id: 5 } } }), /: vendors\.5\.name: /],
    ['a vendor under another id', JSON.stringify({ ...gvl(), vendors: { 6: { id: 7, name: 'x' } } }), /vendors\.6\.id: is 7, not the vendor's key 6/],
    ['a bad deletion date', JSON.stringify({ ...gvl(), vendors: { 6: { id: 6, name: 'x', deletedDate: 'yesterday' } } }), /vendors\.6\.deletedDate: /],
    ['a list without vendors', JSON.stringify({ ...gvl(), vendors: {} }), /vendors: has no vendors/],
  ])('is refused when it is %s, in one line', (_, text, message) => {
    let thrown: unknown;
    try {
      parseGlobalVendorList(text);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(GlobalVendorListError);
    expect((thrown as Error).message).toMatch(message);
    expect((thrown as Error).message).not.toContain('\n');
  });
});

describe('`consent-config tcf import`', () => {
  const CLI = new URL('../../../bin/consent-config.ts', import.meta.url).pathname;
  type Result = Finished;
  let target: { env: Record<string, string>; open(): Promise<Database>; drop(): Promise<void> };

  beforeAll(async () => {
    const { databaseUrl, drop } = await freshTestDatabase();
    const dataDir = join(workDir, 'data');
    target = {
      env: databaseUrl ? { DATABASE_URL: databaseUrl } : { DATABASE_URL: '', DATA_DIR: dataDir },
      open: () => openServiceDatabase({ databaseUrl, dataDir, poolSize: 1 }),
      drop,
    };
  });
  afterAll(() => target?.drop());

  const run = (command: string, args: string[]): Promise<Result> =>
    runToEnd(args, { ...target.env, LOG_LEVEL: 'silent', DEBUG: '', ADMIN_API_KEY: '' }, { command });
  const cli = (...args: string[]) => run(process.execPath, [CLI, ...args]);

  async function stored(): Promise<Json[]> {
    const database = await target.open();
    try {
      const rows = await database.orm.em.fork().find(TcfVendorEntity, {}, { orderBy: { id: 'asc' } });
      return rows.map(({ id, name, deletedDate, vendorListVersion }) => ({ id, name, deletedDate, vendorListVersion }));
    } finally {
      await database.close();
    }
  }

  function expectOneLineFailure(result: Result, pattern: RegExp) {
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr.trim().split('\n'), result.stderr).toHaveLength(1);
    expect(result.stderr.trim()).toMatch(pattern);
    expect(result.stdout).toBe('');
  }

  it('imports the list: progress on stderr, one summary line on stdout, every vendor stored', async () => {
    const result = await cli('tcf', 'import', GVL_PATH);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/importing TCF vendors: 4\/4/);
    expect(result.stdout).toMatch(
      new RegExp(`^imported 4 TCF vendors \\(1 of them deleted\\) of Global Vendor List version ${VERSION} into (embedded PGlite|PostgreSQL) .*\\n$`),
    );
    expect(await stored()).toEqual([
      { id: 1, name: NAMES[1], deletedDate: null, vendorListVersion: VERSION },
      { id: 2, name: NAMES[2], deletedDate: null, vendorListVersion: VERSION },
      { id: 3, name: NAMES[3], deletedDate: new Date('2025-02-01T00:00:00Z'), vendorListVersion: VERSION },
      { id: 40, name: NAMES[40], deletedDate: null, vendorListVersion: VERSION },
    ]);
  }, 60_000);

  it('refuses what is not a Global Vendor List, an older list and a missing file in one line, storing nothing', async () => {
    const before = await stored();
    expectOneLineFailure(
      await cli('tcf', 'import', new URL('../../fixtures/open-cookie-database.csv', import.meta.url).pathname),
      /^error: cannot import .*open-cookie-database\.csv: not a JSON file: /,
    );
    expectOneLineFailure(
      await cli('tcf', 'import', await writeJson('v2.json', { ...gvl(), gvlSpecificationVersion: 2, vendorListVersion: 900 })),
      /^error: cannot import .*v2\.json: not an IAB Europe Global Vendor List \(vendor-list\.json, format v3\): gvlSpecificationVersion: must be 3/,
    );
    expectOneLineFailure(
      await cli('tcf', 'import', await writeJson('older.json', { ...gvl(), vendorListVersion: VERSION - 1 })),
      new RegExp(`^error: cannot import .*older\\.json: it is version ${VERSION - 1} of the Global Vendor List, older than the imported version ${VERSION}$`),
    );
    expectOneLineFailure(await cli('tcf', 'import', join(workDir, 'missing.json')), /^error: cannot read .*missing\.json/);
    expect(await stored()).toEqual(before);
  }, 60_000);

  it('replaces the list with a newer one (`npm run tcf:import`): vendors it lacks are removed, names follow it', async () => {
    const result = await run('npm', ['run', '--silent', 'tcf:import', '--', await writeJson('newer.json', newerList())]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(
      new RegExp(`^imported 4 TCF vendors \\(1 of them deleted\\) of Global Vendor List version ${VERSION + 1} into .*, replacing version ${VERSION}\\n$`),
    );
    expect(await stored()).toEqual([
      { id: 1, name: 'Example Ad Tech SE', deletedDate: null, vendorListVersion: VERSION + 1 },
      { id: 3, name: NAMES[3], deletedDate: new Date('2025-02-01T00:00:00Z'), vendorListVersion: VERSION + 1 },
      { id: 40, name: NAMES[40], deletedDate: null, vendorListVersion: VERSION + 1 },
      { id: 77, name: 'New Consent Partner Oy', deletedDate: null, vendorListVersion: VERSION + 1 },
    ]);
  }, 60_000);
});

describe('embeddings and the imported TCF vendors', () => {
  const { service, domain } = useServiceWithDomain({ domainPer: 'suite' });

  const embeddings = () => `${domain.base}/embedding`;
  const scope = () => ({ clientId: domain.clientId, domainId: domain.domainId });
  const FIELDS = 'id name vendor tcfVendor';
  const CREATE = `mutation($clientId: ID!, $domainId: ID!, $input: EmbeddingCreateInput!) {
    createEmbedding(clientId: $clientId, domainId: $domainId, input: $input) { ${FIELDS} } }`;
  const UPDATE = `mutation($clientId: ID!, $domainId: ID!, $embeddingId: ID!, $input: EmbeddingUpdateInput!) {
    updateEmbedding(clientId: $clientId, domainId: $domainId, embeddingId: $embeddingId, input: $input) { ${FIELDS} } }`;

  /** A REST create that must succeed; returns the embedding as answered. */
  async function create(overrides: Json): Promise<Json> {
    const answer = await service.rest('POST', embeddings(), embeddingPayload(overrides));
    expect(answer.status, answer.text).toBe(201);
    return answer.body;
  }

  const importList = (list: Json) => importGlobalVendorList(service.database.orm.em.fork(), JSON.stringify(list));

  /** A write of `tcfVendor` is refused alike over REST and GraphQL, on create and update, and changes nothing. */
  async function expectRefused(tcfVendor: number, message: string) {
    const existing = await create({ name: `existing ${tcfVendor}`, vendor: 'Kept Vendor' });
    const before = await domainState(service, domain);
    const problem = [{ path: '/tcfVendor', message }];

    const viaRest = await service.rest('POST', embeddings(), embeddingPayload({ tcfVendor }));
    expect(viaRest.status, viaRest.text).toBe(400);
    expect(viaRest.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(viaRest.body).toMatchObject({ type: '/problems/validation', status: 400, errors: problem });
    const updateRest = await service.rest('PUT', `${embeddings()}/${existing.id}`, { tcfVendor, vendor: 'Other' });
    expect(updateRest.status, updateRest.text).toBe(400);
    expect(updateRest.body.errors).toEqual(problem);

    const viaGraphql = await service.graphql(CREATE, { ...scope(), input: { name: 'YouTube', purpose: '6cd2721', tcfVendor } });
    expect(viaGraphql.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(viaGraphql.errors?.[0]?.extensions?.errors).toEqual(problem);
    expect(viaGraphql.data?.createEmbedding ?? null).toBeNull();
    const updateGraphql = await service.graphql(UPDATE, { ...scope(), embeddingId: existing.id, input: { tcfVendor } });
    expect(updateGraphql.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(updateGraphql.errors?.[0]?.extensions?.errors).toEqual(problem);

    expect(await domainState(service, domain)).toEqual(before);
  }

  describe('before any list is imported', () => {
    it('takes any TCF vendor id and keeps the vendor as sent, over REST and GraphQL', async () => {
      const viaRest = await create({ tcfVendor: 999, vendor: 'Sent Vendor' });
      expect(viaRest).toMatchObject({ tcfVendor: 999, vendor: 'Sent Vendor' });
      const viaGraphql = await service.graphql(CREATE, { ...scope(), input: { name: 'x', purpose: '6cd2721', tcfVendor: 1, vendor: 'Sent' } });
      expect(viaGraphql.errors).toBeUndefined();
      expect(viaGraphql.data.createEmbedding).toMatchObject({ tcfVendor: 1, vendor: 'Sent' });
      expect((await service.rest('GET', `${embeddings()}/${viaGraphql.data.createEmbedding.id}`)).body).toMatchObject({ tcfVendor: 1, vendor: 'Sent' });
    });
  });

  describe('with the fixture list imported', () => {
    let first: { renamed: number; unmatched: number };
    beforeAll(async () => {
      const summary = await importList(gvl());
      first = { renamed: summary.renamedEmbeddings, unmatched: summary.unmatchedEmbeddings };
    });

    it('gave the embeddings made before it the name of their TCF vendor, and counted the one it does not know', async () => {
      expect(first).toEqual({ renamed: 1, unmatched: 1 });
      const all = (await service.rest('GET', embeddings())).body as Json[];
      expect(all.map(({ tcfVendor, vendor }) => ({ tcfVendor, vendor }))).toEqual([
        { tcfVendor: 999, vendor: 'Sent Vendor' },
        { tcfVendor: 1, vendor: NAMES[1] },
      ]);
    });

    it('REST create and update: the vendor becomes the TCF vendor\'s name, whatever vendor was sent', async () => {
      const created = await create({ tcfVendor: 1, vendor: 'Whatever The Client Sent' });
      expect(created).toMatchObject({ tcfVendor: 1, vendor: NAMES[1] });
      expect((await service.rest('GET', `${embeddings()}/${created.id}`)).body).toMatchObject({ tcfVendor: 1, vendor: NAMES[1] });

      const withoutVendor = await service.rest('POST', embeddings(), { name: 'Video', purpose: '6cd2721', tcfVendor: 40 });
      expect(withoutVendor.status, withoutVendor.text).toBe(201);
      expect(withoutVendor.body).toMatchObject({ tcfVendor: 40, vendor: NAMES[40] });

      const updated = await service.rest('PUT', `${embeddings()}/${created.id}`, { tcfVendor: 2, vendor: 'Ignored' });
      expect(updated.status, updated.text).toBe(200);
      expect(updated.body).toMatchObject({ tcfVendor: 2, vendor: NAMES[2] });
      expect((await service.rest('GET', `${embeddings()}/${created.id}`)).body).toMatchObject({ tcfVendor: 2, vendor: NAMES[2] });
    });

    it('GraphQL create and update: the vendor becomes the TCF vendor\'s name', async () => {
      const created = await service.graphql(CREATE, {
        ...scope(),
        input: { name: 'Ads', purpose: 'cdcbd7c', vendor: 'Sent', tcfVendor: 40 },
      });
      expect(created.errors).toBeUndefined();
      expect(created.data.createEmbedding).toMatchObject({ tcfVendor: 40, vendor: NAMES[40] });
      const id = created.data.createEmbedding.id;

      const updated = await service.graphql(UPDATE, { ...scope(), embeddingId: id, input: { tcfVendor: 1 } });
      expect(updated.errors).toBeUndefined();
      expect(updated.data.updateEmbedding).toMatchObject({ tcfVendor: 1, vendor: NAMES[1] });
      expect((await service.rest('GET', `${embeddings()}/${id}`)).body).toMatchObject({ tcfVendor: 1, vendor: NAMES[1] });
    });

    it('refuses an id the list does not have: 400 over REST, BAD_USER_INPUT over GraphQL, nothing stored', async () => {
      await expectRefused(999_999, notInList(VERSION));
    });

    it('refuses a vendor the list has as deleted, and says so', async () => {
      await expectRefused(3, `${notInList(VERSION)}: it was deleted on 2025-02-01`);
    });

    it('null removes the reference and keeps the vendor, over REST and GraphQL; leaving it out changes neither', async () => {
      const created = await create({ tcfVendor: 1 });
      const removed = await service.rest('PUT', `${embeddings()}/${created.id}`, { tcfVendor: null });
      expect(removed.status, removed.text).toBe(200);
      expect(removed.body).toMatchObject({ tcfVendor: null, vendor: NAMES[1] });

      const renamed = await service.rest('PUT', `${embeddings()}/${created.id}`, { vendor: 'Chosen By Hand' });
      expect(renamed.body).toMatchObject({ tcfVendor: null, vendor: 'Chosen By Hand' });

      const viaGraphql = await service.graphql(CREATE, { ...scope(), input: { name: 'g', purpose: '6cd2721', tcfVendor: 2 } });
      const id = viaGraphql.data.createEmbedding.id;
      const cleared = await service.graphql(UPDATE, { ...scope(), embeddingId: id, input: { tcfVendor: null } });
      expect(cleared.errors).toBeUndefined();
      expect(cleared.data.updateEmbedding).toMatchObject({ tcfVendor: null, vendor: NAMES[2] });

      const untouched = await service.rest('PUT', `${embeddings()}/${id}`, { name: 'renamed' });
      expect(untouched.body).toMatchObject({ name: 'renamed', tcfVendor: null, vendor: NAMES[2] });
    });

    it('costs one statement more per write that sets tcfVendor, and none when it is left out or null', async () => {
      // A write's and its revision round's (which stores after the answer).
      const statementsOf = async (request: () => Promise<{ status: number }>) => {
        await service.services.revisions.drain();
        const before = service.database.statements.total;
        expect((await request()).status).toBeLessThan(300);
        await service.services.revisions.drain();
        return service.database.statements.total - before;
      };
      const plain = await statementsOf(() => service.rest('POST', embeddings(), embeddingPayload()));
      const withVendor = await statementsOf(() => service.rest('POST', embeddings(), embeddingPayload({ tcfVendor: 1 })));
      const withNull = await statementsOf(() => service.rest('POST', embeddings(), embeddingPayload({ tcfVendor: null })));
      expect(withVendor).toBe(plain + 1);
      expect(withNull).toBe(plain);

      const target = await create({});
      const update = (body: Json) => () => service.rest('PUT', `${embeddings()}/${target.id}`, body);
      const plainUpdate = await statementsOf(update({ name: 'a' }));
      expect(await statementsOf(update({ name: 'b', tcfVendor: 40 }))).toBe(plainUpdate + 1);
      const read = await statementsOf(() => service.rest('GET', `${embeddings()}/${target.id}`));
      expect(read).toBe(1);
    });

    it('an import that fails half-way changes nothing: the stored list stays as it was', async () => {
      const failure = await importGlobalVendorList(service.database.orm.em.fork(), JSON.stringify(newerList()), () => {
        throw new Error('interrupted');
      }).catch((error: Error) => error);
      expect(failure).toMatchObject({ message: 'interrupted' });
      expect((await create({ tcfVendor: 2 })).vendor).toBe(NAMES[2]);
      const rows = await service.database.orm.em.fork().find(TcfVendorEntity, {}, { orderBy: { id: 'asc' } });
      expect(rows.map((row) => [row.id, row.vendorListVersion])).toEqual([1, 2, 3, 40].map((id) => [id, VERSION]));
    });

    it('a newer list renames the embeddings of renamed vendors and refuses the vendors it no longer has', async () => {
      const one = await create({ name: 'one', tcfVendor: 1 });
      const two = await create({ name: 'two', tcfVendor: 2 });
      const oneBefore = (await service.rest('GET', `${embeddings()}/${one.id}`)).body;

      const summary = await importList(newerList());
      const all = (await service.rest('GET', embeddings())).body as Json[];
      const referringToOne = all.filter((e) => e.tcfVendor === 1);
      const referringToNone = all.filter((e) => e.tcfVendor !== null && ![1, 40, 77].includes(e.tcfVendor));
      expect(summary).toMatchObject({ vendorListVersion: VERSION + 1, previousVersion: VERSION, vendors: 4, deleted: 1 });
      expect(summary.renamedEmbeddings).toBe(referringToOne.length);
      expect(referringToOne.length).toBeGreaterThan(1);
      for (const embedding of referringToOne) expect(embedding.vendor).toBe('Example Ad Tech SE');
      expect((await service.rest('GET', `${embeddings()}/${one.id}`)).body).toEqual({ ...oneBefore, vendor: 'Example Ad Tech SE' });
      // Vendor 2 is gone from the list: its embeddings keep what they have, and are counted.
      expect((await service.rest('GET', `${embeddings()}/${two.id}`)).body).toMatchObject({ tcfVendor: 2, vendor: NAMES[2] });
      expect(summary.unmatchedEmbeddings).toBe(referringToNone.length);
      expect(referringToNone.map((e) => e.tcfVendor)).toEqual(expect.arrayContaining([2, 999]));

      expect(await create({ tcfVendor: 1, vendor: 'x' })).toMatchObject({ vendor: 'Example Ad Tech SE' });
      expect(await create({ tcfVendor: 77 })).toMatchObject({ vendor: 'New Consent Partner Oy' });
      await expectRefused(2, notInList(VERSION + 1));
    });
  });
});
