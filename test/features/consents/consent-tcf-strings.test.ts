import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { GppModel } from '@iabgpp/cmpapi';
import { GVL, TCModel, TCString } from '@iabtechlabtcf/core';
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import { Migration20261128160000_consent_privacy_strings as PrivacyStringsMigration } from '../../../src/db/migrations/Migration20261128160000_consent_privacy_strings.ts';
import { decodeAcString } from '../../../src/features/consents/ac-string.ts';
import { decodeGppString } from '../../../src/features/consents/gpp-string.ts';
import { MAX_AC_STRING, MAX_GPP_STRING, MAX_TC_STRING } from '../../../src/features/consents/privacy-strings.contract.ts';
import { decodeTcString } from '../../../src/features/consents/tc-string.ts';
import { unicodeText } from '../../support/arbitraries.ts';
import { useServiceWithDomain } from '../../support/service-with-domain.ts';

/**
 * The IAB strings a consent record carries (issue 39): the TC string of TCF 2.2, Google's
 * Additional Consent string and the GPP string, as the banner's TCF and GPP bundles wrote them.
 * The intake takes only strings that decode (with the IAB libraries), stores them with the
 * choice, and the log (REST, GraphQL), the CSV export and the evidence give them back, the
 * evidence decoded. The strings here are made with the IAB libraries themselves (@iabtechlabtcf/core
 * with the fixture Global Vendor List, @iabgpp/cmpapi), as a CMP makes them.
 */

// ── strings as a CMP makes them ─────────────────────────────────────────────

/** The fixture Global Vendor List (vendors 1, 2, 40; 3 deleted); the library wants stacks and data categories, which it lacks. */
const gvl = new GVL({ stacks: {}, dataCategories: {}, ...JSON.parse(readFileSync(new URL('../../fixtures/global-vendor-list.json', import.meta.url), 'utf8')) });

type TcChoice = {
  cmpId: number;
  cmpVersion: number;
  publisherCountryCode: string;
  purposeConsents: number[];
  purposeLegitimateInterests: number[];
  specialFeatureOptins: number[];
  vendorConsents: number[];
  vendorLegitimateInterests: number[];
};

const CREATED = new Date('2026-11-20T00:00:00Z');

/** A TC string of the choice, encoded by @iabtechlabtcf/core against the fixture list. */
function tcStringOf(choice: TcChoice): string {
  const model = new TCModel(gvl);
  model.cmpId = choice.cmpId;
  model.cmpVersion = choice.cmpVersion;
  model.publisherCountryCode = choice.publisherCountryCode;
  model.purposeConsents.set(choice.purposeConsents);
  model.purposeLegitimateInterests.set(choice.purposeLegitimateInterests);
  model.specialFeatureOptins.set(choice.specialFeatureOptins);
  model.vendorConsents.set(choice.vendorConsents);
  model.vendorLegitimateInterests.set(choice.vendorLegitimateInterests);
  model.created = CREATED;
  model.lastUpdated = CREATED;
  return TCString.encode(model);
}

/** A GPP string with a usnat section of these fields (and, if given, the TC string as its tcfeuv2 section), encoded by @iabgpp/cmpapi. */
function gppStringOf(usnat: Record<string, number | number[]>, tcString?: string): string {
  const model = new GppModel();
  for (const [field, value] of Object.entries(usnat)) model.setFieldValue('usnat', field, value);
  if (tcString) model.decodeSection('tcfeuv2', tcString);
  return model.encode();
}

const SHOWN_CHOICE: TcChoice = {
  cmpId: 300,
  cmpVersion: 7,
  publisherCountryCode: 'AT',
  purposeConsents: [1, 2, 7],
  purposeLegitimateInterests: [2, 7],
  specialFeatureOptins: [1],
  vendorConsents: [1, 40],
  vendorLegitimateInterests: [1, 40],
};

// ── crafted strings ─────────────────────────────────────────────────────────

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const bits = (value: number, width: number) => value.toString(2).padStart(width, '0');
const base64url = (bitString: string) => {
  const padded = bitString.padEnd(Math.ceil(bitString.length / 6) * 6, '0');
  return Array.from({ length: padded.length / 6 }, (_, index) => BASE64URL[Number.parseInt(padded.slice(index * 6, index * 6 + 6), 2)]).join('');
};

