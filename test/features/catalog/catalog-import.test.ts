import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../src/db/orm.ts';
import { openServiceDatabase } from '../../../src/app/database.ts';
import { loadCatalog } from '../../../src/features/catalog/catalog.ts';
import { ImportedCookieEntity, ImportedServiceEntity } from '../../../src/features/catalog/imported.entity.ts';
import { freshTestDatabase } from '../../support/database.ts';

/**
 * `npm run catalog:import -- <file.csv>` with a file in the Open Cookie Database format, run as
 * operators run it. The file is the project's own fixture (test/fixtures/open-cookie-database.csv):
 * 29 rows, of which one (line 25) has no platform and is skipped, so 28 cookies of 8 platforms.
 */

const run = promisify(execFile);
const OCD = new URL('../../fixtures/open-cookie-database.csv', import.meta.url).pathname;
const NODE = process.execPath;
const SCRIPT = new URL('../../../scripts/catalog-import.ts', import.meta.url).pathname;

let workDir: string;
let target: { env: Record<string, string>; open(): Promise<Database>; drop(): Promise<void> };

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'catalog-import-'));
  const { databaseUrl, drop } = await freshTestDatabase();
  const dataDir = join(workDir, 'data');
  target = {
    env: databaseUrl ? { DATABASE_URL: databaseUrl } : { DATA_DIR: dataDir },
    open: () => openServiceDatabase({ databaseUrl, dataDir, poolSize: 1 }),
    drop,
  };
});
afterAll(async () => {
  await target.drop();
  await rm(workDir, { recursive: true, force: true });
});

const importFile = (file: string) =>
  run(NODE, [SCRIPT, file], { env: { ...process.env, DATABASE_URL: '', ...target.env, LOG_LEVEL: 'silent' } });

