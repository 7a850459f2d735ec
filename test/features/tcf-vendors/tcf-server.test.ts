import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TcfSettings, TcfVendorList } from '../../../src/features/banner/banner-config.ts';
import { revisionsOf } from '../../../src/features/revisions/revision-store.ts';
import type { GvlDocument } from '../../../src/features/tcf-vendors/gvl-documents.ts';
import { importGlobalVendorList } from '../../../src/features/tcf-vendors/import-global-vendor-list.ts';
import { importTranslation } from '../../../src/features/tcf-vendors/import-translation.ts';
import { selectVendors } from '../../../src/features/tcf-vendors/published-tcf.ts';
import { API, createClient, createDomain, type DomainPath, embeddingPayload } from '../../support/fixtures.ts';
import { openServiceDatabase } from '../../../src/app/database.ts';
import { freshTestDatabase } from '../../support/database.ts';
import { runToEnd } from '../../support/run-to-end.ts';
import { PUBLIC_BASE_URL, startTestService, type TestService } from '../../support/service.ts';

/**
 * IAB TCF on the server: the Global Vendor Lists kept by version, their translations, each TCF
 * domain's vendors (published with its revisions), `config.tcf` in app.js and the domain's
 * vendor list at its content-hashed address. Lists: test/fixtures/global-vendor-list.json
 * (version 41: vendors 1, 2, 40, and 3 deleted), global-vendor-list-42.json (vendor 77 new,
 * vendor 2 declares purpose 2 too) and purposes-de.json (the texts in German).
 */