/** A TCF 2 core segment whose vendor consents are `ranges` overlapping ranges 1–65535: the library would set every id of each. */
function overlappingRangesTcString(ranges: number): string {
  const core =
    bits(2, 6) + bits(1, 36) + bits(1, 36) + bits(300, 12) + bits(1, 12) + bits(1, 6) + bits(4 * 64 + 4, 12) + bits(41, 12) + bits(5, 6) +
    '1' + '0' + bits(0, 12) + bits(0, 24) + bits(0, 24) + '0' + bits(4 * 64 + 4, 12);
  const consents = bits(65_535, 16) + '1' + bits(ranges, 12) + `1${bits(1, 16)}${bits(65_535, 16)}`.repeat(ranges);
  return base64url(core + consents + bits(0, 16) + '0' + bits(0, 12));
}

/** Fibonacci code of n ≥ 1 (as GPP codes its header's section ids), terminated by `11`. */
function fibonacciCode(n: number): string {
  const weights = [1, 2];
  while (weights.at(-1)! <= n) weights.push(weights.at(-1)! + weights.at(-2)!);
  const code = Array<string>(weights.length).fill('0');
  let rest = n;
  for (let index = weights.length - 1; index >= 0; index--) {
    if (weights[index]! <= rest) {
      code[index] = '1';
      rest -= weights[index]!;
    }
  }
  return `${code.join('').replace(/0+$/, '')}1`;
}

/** A GPP header naming the section ids from `start` to `start + width` as one range. */
const gppHeaderRange = (start: number, width: number) => base64url(bits(3, 6) + bits(1, 6) + bits(1, 12) + '1' + fibonacciCode(start) + fibonacciCode(width));

// ── the intake, the log and the evidence ────────────────────────────────────