describe('catalog import', () => {
  it('imports every platform of the Open Cookie Database file as a service with its cookies', async () => {
    const { stdout } = await importFile(OCD);
    expect(stdout).toMatch(/imported 28 cookies of 8 services \(8 new\)/);
    expect(stdout).toMatch(/skipped 1 rows \(first: line 25: Platform: /);

    const database = await target.open();
    try {
      const em = database.orm.em.fork();
      expect(await em.count(ImportedServiceEntity)).toBe(8);
      expect(await em.count(ImportedCookieEntity)).toBe(28);
      // Vendor: the most common data controller, else the platform; purpose: see purposeForRows.
      const services = await em.find(ImportedServiceEntity, {}, { orderBy: { platform: 'asc' } });
      expect(services.map(({ platform, vendor, purpose }) => ({ platform, vendor, purpose }))).toEqual([
        { platform: 'Clip Player', vendor: 'Clip Player AB', purpose: 'cdcbd7c' },
        { platform: 'Cookiebot', vendor: 'Cookiebot', purpose: '41ba25c' },
        { platform: 'Demo Personalizer', vendor: 'Demo Personalizer GmbH', purpose: '7c19e32' },
        { platform: 'Example Analytics', vendor: 'Example Analytics Ltd.', purpose: 'a717ff5' },
        { platform: 'Guard Gate', vendor: 'Guard Gate Networks', purpose: '41ba25c' },
        { platform: 'Hotjar', vendor: 'Hotjar', purpose: 'a717ff5' },
        { platform: 'Sample Ads Network', vendor: 'Sample Ads, Inc.', purpose: 'cdcbd7c' },
        { platform: 'Shopfront Commerce', vendor: 'Shopfront Commerce', purpose: '41ba25c' },
      ]);
      // A quoted description keeps its commas and doubled quotes.
      const uid = await em.findOneOrFail(ImportedCookieEntity, { name: 'sadn_uid' });
      expect(uid.description).toBe(
        'Advertising id that recognises the browser on partner sites, for "retargeting" and frequency capping',
      );
      const catalog = await loadCatalog(em);
      const hotjar = catalog.entries.find((entry) => entry.source === 'imported' && entry.name === 'Hotjar');
      expect(hotjar).toMatchObject({ purpose: 'a717ff5', source: 'imported' });
      expect(hotjar!.id).toBeGreaterThanOrEqual(100_000);
      // A prefix row of the file matches longer names.
      const match = catalog.matchStorageKey('CookieConsentBulkSetting-abc', 'cookie');
      expect(match).toMatchObject({ rule: 'imported', entry: { name: 'Cookiebot' } });
    } finally {
      await database.close();
    }
  });

  it('keeps preset ids stable when the same file is imported again', async () => {
    const before = await target.open();
    const ids = (await before.orm.em.fork().find(ImportedServiceEntity, {}, { orderBy: { platform: 'asc' } })).map((s) => [s.platform, s.id]);
    await before.close();

    const { stdout } = await importFile(OCD);
    expect(stdout).toMatch(/imported 28 cookies of 8 services \(0 new\)/);

    const after = await target.open();
    const again = (await after.orm.em.fork().find(ImportedServiceEntity, {}, { orderBy: { platform: 'asc' } })).map((s) => [s.platform, s.id]);
    await after.close();
    expect(again).toEqual(ids);
  });

  it('puts an exact name of an imported file before a built-in pattern: AMP_TOKEN is Google’s, not Amplitude’s AMP_*', async () => {
    // A second file in the same format, of the project's making: Universal Analytics' AMP cookie as an exact name.
    const google = join(workDir, 'google-analytics.csv');
    await writeFile(
      google,
      [
        'ID,Platform,Category,Cookie / Data Key name,Domain,Description,Retention period,Data Controller,User Privacy & GDPR Rights Portals,Wildcard match',
        '0c6f1d2e-7a41-4b8e-9d53-1f2a3b4c5d61,Google Analytics,Analytics,AMP_TOKEN,,"Token for fetching a client id for AMP pages, or why none could be fetched",1 year,Google,https://policies.google.com/privacy,0',
        '0c6f1d2e-7a41-4b8e-9d53-1f2a3b4c5d62,Google Analytics,Analytics,_gat_gtag_,,"Throttles the requests of one property; its id follows the prefix",1 minute,Google,https://policies.google.com/privacy,1',
      ].join('\n'),
    );
    const { stdout } = await importFile(google);
    expect(stdout).toMatch(/imported 2 cookies of 1 services \(1 new\)/);

    const database = await target.open();
    try {
      const catalog = await loadCatalog(database.orm.em.fork());
      expect(catalog.matchStorageKey('AMP_TOKEN', 'cookie')).toMatchObject({ rule: 'imported', entry: { name: 'Google Analytics', source: 'imported' } });
      // Amplitude's pattern keeps every other AMP_ name.
      expect(catalog.matchStorageKey('AMP_5d2e8f6a0b', 'cookie')).toMatchObject({ rule: 'wildcard', entry: { name: 'Amplitude', source: 'builtin' } });
      // Built-in names still come first where both tiers are equally sure: exact before exact, pattern before pattern.
      expect(catalog.matchStorageKey('_hjid', 'cookie')).toMatchObject({ rule: 'exact', entry: { name: 'Hotjar', source: 'builtin' } });
      expect(catalog.matchStorageKey('_hjSession_4711', 'cookie')).toMatchObject({ rule: 'wildcard', entry: { name: 'Hotjar', source: 'builtin' } });
      expect(catalog.matchStorageKey('_gat_gtag_UA_12345_1', 'cookie')).toMatchObject({
        rule: 'wildcard',
        entry: { name: 'Google Analytics (Universal Analytics)', source: 'builtin' },
      });
      // The Domain column of the first file names where Sample Ads Network sets its cookies: an unlisted one there is its own.
      const owners = catalog.attribute([
        { name: 'sadn_uid', storageType: 'cookie', domain: '.sample-network.example' },
        { name: 'sadn_partner_42', storageType: 'cookie', domain: 'ads.sample-network.example' },
      ]);
      expect(owners.map((owner) => [owner?.entry.name, owner?.rule])).toEqual([
        ['Sample Ads Network', 'imported'],
        ['Sample Ads Network', 'domain'],
      ]);
    } finally {
      await database.close();
    }
  });

  it('does not take "Functional" for technically necessary: only what the description says is exempt is, the rest needs consent', async () => {
    const file = join(workDir, 'functional.csv');
    const row = (id: number, platform: string, category: string, name: string, description: string) =>
      `7e0a1b2c-0000-4000-8000-${String(id).padStart(12, '0')},${platform},${category},${name},,"${description}",1 year,${platform} Ltd.,https://example.org/privacy,0`;
    await writeFile(
      file,
      [
        'ID,Platform,Category,Cookie / Data Key name,Domain,Description,Retention period,Data Controller,User Privacy & GDPR Rights Portals,Wildcard match',
        row(1, 'Chat Box', 'Functional', 'chatbox_id', "Necessary for the functionality of the website's chat-box function."),
        row(2, 'Chat Box', 'Functional', 'chatbox_open', 'Remembers whether the chat window was open.'),
        row(3, 'Tune Player', 'Functional', 'tp_device', 'Required to ensure the functionality of the integrated player.'),
        row(4, 'App Monitor', 'Functional', 'am_user', 'A unique user identifier enabling counting of the number of users over time.'),
        row(5, 'Consent Keeper', 'Functional', 'ck_state', "Stores the user's cookie consent state for the current domain."),
        row(6, 'Consent Keeper', 'Functional', 'ck_bulk', 'Lets one consent decision apply to several sites.'),
        row(7, 'Edge Shield', 'Functional', 'es_bm', 'Identifies trusted web traffic and keeps bad bots out.'),
        row(8, 'Edge Shield', 'Functional', 'es_lb', 'Session affinity for the load balancer.'),
        row(9, 'Shop Engine', 'Necessary', 'se_session', 'Keeps the visitor signed in between pages.'),
        row(10, 'Shop Engine', 'Functional', 'se_cart', 'References the shopping cart of a guest.'),
        row(11, 'Shop Engine', 'Functional', 'se_lang', 'Saves the language the visitor chose.'),
        row(12, 'Pay Button', 'Functional', 'pb_fraud', 'Fraud prevention and detection.'),
        row(13, 'Pay Button', 'Functional', 'pb_method', 'Remembers the payment method last used.'),
        row(14, 'Pay Button', 'Functional', 'pb_access', 'Used to access the service it provides.'),
      ].join('\n'),
    );
    await importFile(file);
    const database = await target.open();
    try {
      const services = await database.orm.em.fork().find(ImportedServiceEntity, { platform: { $in: ['Chat Box', 'Tune Player', 'App Monitor', 'Consent Keeper', 'Edge Shield', 'Shop Engine', 'Pay Button'] } });
      expect(Object.fromEntries(services.map((service) => [service.platform, service.purpose]))).toEqual({
        // A widget or player described only as "Functional": personalisation, which needs consent.
        'Chat Box': '7c19e32',
        'Tune Player': '7c19e32',
        // Counting users is measuring them.
        'App Monitor': 'a717ff5',
        // Keeping the consent choice, security and load balancing are exempt.
        'Consent Keeper': '41ba25c',
        'Edge Shield': '41ba25c',
        // Mostly exempt (session, basket), the rest only an interface choice: exempt as a whole.
        'Shop Engine': '41ba25c',
        // One exempt cookie (fraud) does not carry two that are not.
        'Pay Button': '7c19e32',
      });
    } finally {
      await database.close();
    }
  });

  it('refuses a file that is not in the Open Cookie Database format, with one clear line and a non-zero exit', async () => {
    const wrong = join(workDir, 'wrong.csv');
    await writeFile(wrong, 'name,value\n_ga,1\n');
    const failure = await importFile(wrong).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr.trim()).toMatch(/^cannot import .*wrong\.csv: not in the Open Cookie Database format: missing column\(s\) ID, Platform/);
  });
});