type Json = Record<string, any>;

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/${name}`, import.meta.url), 'utf8');
const GVL_41 = fixture('global-vendor-list.json');
const GVL_42 = fixture('global-vendor-list-42.json');
const GERMAN = fixture('purposes-de.json');
/** Version 43: version 42 with vendor 88 new. */
const GVL_43 = (() => {
  const list = JSON.parse(GVL_42);
  list.vendorListVersion = 43;
  list.lastUpdated = '2026-10-15T16:00:21Z';
  list.vendors['88'] = { ...list.vendors['77'], id: 88, name: 'Later Vendor AB' };
  return JSON.stringify(list);
})();

/** The configuration an app.js starts the banner with. */
function configIn(script: string): Json {
  const start = script.lastIndexOf('.start(');
  expect(start, script.slice(0, 200)).toBeGreaterThan(0);
  const args = script.slice(start + '.start('.length, script.lastIndexOf(');})();'));
  return JSON.parse(args.slice(0, args.lastIndexOf(',"')));
}

function useTcfService(options: Parameters<typeof startTestService>[0] = {}) {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService(options);
  });
  afterAll(() => service?.close());

  const appJs = async (domain: DomainPath, lang = 'de_DE') => {
    const answer = await fetch(`${service.baseUrl}/app.js?domain=${domain.domainId}&lang=${lang}`);
    expect(answer.status).toBe(200);
    return answer.text();
  };
  const self = {
    get service() {
      return service;
    },
    appJs,
    config: async (domain: DomainPath, lang = 'de_DE') => configIn(await appJs(domain, lang)),
    tcf: async (domain: DomainPath, lang = 'de_DE') => (await self.config(domain, lang)).tcf as TcfSettings | undefined,
    /** Imports a list as `consent-config tcf import` does, and records the TCF domains' revisions (as it does after). */
    async importList(text: string) {
      const summary = await importGlobalVendorList(service.database.orm.em.fork(), text);
      await service.services.revisions.settle(summary.tcfDomains);
      return summary;
    },
    async importGerman(text = GERMAN) {
      const summary = await importTranslation(service.database.orm.em.fork(), 'de', text);
      await service.services.revisions.settle(summary.tcfDomains);
      return summary;
    },
    /** A domain with one embedding (so its banner asks), TCF on and the settings given. */
    async tcfDomain(settings: Json = {}, clientId?: string): Promise<DomainPath> {
      const domain = await createDomain(service, 'www.example.org', { clientId });
      const embedding = await service.rest('POST', `${domain.base}/embedding`, embeddingPayload());
      expect(embedding.status, embedding.text).toBe(201);
      const update = await service.rest('PUT', domain.base, { tcfEnabled: true, ...settings });
      expect(update.status, update.text).toBe(200);
      return domain;
    },
    async newest(domain: DomainPath) {
      await service.services.revisions.settle([domain.domainId]);
      const [newest] = await revisionsOf(service.database.orm.em.fork(), domain.domainId, { before: null, limit: 1 });
      return newest!;
    },
    /** The vendor list at an address app.js names, asked of the test service. */
    vendorList: (url: string, headers: Record<string, string> = {}) => fetch(url.replace(PUBLIC_BASE_URL, service.baseUrl), { headers }),
  };
  return self;
}

describe('TCF domains and the Global Vendor Lists', () => {
  const world = useTcfService();
  let first: DomainPath;

  it('without an imported list, a TCF domain\'s banner carries no tcf and works as without TCF', async () => {
    first = await world.tcfDomain();
    const script = await world.appJs(first);
    const config = configIn(script);
    expect(config.tcf).toBeUndefined();
    expect(config.categories.length).toBeGreaterThan(0);
    expect(script).not.toContain('__tcfapiLocator');
    const [base] = await world.service.database.orm.em.fork().execute(`select "vendor_list_version" as "version" from "tcf_domain_base" where "domain_id" = ?`, [first.domainId]);
    expect(base).toEqual({ version: null });
  });

  it('an import keeps the list whole by version and rebuilds every TCF domain\'s banner: config.tcf in app.js', async () => {
    const summary = await world.importList(GVL_41);
    expect(summary.tcfDomains).toEqual([first.domainId]);
    const rows = await world.service.database.orm.em
      .fork()
      .execute(`select "vendor_list_version" as "version", "tcf_policy_version" as "policy", "document" from "tcf_vendor_list" order by 1`);
    expect(rows.map((row: Json) => [row.version, row.policy])).toEqual([[41, 5]]);
    const stored = rows[0] as Json;
    const document = typeof stored.document === 'string' ? JSON.parse(stored.document) : stored.document;
    expect(document).toEqual(JSON.parse(GVL_41));

    const tcf = (await world.tcf(first))!;
    expect(tcf).toEqual({
      cmpId: 4095,
      cmpVersion: 1,
      vendorListVersion: 41,
      policyVersion: 5,
      chunkUrl: expect.stringMatching(new RegExp(`^${PUBLIC_BASE_URL}/banner/tcf-[0-9a-f]{64}\\.js$`)),
      vendorListUrl: expect.stringMatching(new RegExp(`^${PUBLIC_BASE_URL}/banner/vendor-list/${first.domainId}-[0-9a-f]{64}\\.json$`)),
      // Vendor 3 is deleted in the list.
      vendorIds: [1, 2, 40],
      specialFeatures: [],
      publisherCountryCode: 'DE',
      additionalConsentProviders: null,
      urlMacros: { fill: false, autoAppend: false },
    });
    // The domain got TCF while no list was imported: this one is its base.
    const [base] = await world.service.database.orm.em.fork().execute(`select "vendor_list_version" as "version" from "tcf_domain_base" where "domain_id" = ?`, [first.domainId]);
    expect(base).toEqual({ version: 41 });
  });

  it('serves the domain\'s vendor list: immutable, gzipped, only its vendors, English texts per locale, without SQL once warm', async () => {
    const tcf = (await world.tcf(first))!;
    const answer = await world.vendorList(tcf.vendorListUrl, { 'accept-encoding': 'gzip' });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(answer.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(answer.headers.get('content-encoding')).toBe('gzip');
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    const list = (await answer.json()) as TcfVendorList;
    const gvl = JSON.parse(GVL_41) as Json;
    expect(list).toMatchObject({ gvlSpecificationVersion: 3, vendorListVersion: 41, tcfPolicyVersion: 5, lastUpdated: gvl.lastUpdated });
    expect(Object.keys(list.vendors)).toEqual(['1', '2', '40']);
    expect(list.vendors['1']).toEqual(gvl.vendors['1']);
    expect(list.stacks).toEqual(gvl.stacks);
    expect(list.dataCategories).toEqual(gvl.dataCategories);
    expect(Object.keys(list.translations)).toEqual(['de_DE', 'en_US']);
    expect(list.translations.de_DE!.purposes).toEqual(gvl.purposes);

    const before = world.service.database.statements.total;
    for (let i = 0; i < 5; i++) {
      expect((await world.vendorList(tcf.vendorListUrl)).status).toBe(200);
      expect((await fetch(`${world.service.baseUrl}/app.js?domain=${first.domainId}&lang=de_DE`)).status).toBe(200);
    }
    expect(world.service.database.statements.total - before).toBe(0);

    const other = tcf.vendorListUrl.replace(/-[0-9a-f]{64}\.json$/, `-${'0'.repeat(64)}.json`);
    const missing = await world.vendorList(other);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect((await world.vendorList(tcf.vendorListUrl.replace('/vendor-list/', '/vendor-list/x'))).status).toBe(404);
    expect((await fetch(tcf.vendorListUrl.replace(PUBLIC_BASE_URL, world.service.baseUrl), { method: 'POST' })).status).toBe(405);
  });

  it('a translation import shows the German texts in the German locale: new content, the same legal revision, the old list gone', async () => {
    const before = { tcf: (await world.tcf(first))!, config: await world.config(first), revision: await world.newest(first) };
    const summary = await world.importGerman();
    expect(summary).toMatchObject({ language: 'de', vendorListVersion: 41, replaced: false });
    const config = await world.config(first);
    const tcf = config.tcf as TcfSettings;
    expect(tcf.vendorListUrl).not.toBe(before.tcf.vendorListUrl);
    expect(config.legalRevision).toBe(before.config.legalRevision);
    expect(config.contentRevision).not.toBe(before.config.contentRevision);
    const revision = await world.newest(first);
    expect(revision.number).toBe(before.revision.number + 1);
    expect(revision.legal).toBe(false);

    const list = (await (await world.vendorList(tcf.vendorListUrl)).json()) as TcfVendorList;
    const german = JSON.parse(GERMAN) as Json;
    expect(list.translations.de_DE).toEqual({
      purposes: german.purposes,
      specialPurposes: german.specialPurposes,
      features: german.features,
      specialFeatures: german.specialFeatures,
      stacks: german.stacks,
      dataCategories: german.dataCategories,
    });
    expect(list.translations.en_US!.purposes).toEqual(JSON.parse(GVL_41).purposes);
    expect((await world.vendorList(before.tcf.vendorListUrl)).status).toBe(404);
  });

  it('a domain\'s settings act: blacklist, special features, Google Additional Consent, URL macros, publisher country', async () => {
    const domain = await world.tcfDomain({
      tcfVendorBlacklist: [2],
      tcfSpecialFeatures: [1],
      tcfGoogleAdditionalConsentMode: true,
      tcfGoogleAdditionalConsentAdProviders: [89, 3],
      tcfUrlMacroHandling: true,
      tcfUrlMacroAutoAppend: true,
      country: 'AT',
    });
    expect(await world.tcf(domain)).toMatchObject({
      vendorListVersion: 41,
      vendorIds: [1, 40],
      specialFeatures: [1],
      additionalConsentProviders: [3, 89],
      urlMacros: { fill: true, autoAppend: true },
      publisherCountryCode: 'AT',
    });
    const list = (await (await world.vendorList((await world.tcf(domain))!.vendorListUrl)).json()) as TcfVendorList;
    expect(Object.keys(list.vendors)).toEqual(['1', '40']);

    // An embedding's TCF vendor is asked for even when blacklisted: the operator chose it.
    const before = await world.config(domain);
    const embedding = await world.service.rest('POST', `${domain.base}/embedding`, embeddingPayload({ name: 'Measurement', tcfVendor: 2 }));
    expect(embedding.status, embedding.text).toBe(201);
    const after = await world.config(domain);
    expect(after.tcf.vendorIds).toEqual([1, 2, 40]);
    expect(after.legalRevision).not.toBe(before.legalRevision);
    // …and no longer once the embedding is switched off.
    const off = await world.service.rest('PUT', `${domain.base}/embedding/${(embedding.body as Json).id}`, { active: false });
    expect(off.status, off.text).toBe(200);
    expect((await world.tcf(domain))!.vendorIds).toEqual([1, 40]);

    const [plain, google] = [await world.tcfDomain({ tcfGoogleAdditionalConsentAdProviders: [89] }), await world.tcfDomain({ country: 'ZZ' })];
    expect(await world.tcf(plain)).toMatchObject({ additionalConsentProviders: null, publisherCountryCode: 'DE' });
    expect(await world.tcf(google)).toMatchObject({ publisherCountryCode: 'DE' });
  });

  it('a new list: new legal revision only for domains whose vendors or their declarations change; new vendors only where enabled', async () => {
    const unchanged = await world.tcfDomain({ tcfVendorBlacklist: [2] });
    const withNew = await world.tcfDomain({ tcfEnableNewVendorsAfterGvlUpdate: true });
    const before = new Map<DomainPath, { config: Json; revision: number }>();
    for (const domain of [first, unchanged, withNew]) before.set(domain, { config: await world.config(domain), revision: (await world.newest(domain)).number });

    const summary = await world.importList(GVL_42);
    expect(summary.tcfDomains).toEqual(expect.arrayContaining([first.domainId, unchanged.domainId, withNew.domainId]));

    // Vendor 2's purposes changed: a new legal revision; vendor 77 is new since its base (41) and not enabled.
    const firstNow = await world.config(first);
    expect(firstNow.tcf).toMatchObject({ vendorListVersion: 42, vendorIds: [1, 2, 40] });
    expect(firstNow.legalRevision).not.toBe(before.get(first)!.config.legalRevision);
    expect((await world.newest(first)).legal).toBe(true);

    // Vendors 1 and 40 declare what they did: the same legal revision, though a new revision (the list's version).
    const unchangedNow = await world.config(unchanged);
    expect(unchangedNow.tcf).toMatchObject({ vendorListVersion: 42, vendorIds: [1, 40] });
    expect(unchangedNow.legalRevision).toBe(before.get(unchanged)!.config.legalRevision);
    expect(unchangedNow.contentRevision).not.toBe(before.get(unchanged)!.config.contentRevision);
    const revision = await world.newest(unchanged);
    expect(revision).toMatchObject({ number: before.get(unchanged)!.revision + 1, legal: false });

    const withNewNow = await world.config(withNew);
    expect(withNewNow.tcf).toMatchObject({ vendorListVersion: 42, vendorIds: [1, 2, 40, 77] });
    expect(withNewNow.legalRevision).not.toBe(before.get(withNew)!.config.legalRevision);

    // The German translation was made for 41: still the newest of its language, still shown.
    const list = (await (await world.vendorList(firstNow.tcf.vendorListUrl)).json()) as TcfVendorList;
    expect(list.vendorListVersion).toBe(42);
    expect(list.translations.de_DE!.purposes['1']!.name).toBe(JSON.parse(GERMAN).purposes['1'].name);
    expect(list.vendors['2']!.purposes).toEqual([1, 2, 7]);

    const diff = await world.service.rest('GET', `${first.base}/revision/${(await world.newest(first)).number}/diff`);
    expect(diff.status, diff.text).toBe(200);
    expect(diff.body.changes).toEqual([{ path: '/tcf', summary: 'TCF: Global Vendor List version 41 → 42; vendor 2 declares other purposes or features' }]);

    const kept = await world.service.database.orm.em.fork().execute(`select "vendor_list_version" as "version" from "tcf_vendor_list" order by 1`);
    expect(kept.map((row: Json) => row.version)).toEqual([41, 42]);
  });

  it('a domain that gets TCF now has the current list as its base: vendors of later lists are left out', async () => {
    const late = await world.tcfDomain();
    expect((await world.tcf(late))!.vendorIds).toEqual([1, 2, 40, 77]);
    await world.importList(GVL_43);
    expect(await world.tcf(late)).toMatchObject({ vendorListVersion: 43, vendorIds: [1, 2, 40, 77] });
    // Turned off and on again: the base is the list current then.
    expect((await world.service.rest('PUT', late.base, { tcfEnabled: false })).status).toBe(200);
    expect(await world.tcf(late)).toBeUndefined();
    expect((await world.service.rest('PUT', late.base, { tcfEnabled: true })).status).toBe(200);
    expect((await world.tcf(late))!.vendorIds).toEqual([1, 2, 40, 77, 88]);
  });

  it('a TCF domain without embeddings still has a banner: it asks for its vendors', async () => {
    const domain = await createDomain(world.service);
    expect((await world.service.rest('PUT', domain.base, { tcfEnabled: true })).status).toBe(200);
    const script = await world.appJs(domain);
    expect(script).not.toMatch(/^\/\* The consent banner is switched off/);
    expect(configIn(script).tcf.vendorIds.length).toBeGreaterThan(0);
    expect((await world.service.rest('PUT', domain.base, { tcfEnabled: false })).status).toBe(200);
    expect(await world.appJs(domain)).toMatch(/^\/\* The consent banner is switched off/);
  });

  it('a client without canUseIAB: no tcf in app.js, no vendor list', async () => {
    const client = await createClient(world.service);
    const domain = await world.tcfDomain({}, client.id);
    const url = (await world.tcf(domain))!.vendorListUrl;
    const off = await world.service.rest('PUT', `${API}/${client.id}`, { features: { canUseIAB: false } });
    expect(off.status, off.text).toBe(200);
    const config = await world.config(domain);
    expect(config.tcf).toBeUndefined();
    expect(config.categories.length).toBeGreaterThan(0);
    expect((await world.vendorList(url)).status).toBe(404);
  });

  it('the revision shows the TCF part', async () => {
    const answer = await world.service.rest('GET', `${first.base}/revision/${(await world.newest(first)).number}`);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.configuration.tcf).toMatchObject({ vendorListVersion: 43, vendors: expect.arrayContaining([expect.objectContaining({ id: 2, purposes: [1, 2, 7] })]) });
  });
});

describe('the CMP id', () => {
  describe('in production without TCF_CMP_ID', () => {
    const world = useTcfService({ tcfCmp: { production: true } });
    it('refuses to turn tcfEnabled on, and says why', async () => {
      await world.importList(GVL_41);
      const domain = await createDomain(world.service);
      const refused = await world.service.rest('PUT', domain.base, { tcfEnabled: true });
      expect(refused.status).toBe(400);
      expect(refused.text).toContain('TCF_CMP_ID');
      expect(refused.body.errors ?? refused.body).toBeTruthy();
      expect((await world.service.rest('GET', domain.base)).body.tcfEnabled).toBe(false);
      const created = await world.service.rest('POST', `${API}/${domain.clientId}/domain`, { name: 'www.example.com', tcfEnabled: true });
      expect(created.status).toBe(400);
      expect(created.text).toContain('TCF_CMP_ID');
      // Other settings of TCF may be written; turning it off too.
      expect((await world.service.rest('PUT', domain.base, { tcfEnabled: false, tcfVendorBlacklist: [1] })).status).toBe(200);
    });
  });

  describe('in production with TCF_CMP_ID and TCF_CMP_VERSION', () => {
    const world = useTcfService({ tcfCmp: { production: true, id: 300, version: 7 } });
    it('names them in app.js', async () => {
      await world.importList(GVL_41);
      const domain = await world.tcfDomain();
      expect(await world.tcf(domain)).toMatchObject({ cmpId: 300, cmpVersion: 7, vendorListVersion: 41 });
    });
  });
});

describe('the selection of a domain\'s vendors', () => {
  const list = JSON.parse(GVL_42) as GvlDocument;
  const base = JSON.parse(GVL_41) as GvlDocument;
  const now = new Date('2026-11-01T00:00:00Z');
  const select = (rules: Partial<Parameters<typeof selectVendors>[1]>) =>
    selectVendors(list, { blacklist: [], newVendors: false, base, embedded: [], now, ...rules });

  it('takes the valid vendors, minus the blacklist, minus those new since the base unless new vendors are enabled', () => {
    expect(select({})).toEqual([1, 2, 40]);
    expect(select({ newVendors: true })).toEqual([1, 2, 40, 77]);
    expect(select({ base: undefined })).toEqual([1, 2, 40, 77]);
    expect(select({ blacklist: [1, 77], newVendors: true })).toEqual([2, 40]);
  });

  it('adds the embeddings\' vendors the list has as valid, and no deleted or unknown one', () => {
    expect(select({ blacklist: [2], embedded: [2, 77, 3, 999] })).toEqual([1, 2, 40, 77]);
  });

  it('counts a vendor deleted only later as valid until then', () => {
    const later = structuredClone(list);
    later.vendors['40']!.deletedDate = '2026-12-01T00:00:00Z';
    expect(selectVendors(later, { blacklist: [], newVendors: false, base, embedded: [], now })).toEqual([1, 2, 40]);
    expect(selectVendors(later, { blacklist: [], newVendors: false, base, embedded: [40], now: new Date('2027-01-01T00:00:00Z') })).toEqual([1, 2]);
  });
});

describe('`consent-config tcf import` and `tcf import-translation`', () => {
  const CLI = new URL('../../../bin/consent-config.ts', import.meta.url).pathname;
  let workDir: string;
  let target: { databaseUrl: string | undefined; env: Record<string, string>; drop(): Promise<void> };
  beforeAll(async () => {
    workDir = await mkdtemp(join(tmpdir(), 'tcf-server-'));
    const { databaseUrl, drop } = await freshTestDatabase();
    target = { databaseUrl, env: databaseUrl ? { DATABASE_URL: databaseUrl } : { DATABASE_URL: '', DATA_DIR: join(workDir, 'data') }, drop };
  });
  afterAll(async () => {
    await target?.drop();
    await rm(workDir, { recursive: true, force: true });
  });
  const cli = (...args: string[]) => runToEnd([CLI, ...args], { ...target.env, LOG_LEVEL: 'silent', DEBUG: '', ADMIN_API_KEY: '' });
  const file = async (name: string, text: string) => {
    const path = join(workDir, name);
    await writeFile(path, text);
    return path;
  };
  const query = async (sql: string) => {
    const database = await openServiceDatabase({ databaseUrl: target.databaseUrl, dataDir: join(workDir, 'data'), poolSize: 1 });
    try {
      return await database.orm.em.fork().execute(sql);
    } finally {
      await database.close();
    }
  };

  it('refuses a translation that names no list version before any list is imported, and a language that is no ISO 639-1 code', async () => {
    const { vendorListVersion: _, ...unversioned } = JSON.parse(GERMAN);
    const refused = await cli('tcf', 'import-translation', 'de', await file('unversioned.json', JSON.stringify(unversioned)));
    expect(refused.code, refused.stderr).toBe(1);
    expect(refused.stderr.trim()).toMatch(/^error: cannot import .*unversioned\.json: the file names no vendorListVersion and no Global Vendor List has been imported/);
    const language = await cli('tcf', 'import-translation', 'deu', await file('de.json', GERMAN));
    expect(language.code).toBe(1);
    expect(language.stderr.trim()).toMatch(/"deu" is not a language: give its two-letter ISO 639-1 code/);
    const broken = await cli('tcf', 'import-translation', 'de', await file('broken.json', '{"purposes": 3}'));
    expect(broken.code).toBe(1);
    expect(broken.stderr.trim()).toMatch(/not a translation of the Global Vendor List \(purposes-xx\.json\): purposes: /);
    expect(await query(`select count(*)::int as "n" from "tcf_translation"`)).toEqual([{ n: 0 }]);
  }, 60_000);

  it('keeps every imported list by version, and translations by language and list version', async () => {
    for (const [name, text] of [['41.json', GVL_41], ['42.json', GVL_42]] as const) {
      const result = await cli('tcf', 'import', await file(name, text));
      expect(result.code, result.stderr).toBe(0);
    }
    const translated = await cli('tcf', 'import-translation', 'DE', await file('purposes-de.json', GERMAN));
    expect(translated.code, translated.stderr).toBe(0);
    expect(translated.stdout).toMatch(/^imported the de translation of Global Vendor List version 41 into .*\n$/);
    const again = await cli('tcf', 'import-translation', 'de', await file('purposes-de.json', GERMAN));
    expect(again.stdout).toMatch(/, replacing the one imported before\n$/);
    const { vendorListVersion: _, ...unversioned } = JSON.parse(GERMAN);
    expect((await cli('tcf', 'import-translation', 'fr', await file('fr.json', JSON.stringify(unversioned)))).code).toBe(0);

    expect(await query(`select "vendor_list_version" as "version", "tcf_policy_version" as "policy" from "tcf_vendor_list" order by 1`)).toEqual([
      { version: 41, policy: 5 },
      { version: 42, policy: 5 },
    ]);
    // A translation that names no version is taken for the newest list.
    expect(await query(`select "language", "vendor_list_version" as "version" from "tcf_translation" order by 1`)).toEqual([
      { language: 'de', version: 41 },
      { language: 'fr', version: 42 },
    ]);
  }, 60_000);

  it.skipIf(!process.env.DATABASE_URL)('has a running service publish its TCF domains again from a new list (PostgreSQL: the service and the command share the server)', async () => {
    const service = await startTestService({ databaseUrl: target.databaseUrl });
    try {
      const domain = await createDomain(service);
      expect((await service.rest('POST', `${domain.base}/embedding`, embeddingPayload())).status).toBe(201);
      expect((await service.rest('PUT', domain.base, { tcfEnabled: true })).status).toBe(200);
      const config = async () => configIn(await (await fetch(`${service.baseUrl}/app.js?domain=${domain.domainId}&lang=de_DE`)).text());
      expect((await config()).tcf.vendorListVersion).toBe(42);
      const result = await cli('tcf', 'import', await file('43.json', GVL_43));
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toMatch(/\npublished the banners of 1 TCF domain again\n$/);
      // The command recorded the revision; the service heard of it and builds the banner again.
      const deadline = Date.now() + 10_000;
      while ((await config()).tcf.vendorListVersion !== 43 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      expect((await config()).tcf).toMatchObject({ vendorListVersion: 43, vendorIds: [1, 2, 40, 77] });
    } finally {
      await service.close();
    }
  }, 60_000);
});