describe('the IAB strings of a consent record', () => {
  const { service, domain } = useServiceWithDomain({ service: { consentsPerMinutePerAddress: 100_000 } });

  let revision: string;
  beforeEach(async () => {
    const answer = await service.rest('GET', `${domain.base}/revision?limit=1`);
    expect(answer.status, answer.text).toBe(200);
    revision = answer.body.revisions[0].hash;
  });

  const record = (overrides: Record<string, unknown> = {}) => ({
    domain: domain.domainId,
    consentId: randomUUID(),
    choice: 'necessary',
    categories: ['necessary'],
    services: [],
    revision,
    locale: 'de_DE',
    url: 'https://www.example.org/',
    ...overrides,
  });
  const post = (body: unknown) =>
    fetch(`${service.baseUrl}/consent`, { method: 'POST', headers: { 'content-type': 'text/plain;charset=UTF-8' }, body: JSON.stringify(body) });
  const stored = () =>
    service.database.orm.em
      .fork()
      .getConnection()
      .execute<{ consent_id: string; tc_string: string | null; ac_string: string | null; gpp_string: string | null }[]>(
        `select "consent_id", "tc_string", "ac_string", "gpp_string" from "consent_record" where "domain_id" = ? order by "received_at"`,
        [domain.domainId],
      );

  it('stores the strings with the choice; the log, GraphQL, the CSV and the evidence give them back, the evidence decoded', async () => {
    const tcString = tcStringOf(SHOWN_CHOICE);
    const acString = '2~1.35.41.101~dv.9.21.81';
    const gppString = gppStringOf(
      { SaleOptOutNotice: 1, SaleOptOut: 1, SharingOptOutNotice: 1, SharingOptOut: 2, TargetedAdvertisingOptOutNotice: 1, TargetedAdvertisingOptOut: 1 },
      tcString,
    );
    const withStrings = record({ tcString, acString, gppString });
    const answer = await post(withStrings);
    expect(answer.status, await answer.clone().text()).toBe(201);
    const without = record();
    expect((await post(without)).status).toBe(201);

    expect(await stored()).toEqual([
      { consent_id: withStrings.consentId, tc_string: tcString, ac_string: acString, gpp_string: gppString },
      { consent_id: without.consentId, tc_string: null, ac_string: null, gpp_string: null },
    ]);

    const log = await service.rest('GET', `${domain.base}/consent/${withStrings.consentId}`);
    expect(log.status, log.text).toBe(200);
    expect(log.body).toEqual([expect.objectContaining({ tcString, acString, gppString })]);
    const plain = await service.rest('GET', `${domain.base}/consent/${without.consentId}`);
    expect(plain.body).toEqual([expect.objectContaining({ tcString: null, acString: null, gppString: null })]);

    const graphql = await service.graphql(
      'query($c: ID!, $d: ID!, $id: String!) { domain(clientId: $c, id: $d) { consent(consentId: $id) { tcString acString gppString } } }',
      { c: domain.clientId, d: domain.domainId, id: withStrings.consentId },
    );
    expect(graphql.errors).toBeUndefined();
    expect(graphql.data.domain.consent).toEqual([{ tcString, acString, gppString }]);

    // The CSV: the three columns last, after those an existing consumer knows.
    const csv = await service.raw({ method: 'GET', path: `${domain.base}/consent/export?from=${new Date().toISOString().slice(0, 10)}` });
    expect(csv.status, csv.text).toBe(200);
    const [header, ...rows] = parse(csv.text) as string[][];
    expect(header!.slice(-4)).toEqual(['manipulation_prevention', 'tc_string', 'ac_string', 'gpp_string']);
    const row = (consentId: string) => rows.find((cells) => cells[header!.indexOf('consent_id')] === consentId)!.slice(-3);
    expect(row(withStrings.consentId)).toEqual([tcString, acString, gppString]);
    expect(row(without.consentId)).toEqual(['', '', '']);

    const evidence = await service.rest('GET', `${domain.base}/consent/${withStrings.consentId}/evidence`);
    expect(evidence.status, evidence.text).toBe(200);
    expect(evidence.body.record).toMatchObject({ tcString, acString, gppString });
    expect(evidence.body.privacyStrings).toEqual({
      tcString: {
        cmpId: 300,
        cmpVersion: 7,
        vendorListVersion: 41,
        policyVersion: 5,
        created: CREATED.toISOString(),
        lastUpdated: CREATED.toISOString(),
        // The language of the vendor list the model was made with (the fixture is English).
        consentLanguage: 'EN',
        publisherCountryCode: 'AT',
        isServiceSpecific: true,
        purposeConsents: [1, 2, 7],
        purposeLegitimateInterests: [2, 7],
        specialFeatureOptins: [1],
        vendorConsents: [1, 40],
        vendorLegitimateInterests: [1, 40],
      },
      acString: { version: 2, consentedProviders: [1, 35, 41, 101], disclosedProviders: [9, 21, 81] },
      gppString: {
        sections: [
          { id: 2, name: 'tcfeuv2' },
          { id: 7, name: 'usnat' },
        ],
        usnat: expect.objectContaining({
          saleOptOutNotice: 1,
          saleOptOut: 1,
          sharingOptOutNotice: 1,
          sharingOptOut: 2,
          targetedAdvertisingOptOutNotice: 1,
          targetedAdvertisingOptOut: 1,
          gpc: false,
        }),
      },
    });
    const gql = await service.graphql(
      'query($c: ID!, $d: ID!, $id: String!) { domain(clientId: $c, id: $d) { consentEvidence(consentId: $id) } }',
      { c: domain.clientId, d: domain.domainId, id: withStrings.consentId },
    );
    expect(gql.data.domain.consentEvidence.privacyStrings).toEqual(evidence.body.privacyStrings);

    const page = await service.raw({ method: 'GET', path: `${domain.base}/consent/${withStrings.consentId}/evidence.html` });
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h2>Privacy framework strings</h2>');
    expect(page.text).toContain(`<code>${tcString}</code>`);
    expect(page.text).toContain('<dt>CMP</dt><dd>id 300, version 7</dd>');
    expect(page.text).toContain('<dt>Purposes consented</dt><dd>1, 2, 7</dd>');
    expect(page.text).toContain('<dt>Vendors consented</dt><dd>1, 40</dd>');
    expect(page.text).toContain('<dt>Providers disclosed</dt><dd>9, 21, 81</dd>');
    expect(page.text).toContain('<dt>Sale</dt><dd><strong>opted out</strong> (notice given)</dd>');
    expect(page.text).toContain('<dt>Sharing</dt><dd>did not opt out (notice given)</dd>');

    const noStrings = await service.rest('GET', `${domain.base}/consent/${without.consentId}/evidence`);
    expect(noStrings.body.privacyStrings).toEqual({ tcString: null, acString: null, gppString: null });
    const plainPage = await service.raw({ method: 'GET', path: `${domain.base}/consent/${without.consentId}/evidence.html` });
    expect(plainPage.text).not.toContain('Privacy framework strings');
  });

  it('takes the first version of the AC string and a GPP string of only usnat', async () => {
    const gppString = gppStringOf({ SaleOptOut: 2, SharingOptOut: 2, TargetedAdvertisingOptOut: 2, SensitiveDataProcessing: [1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1] });
    const sent = record({ acString: '1~7.8.1000', gppString });
    expect((await post(sent)).status).toBe(201);
    const evidence = await service.rest('GET', `${domain.base}/consent/${sent.consentId}/evidence`);
    expect(evidence.body.privacyStrings.acString).toEqual({ version: 1, consentedProviders: [7, 8, 1000], disclosedProviders: [] });
    expect(evidence.body.privacyStrings.gppString.sections).toEqual([{ id: 7, name: 'usnat' }]);
    expect(evidence.body.privacyStrings.gppString.usnat).toMatchObject({
      saleOptOut: 2,
      sharingOptOut: 2,
      targetedAdvertisingOptOut: 2,
      sensitiveDataProcessing: [1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1],
    });
    expect(evidence.body.privacyStrings.tcString).toBeNull();
  });

  it('answers 400 naming the field for a string that does not decode, and stores nothing', async () => {
    const valid = tcStringOf(SHOWN_CHOICE);
    const refused: [string, unknown][] = [
      ['tcString', ''],
      ['tcString', 'not a TC string'],
      ['tcString', valid.slice(0, 12)],
      ['tcString', `${valid}.!`],
      // A TCF 1.1 string: TCF 2.2 only.
      ['tcString', 'BOEFEAyOEFEAyAHABDENAI4AAAB9vABAASA'],
      ['tcString', 'A'.repeat(MAX_TC_STRING + 1)],
      ['tcString', 42],
      ['acString', '2~1.35'],
      ['acString', '3~1~dv.2'],
      ['acString', '2~1..35~dv.'],
      ['acString', '1~01'],
      ['acString', `1~${'1.'.repeat(MAX_AC_STRING / 2)}1`],
      ['gppString', 'DBABMA~'],
      ['gppString', 'xyz'],
      // The header names one section, two follow.
      ['gppString', `${gppStringOf({ SaleOptOut: 1 })}~CAAAAAAAAABA.QA`],
      // A section the service does not record: the Canadian TCF (5).
      ['gppString', `${gppHeaderRange(5, 0)}~${'A'.repeat(40)}`],
      // A section id GPP does not have.
      ['gppString', `${gppHeaderRange(4, 0)}~AAAA`],
      ['gppString', `DBABLA~${'A'.repeat(MAX_GPP_STRING)}`],
      ['gppString', null],
    ];
    for (const [field, value] of refused) {
      const answer = await post(record({ [field]: value }));
      const body = await answer.json();
      expect(answer.status, `${field}: ${JSON.stringify(value).slice(0, 80)} → ${JSON.stringify(body)}`).toBe(400);
      expect(body.errors.map((problem: { path: string }) => problem.path)).toEqual([`/${field}`]);
    }
    expect(await stored()).toEqual([]);
  });

  it('refuses at once the strings crafted to make the IAB libraries expand huge ranges', async () => {
    // 700 overlapping ranges 1–65535: 46 million ids for @iabtechlabtcf/core to set one by one (about a second).
    const flood = overlappingRangesTcString(700);
    expect(flood.length).toBeLessThanOrEqual(MAX_TC_STRING);
    // A GPP header naming the section ids 2 to 2 + 10⁹: @iabgpp/cmpapi would push each into an array.
    const endless = `${gppHeaderRange(2, 1_000_000_000)}~A`;
    const cases: [string, string][] = [
      ['tcString', flood],
      ['gppString', endless],
      // The TC string as the tcfeuv2 section of a GPP string.
      ['gppString', `${gppHeaderRange(2, 0)}~${flood}`],
    ];
    for (const [field, value] of cases) {
      const started = performance.now();
      const answer = await post(record({ [field]: value }));
      expect(answer.status, field).toBe(400);
      expect(performance.now() - started, field).toBeLessThan(1_000);
    }
    // The decoders alone: no time to speak of.
    const started = performance.now();
    expect(decodeTcString(flood)).toBeNull();
    expect(decodeGppString(endless)).toBeNull();
    expect(performance.now() - started).toBeLessThan(100);
    // A real string of many vendors in ranges is well within the bound.
    const many = tcStringOf({ ...SHOWN_CHOICE, vendorConsents: [1, 2, 40] });
    expect(decodeTcString(many)?.vendorConsents).toEqual([1, 2, 40]);
    expect(await stored()).toEqual([]);
  });

  it('checks a warm record with its strings without a statement of its own', async () => {
    const strings = { tcString: tcStringOf(SHOWN_CHOICE), acString: '2~1~dv.2', gppString: gppStringOf({ SaleOptOut: 1 }) };
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await post(record(strings))).status).toBe(201);
    const before = service.database.statements.total;
    expect((await post(record(strings))).status).toBe(201);
    // The insert, and nothing else.
    expect(service.database.statements.total - before).toBe(1);
  });

  it("adds the columns to the partitioned table with its months already made: every partition has them, older rows null", async () => {
    const strings = { tcString: tcStringOf(SHOWN_CHOICE), acString: '2~1~dv.2', gppString: gppStringOf({ SaleOptOut: 1 }) };
    const kept = record(strings);
    expect((await post(kept)).status).toBe(201);
    const orm = service.database.orm;
    const connection = orm.em.fork().getConnection();
    const migration = new PrivacyStringsMigration(orm.em.getDriver(), orm.config);
    const run = async (step: 'up' | 'down') => {
      migration.reset();
      await migration[step]();
      for (const query of migration.getQueries()) await connection.execute(query as string);
    };
    const columns = () =>
      connection.execute<{ table: string; column: string }[]>(
        `select c.relname as "table", a.attname as "column" from pg_attribute a join pg_class c on c.oid = a.attrelid
         where (c.relname = 'consent_record' or c.relname like 'consent\\_record\\_____\\___') and a.attname in ('tc_string', 'ac_string', 'gpp_string') and not a.attisdropped
         order by 1, 2`,
      );
    const partitions = await connection.execute<{ name: string }[]>(
      `select c.relname as "name" from pg_inherits i join pg_class c on c.oid = i.inhrelid join pg_class p on p.oid = i.inhparent where p.relname = 'consent_record'`,
    );
    expect(partitions.length).toBeGreaterThan(0);
    try {
      await run('down');
      expect(await columns()).toEqual([]);
      expect((await stored().catch((error: Error) => error.message)).toString()).toMatch(/tc_string/);
      await run('up');
      const tables = ['consent_record', ...partitions.map((partition) => partition.name)].sort();
      expect(await columns()).toEqual(tables.flatMap((table) => ['ac_string', 'gpp_string', 'tc_string'].map((column) => ({ table, column }))));
      // The row stored before the columns came back has none of the strings; a new one has them.
      expect(await stored()).toEqual([{ consent_id: kept.consentId, tc_string: null, ac_string: null, gpp_string: null }]);
    } finally {
      // Whatever happened, the table as the migrations leave it for the tests that follow.
      const present = await columns();
      if (!present.some((entry) => entry.table === 'consent_record')) await run('up');
    }
    const after = record(strings);
    expect((await post(after)).status).toBe(201);
    expect((await stored()).at(-1)).toEqual({ consent_id: after.consentId, tc_string: strings.tcString, ac_string: strings.acString, gpp_string: strings.gppString });
  });

  // ── generated input ───────────────────────────────────────────────────────

  /** Not a string at all, or text with a character none of the strings has (they are base64url, digits, `.` and `~`). */
  const notAnyString = fc.oneof(
    fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.string(), { maxLength: 3 }), fc.dictionary(fc.string(), fc.string(), { maxKeys: 2 })),
    unicodeText.filter((text) => text === '' || /[^A-Za-z0-9_.~-]/.test(text)),
  );
  const longerThan = (max: number) => fc.integer({ min: max + 1, max: max + 500 }).map((length) => 'Q'.repeat(length));

  it('answers 400 naming the field for generated bad strings, and stores nothing', async () => {
    const bad = fc.oneof(
      fc.record({ field: fc.constant('tcString'), value: fc.oneof(notAnyString, longerThan(MAX_TC_STRING), fc.string({ unit: fc.constantFrom(...'~!*+/='), minLength: 1 })) }),
      fc.record({
        field: fc.constant('acString'),
        value: fc.oneof(
          notAnyString,
          longerThan(MAX_AC_STRING),
          // Version 2 without its disclosed part, or a version that is neither.
          fc.array(fc.integer({ min: 1, max: 9999 }), { maxLength: 5 }).map((ids) => `2~${ids.join('.')}`),
          fc.tuple(fc.integer({ min: 3, max: 99 }), fc.array(fc.integer({ min: 1, max: 9999 }), { maxLength: 5 })).map(([version, ids]) => `${version}~${ids.join('.')}`),
        ),
      }),
      fc.record({ field: fc.constant('gppString'), value: fc.oneof(notAnyString, longerThan(MAX_GPP_STRING), fc.string({ unit: fc.constantFrom(...'~.'), minLength: 1 })) }),
    );
    await fc.assert(
      fc.asyncProperty(bad, async ({ field, value }) => {
        const answer = await post(record({ [field]: value }));
        const body = await answer.json();
        expect(answer.status, JSON.stringify(body)).toBe(400);
        expect(body.errors.map((problem: { path: string }) => problem.path)).toEqual([`/${field}`]);
      }),
      { numRuns: 80 },
    );
    expect(await stored()).toEqual([]);
  });

  /**
   * The library's own verdict on a TC string: whether it decodes to a TCF 2 model, from a core
   * segment. The library reads each segment by the type in its first three bits and leaves its
   * model's defaults (version 2, today's dates) where no core segment came: a string whose first
   * character was changed into another segment type's (`a…`: publisher TC) "decodes" with no core
   * at all. The core is first and starts with version 2 (six bits, the character `C`).
   */
  const libraryDecodesTc = (text: string) => {
    if (!text.startsWith('C')) return false;
    try {
      const model = TCString.decode(text);
      return model.version === 2 && !Number.isNaN(model.created.getTime()) && !Number.isNaN(model.lastUpdated.getTime());
    } catch {
      return false;
    }
  };
  const libraryDecodesGpp = (text: string) => {
    try {
      new GppModel(text).toObject();
      return true;
    } catch {
      return false;
    }
  };

  /** A valid string with one character replaced by a base64url one, or cut short. */
  const mutated = (valid: string, from: number) =>
    fc.oneof(
      fc.tuple(fc.integer({ min: from, max: valid.length - 1 }), fc.constantFrom(...BASE64URL)).map(([at, character]) => valid.slice(0, at) + character + valid.slice(at + 1)),
      fc.integer({ min: from + 1, max: valid.length - 1 }).map((at) => valid.slice(0, at)),
    );

  it('agrees with the IAB libraries on mutated strings: stored exactly when they decode, else 400 and nothing stored', async () => {
    const tc = tcStringOf(SHOWN_CHOICE);
    const usnat = gppStringOf({ SaleOptOut: 1, SharingOptOut: 2 });
    const header = usnat.split('~')[0]!;
    const cases = fc.oneof(
      mutated(tc, 0).map((value) => ({ field: 'tcString', value, decodes: libraryDecodesTc(value) })),
      // Only the section changes: the header stays one the service reads.
      mutated(usnat, header.length + 1).map((value) => ({ field: 'gppString', value, decodes: libraryDecodesGpp(value) })),
    );
    let storedCount = 0;
    let refusedCount = 0;
    await fc.assert(
      fc.asyncProperty(cases, async ({ field, value, decodes }) => {
        const sent = record({ [field]: value });
        const answer = await post(sent);
        const body = await answer.json();
        if (decodes) {
          expect(answer.status, JSON.stringify(body)).toBe(201);
          storedCount += 1;
          const log = await service.rest('GET', `${domain.base}/consent/${sent.consentId}`);
          expect(log.body[0][field]).toBe(value);
        } else {
          refusedCount += 1;
          expect(answer.status, `${value} → ${JSON.stringify(body)}`).toBe(400);
          expect(body.errors.map((problem: { path: string }) => problem.path)).toEqual([`/${field}`]);
        }
      }),
      { numRuns: 80 },
    );
    expect(await stored()).toHaveLength(storedCount);
    // About half the mutations still decode: both answers were tried.
    expect([storedCount > 0, refusedCount > 0]).toEqual([true, true]);
  });
});

// ── the decoders ────────────────────────────────────────────────────────────

describe('decoding the IAB strings', () => {
  const subset = (ids: number[]) => fc.subarray(ids).map((chosen) => chosen.sort((a, b) => a - b));

  it('gives back what a TC string encoded (generated choices)', () => {
    fc.assert(
      fc.property(
        fc.record({
          cmpId: fc.integer({ min: 2, max: 4095 }),
          cmpVersion: fc.integer({ min: 1, max: 4095 }),
          publisherCountryCode: fc.constantFrom('DE', 'AT', 'FR', 'AA'),
          purposeConsents: subset([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]),
          // TCF 2.2 has no legitimate interest for purposes 1, 3 to 6.
          purposeLegitimateInterests: subset([2, 7, 8, 9, 10, 11]),
          specialFeatureOptins: subset([1, 2]),
          // The vendors of the list that may be asked: 3 is deleted; only 1 and 40 claim a legitimate interest.
          vendorConsents: subset([1, 2, 40]),
          vendorLegitimateInterests: subset([1, 40]),
        }),
        (choice) => {
          const decoded = decodeTcString(tcStringOf(choice));
          expect(decoded).toEqual({
            ...choice,
            vendorListVersion: 41,
            policyVersion: 5,
            created: CREATED.toISOString(),
            lastUpdated: CREATED.toISOString(),
            consentLanguage: 'EN',
            isServiceSpecific: true,
          });
        },
      ),
      { numRuns: 100 },
    );
  });

  it('gives back the usnat fields a GPP string encoded (generated)', () => {
    const optOut = fc.integer({ min: 0, max: 2 });
    fc.assert(
      fc.property(
        fc.record({ SaleOptOut: optOut, SharingOptOut: optOut, TargetedAdvertisingOptOut: optOut, SaleOptOutNotice: optOut, SharingOptOutNotice: optOut }),
        fc.array(optOut, { minLength: 16, maxLength: 16 }),
        (fields, sensitive) => {
          const decoded = decodeGppString(gppStringOf({ ...fields, SensitiveDataProcessing: sensitive }));
          expect(decoded?.sections).toEqual([{ id: 7, name: 'usnat' }]);
          expect(decoded?.usnat).toMatchObject({
            saleOptOut: fields.SaleOptOut,
            sharingOptOut: fields.SharingOptOut,
            targetedAdvertisingOptOut: fields.TargetedAdvertisingOptOut,
            saleOptOutNotice: fields.SaleOptOutNotice,
            sharingOptOutNotice: fields.SharingOptOutNotice,
            sensitiveDataProcessing: sensitive,
          });
        },
      ),
      { numRuns: 100 },
    );
  });

  it('reads the provider ids of an AC string of either version (generated)', () => {
    const ids = fc.uniqueArray(fc.integer({ min: 1, max: 99_999 }), { maxLength: 30 });
    fc.assert(
      fc.property(ids, ids, (consented, disclosed) => {
        const sorted = (list: number[]) => [...list].sort((a, b) => a - b);
        expect(decodeAcString(`2~${consented.join('.')}~dv.${disclosed.join('.')}`)).toEqual({ version: 2, consentedProviders: sorted(consented), disclosedProviders: sorted(disclosed) });
        expect(decodeAcString(`1~${consented.join('.')}`)).toEqual({ version: 1, consentedProviders: sorted(consented), disclosedProviders: [] });
      }),
    );
  });
});
