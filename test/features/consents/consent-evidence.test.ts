import { randomUUID } from 'node:crypto';
import puppeteer, { type Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBannerConfig } from '../../../src/features/banner/banner-config.build.ts';
import { type PublishedConfiguration, readPublishedConfiguration } from '../../../src/features/banner/published-configuration.ts';
import {
  type ConsentEvidence,
  consentEvidence,
  consentEvidenceHtml,
  type EvidenceRecord,
  type EvidenceRevision,
} from '../../../src/features/consents/consent-evidence.ts';
import { escapeHtml } from '../../../src/kernel/html.ts';
import { MAX_HISTORY } from '../../../src/features/consents/consent-log.ts';
import { CHROMIUM_FLAGS, findChromium } from '../../../src/scanner/chromium.ts';
import { embeddingPayload, themePayload, unknownId } from '../../support/fixtures.ts';
import { useServiceWithDomain } from '../../support/service-with-domain.ts';

/**
 * The evidence of a consent record: what the banner showed for the revision the record names, in
 * the record's locale, and what of it the visitor accepted; as JSON and as a printable page.
 */
describe('the evidence of a consent record', () => {
  const { service, domain } = useServiceWithDomain();

  const created = async (body: unknown): Promise<{ id: string }> => {
    const answer = await service.rest('POST', `${domain.base}/embedding`, body);
    expect(answer.status, answer.text).toBe(201);
    return answer.body;
  };

  /** A domain with a necessary service, two analytics services and a social media one. */
  const configured = async () => {
    const session = await created(
      embeddingPayload({ name: 'Session', purpose: '41ba25c', vendor: 'Shop GmbH', privacyPolicyUrl: '', assets: [{ name: 'PHPSESSID', lifetime: 'session' }] }),
    );
    const matomo = await created(
      embeddingPayload({
        name: 'Matomo',
        purpose: 'a717ff5',
        vendor: 'InnoCraft',
        privacyPolicyUrl: 'https://matomo.org/privacy-policy/',
        assets: [{ name: '_pk_id.*', dynamic: true, lifetime: '13 Monate', description: 'Besucher-ID', translations: { en_US: { lifetime: '13 months', description: 'Visitor id' } } }],
      }),
    );
    const analytics = await created(
      embeddingPayload({
        name: 'Google Analytics',
        purpose: 'a717ff5',
        translations: { en_US: { name: 'Google Analytics 4' } },
        assets: [{ name: '_ga', lifetime: '2 years' }, { name: '_ga_*', dynamic: true }],
      }),
    );
    const youtube = await created(embeddingPayload());
    const published = (await readPublishedConfiguration(service.database.orm, service.services, domain.domainId))!;
    return { published, ids: { session: session.id, matomo: matomo.id, analytics: analytics.id, youtube: youtube.id } };
  };

  const revisionOf = (published: PublishedConfiguration): EvidenceRevision => ({
    number: 7,
    hash: buildBannerConfig(published, null).contentRevision,
    createdAt: '2026-11-20T09:15:00.000Z',
    legal: true,
    keyName: 'shop deploy key',
  });

  const recordOf = (published: PublishedConfiguration, overrides: Partial<EvidenceRecord> = {}): EvidenceRecord => ({
    consentId: '0193a1b2-c3d4-4e5f-8a6b-7c8d9e0f1a2b',
    receivedAt: '2026-11-21T12:00:00.000Z',
    choice: 'all',
    categories: [],
    services: [],
    revision: revisionOf(published).hash,
    locale: 'en_US',
    origin: 'https://www.example.org',
    path: '/shop/cart',
    address: '203.0.113.0',
    originMatches: true,
    signal: null,
    manipulationPrevention: false,
    tcString: null,
    acString: null,
    gppString: null,
    ...overrides,
  });

  /** The consent's history when it has this one record. */
  const alone = (record: EvidenceRecord) => [{ id: '0193a1b2-0000-4000-8000-000000000001', ...record }];

  const evidenceOf = (published: PublishedConfiguration, overrides: Partial<EvidenceRecord> = {}) => {
    const record = recordOf(published, overrides);
    return consentEvidence(record, revisionOf(published), published, alone(record));
  };

  /** category key → [accepted, {service id → accepted}] */
  const acceptance = (evidence: ConsentEvidence) =>
    Object.fromEntries(
      evidence.categories.map((category) => [
        category.key,
        [category.accepted, Object.fromEntries(category.services.map((service) => [service.id, service.accepted]))],
      ]),
    );

  it('accepts everything when the visitor accepted all', async () => {
    const { published, ids } = await configured();
    const evidence = evidenceOf(published, { choice: 'all', categories: ['necessary', 'analytics', 'social_media'] });
    expect(acceptance(evidence)).toEqual({
      necessary: [true, { [ids.session]: true }],
      analytics: [true, { [ids.matomo]: true, [ids.analytics]: true }],
      social_media: [true, { [ids.youtube]: true }],
    });
    expect(evidence.unknownServices).toEqual([]);
    expect(evidence.unknownCategories).toEqual([]);
    expect(evidence.revision).toEqual({ ...revisionOf(published), configurationVerified: true });
    expect(evidence.domain).toEqual({ id: domain.domainId, name: 'www.example.org', url: published.domain.url });
  });

  it('accepts only the necessary category when the visitor rejected all', async () => {
    const { published, ids } = await configured();
    const evidence = evidenceOf(published, { choice: 'necessary', categories: ['necessary'] });
    expect(acceptance(evidence)).toEqual({
      necessary: [true, { [ids.session]: true }],
      analytics: [false, { [ids.matomo]: false, [ids.analytics]: false }],
      social_media: [false, { [ids.youtube]: false }],
    });
  });

  it('accepts, of a custom choice, exactly the services it names', async () => {
    const { published, ids } = await configured();
    const evidence = evidenceOf(published, { choice: 'custom', categories: ['necessary', 'analytics'], services: [ids.session, ids.matomo] });
    expect(acceptance(evidence)).toEqual({
      necessary: [true, { [ids.session]: true }],
      analytics: [true, { [ids.matomo]: true, [ids.analytics]: false }],
      social_media: [false, { [ids.youtube]: false }],
    });
  });

  it('describes each service and what it stores in the locale shown', async () => {
    const { published, ids } = await configured();
    const evidence = evidenceOf(published);
    const analytics = evidence.categories.find((category) => category.key === 'analytics')!;
    const sections = buildBannerConfig(published, 'en_US').texts.en_US!.translation.preferencesModal.sections;
    expect(analytics.purpose).toBe('a717ff5');
    expect(analytics.title).toBe(sections.find((section) => section.linkedCategory === 'analytics')!.title);
    expect(analytics.services).toEqual([
      {
        id: ids.matomo,
        name: 'Matomo',
        vendor: 'InnoCraft',
        privacyPolicyUrl: 'https://matomo.org/privacy-policy/',
        accepted: true,
        storage: [{ name: '_pk_id.*', dynamic: true, storageType: 'cookie', lifetime: '13 months', description: 'Visitor id' }],
      },
      {
        id: ids.analytics,
        name: 'Google Analytics 4',
        vendor: 'Google Ireland Limited',
        privacyPolicyUrl: 'https://policies.google.com/privacy',
        accepted: true,
        storage: [
          { name: '_ga', dynamic: false, storageType: 'cookie', lifetime: '2 years', description: '' },
          { name: '_ga_*', dynamic: true, storageType: 'cookie', lifetime: '', description: '' },
        ],
      },
    ]);
    const youtube = evidence.categories.find((category) => category.key === 'social_media')!.services[0]!;
    expect(youtube.storage.map((item) => [item.name, item.storageType])).toEqual([
      ['VISITOR_INFO1_LIVE', 'cookie'],
      ['yt-remote-*', 'localStorage'],
    ]);
    // In German the asset's own texts.
    const german = evidenceOf(published, { locale: 'de_DE' }).categories.find((category) => category.key === 'analytics')!;
    expect(german.services[0]!.storage[0]).toMatchObject({ lifetime: '13 Monate', description: 'Besucher-ID' });
    expect(german.services[1]!.name).toBe('Google Analytics');
  });

  it("holds the banner's own texts for the record's locale", async () => {
    const { published } = await configured();
    const evidence = evidenceOf(published, { locale: 'en_US' });
    expect(evidence.locale).toEqual({ recorded: 'en_US', shown: 'en_US', fellBack: false });
    const { consentModal, preferencesModal } = buildBannerConfig(published, 'en_US').texts.en_US!.translation;
    expect(evidence.texts.consentModal).toMatchObject({
      title: consentModal.title,
      description: consentModal.description,
      acceptAllButton: consentModal.acceptAllBtn,
      acceptNecessaryButton: consentModal.acceptNecessaryBtn,
      preferencesButton: consentModal.showPreferencesBtn,
    });
    expect(evidence.texts.preferencesModal.title).toBe(preferencesModal.title);
    expect(evidence.texts.preferencesModal.saveButton).toBe(preferencesModal.savePreferencesBtn);
    expect(evidence.texts.preferencesModal.sections).toEqual(
      preferencesModal.sections.map((section) => ({ title: section.title ?? null, description: section.description ?? null, category: section.linkedCategory ?? null })),
    );
    // Not the German ones.
    const german = buildBannerConfig(published, 'de_DE').texts.de_DE!.translation.consentModal;
    expect(german.title).not.toBe(consentModal.title);
  });

  it("falls back to the revision's first locale when it lacks the record's, and says so", async () => {
    const { published } = await configured();
    const evidence = evidenceOf(published, { locale: 'fr' });
    expect(evidence.locale).toEqual({ recorded: 'fr', shown: 'de_DE', fellBack: true });
    expect(evidence.texts.consentModal.title).toBe(buildBannerConfig(published, 'de_DE').texts.de_DE!.translation.consentModal.title);
    expect(consentEvidenceHtml(evidence)).toContain('<html lang="de-DE">');
  });

  it('names the first-layer buttons the banner showed, and none it hid', async () => {
    const theme = await service.rest('POST', `${domain.base}/theme`, themePayload({ default: true, widgetButtons: ['accept'] }));
    expect(theme.status, theme.text).toBe(201);
    const { published } = await configured();
    const { consentModal } = evidenceOf(published).texts;
    expect(consentModal.acceptAllButton).not.toBeNull();
    expect(consentModal.preferencesButton).toBeNull();
    // The domain enforces the decline button (its default), whatever the theme says.
    expect(consentModal.acceptNecessaryButton).not.toBeNull();
  });

  it('reports recorded services and categories the revision does not know', async () => {
    const { published, ids } = await configured();
    const evidence = evidenceOf(published, { choice: 'custom', categories: ['necessary', 'marketing'], services: [ids.matomo, unknownId()] });
    expect(evidence.unknownServices).toEqual([unknownId()]);
    expect(evidence.unknownCategories).toEqual(['marketing']);
    const html = consentEvidenceHtml(evidence);
    expect(html).toContain('Recorded but not in this configuration');
    expect(html).toContain(unknownId());
  });

  it('refuses a revision other than the one the record names', async () => {
    const { published } = await configured();
    const record = recordOf(published, { revision: 'f'.repeat(64) });
    expect(() => consentEvidence(record, revisionOf(published), published, alone(record))).toThrow(/names revision f{64}/);
  });

  it('says when the configuration does not hash to the revision, and who made a revision no key made', async () => {
    const { published } = await configured();
    const revision = { ...revisionOf(published), hash: 'a'.repeat(64), legal: false, keyName: null };
    const record = recordOf(published, { revision: revision.hash });
    const evidence = consentEvidence(record, revision, published, alone(record));
    expect(evidence.revision.configurationVerified).toBe(false);
    const html = consentEvidenceHtml(evidence);
    expect(html).toContain('does not hash to the revision');
    expect(html).toContain('(no API key recorded); a cosmetic change');
  });

  it('flags a page foreign to the domain, and lists the whole history with the detailed record marked', async () => {
    const { published } = await configured();
    const genuine = recordOf(published, { receivedAt: '2026-11-21T12:00:00.000000Z', choice: 'all' });
    const forged = recordOf(published, {
      receivedAt: '2026-11-22T08:00:00.000000Z',
      choice: 'necessary',
      origin: 'https://attacker.example',
      path: '/<b>forged</b>',
      originMatches: false,
    });
    const history = [
      { id: randomUUID(), ...genuine },
      { id: randomUUID(), ...forged },
    ];
    const evidence = consentEvidence(forged, revisionOf(published), published, history);
    expect(evidence.record.originMatches).toBe(false);
    expect(evidence.history.map((entry) => [entry.choice, entry.originMatches])).toEqual([
      ['all', true],
      ['necessary', false],
    ]);
    const html = consentEvidenceHtml(evidence);
    expect(html).toContain("The page is on neither the domain's site nor one of its consent-sharing domains: https://attacker.example.");
    expect(html).toContain('This consent has 2 records');
    expect(html).toContain('<h2>History of this consent</h2>');
    expect(html).toContain('<tr class="detailed"><td>2026-11-22T08:00:00.000000Z</td>');
    expect(html).toContain('<tr><td>2026-11-21T12:00:00.000000Z</td>');
    expect(html).toContain(escapeHtml('https://attacker.example/<b>forged</b>'));
    expect(html).not.toContain('<b>forged</b>');
  });

  describe('read through the API', () => {
    /** Posts a record as a visitor's browser (or anyone) would; its receipt. */
    const recorded = async (body: Record<string, unknown>) => {
      const answer = await fetch(`${service.baseUrl}/consent`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify(body) });
      expect(answer.status, await answer.clone().text()).toBe(201);
      return answer.json();
    };

    it('keeps the first record in view however many later ones are sent for the consent', async () => {
      const { ids } = await configured();
      const revision = (await service.rest('GET', `${domain.base}/revision?limit=1`)).body.revisions[0].hash;
      const consentId = randomUUID();
      const first = await recorded({ domain: domain.domainId, consentId, revision, locale: 'de_DE', choice: 'custom', categories: ['necessary'], services: [ids.session], url: 'https://www.example.org/' });
      // A flood of later records (made here in one statement rather than sent one by one).
      await service.database.orm.em.fork().execute(
        `insert into "consent_record"
         select (jsonb_populate_record(r, jsonb_build_object('id', gen_random_uuid(), 'choice', 'all', 'received_at', r."received_at" + n * interval '1 millisecond'))).*
         from "consent_record" r, generate_series(1, ?) n where r."consent_id" = ?::uuid`,
        [MAX_HISTORY + 5, consentId],
      );
      const evidence = await service.rest('GET', `${domain.base}/consent/${consentId}/evidence`);
      expect(evidence.status, evidence.text).toBe(200);
      expect(evidence.body.history).toHaveLength(MAX_HISTORY);
      // The receipt gives milliseconds, the log microseconds.
      const sameMoment = expect.stringMatching(new RegExp(`^${first.receivedAt.replace('Z', '').replaceAll('.', '\\.')}\\d{3}Z$`));
      expect(evidence.body.history[0]).toMatchObject({ receivedAt: sameMoment, choice: 'custom' });
      expect(evidence.body.history.slice(1).every((entry: { choice: string }) => entry.choice === 'all')).toBe(true);
      const log = await service.rest('GET', `${domain.base}/consent/${consentId}`);
      expect(log.body.at(-1)).toMatchObject({ receivedAt: sameMoment, choice: 'custom' });
    });

    it('shows every record of the consent, oldest first: a later one, even forged on another site, never hides the first', async () => {
      const { ids } = await configured();
      const revision = (await service.rest('GET', `${domain.base}/revision?limit=1`)).body.revisions[0].hash;
      const consentId = randomUUID();
      const base = { domain: domain.domainId, consentId, revision, locale: 'de_DE' };
      await recorded({ ...base, choice: 'custom', categories: ['necessary', 'analytics'], services: [ids.session, ids.matomo], url: 'https://www.example.org/shop' });
      // Someone who learnt the consent id, sending the public revision and a service id from app.js.
      await recorded({ ...base, choice: 'all', categories: ['necessary', 'analytics', 'social_media'], services: [ids.youtube], url: 'https://attacker.example/forged' });

      const rest = await service.rest('GET', `${domain.base}/consent/${consentId}/evidence`);
      expect(rest.status, rest.text).toBe(200);
      expect(rest.body.record).toMatchObject({ choice: 'all', origin: 'https://attacker.example', path: '/forged', originMatches: false });
      expect(rest.body.revision.configurationVerified).toBe(true);
      expect(rest.body.history.map((entry: { choice: string; origin: string; originMatches: boolean }) => [entry.choice, entry.origin, entry.originMatches])).toEqual([
        ['custom', 'https://www.example.org', true],
        ['all', 'https://attacker.example', false],
      ]);
      // The history is the log's, oldest first.
      const log = await service.rest('GET', `${domain.base}/consent/${consentId}`);
      expect(rest.body.history).toEqual(log.body.toReversed());
      // The first record, asked for, is still its own evidence, with the same history.
      const first = await service.rest('GET', `${domain.base}/consent/${consentId}/evidence?record=${rest.body.history[0].id}`);
      expect(first.body.record).toMatchObject({ choice: 'custom', originMatches: true });
      expect(first.body.history).toEqual(rest.body.history);

      const graphql = await service.graphql(
        'query($clientId: ID!, $domainId: ID!, $consentId: String!) { domain(clientId: $clientId, id: $domainId) { consentEvidence(consentId: $consentId) } }',
        { clientId: domain.clientId, domainId: domain.domainId, consentId },
      );
      expect(graphql.errors).toBeUndefined();
      expect(graphql.data.domain.consentEvidence).toEqual(rest.body);

      const page = await service.raw({ method: 'GET', path: `${domain.base}/consent/${consentId}/evidence.html` });
      expect(page.text).toContain('This consent has 2 records');
      expect(page.text).toContain("neither the domain's site nor one of its consent-sharing domains");
    });
  });

  describe('as a printable page', () => {
    const HOSTILE_NAME = '<img src=x onerror=alert(1)>Tracker';
    const HOSTILE_VENDOR = '<script>alert("vendor")</script> & Co';

    const hostile = async () => {
      const { published, ids } = await configured();
      const tracker = await created(
        embeddingPayload({
          name: HOSTILE_NAME,
          purpose: 'cdcbd7c',
          vendor: HOSTILE_VENDOR,
          assets: [{ name: '<b>cookie</b>', lifetime: '<i>1 day</i>', description: '"quoted" <script>x()</script>' }],
        }),
      );
      const withTracker = (await readPublishedConfiguration(service.database.orm, service.services, domain.domainId))!;
      const evidence = evidenceOf(withTracker, {
        choice: 'custom',
        categories: ['necessary', 'marketing'],
        services: [tracker.id, ids.matomo],
        path: '/"><script>alert(2)</script>',
        address: '<svg onload=alert(3)>',
      });
      return { published, evidence, html: consentEvidenceHtml(evidence) };
    };

    it('escapes every value the banner did not escape itself, and has no script at all', async () => {
      const { evidence, html } = await hostile();
      expect(html).not.toMatch(/<script/i);
      expect(html).not.toMatch(/<img/i);
      expect(html).not.toMatch(/<svg/i);
      expect(html).not.toContain('<b>cookie</b>');
      expect(html).toContain(escapeHtml(HOSTILE_NAME));
      expect(html).toContain(escapeHtml(HOSTILE_VENDOR));
      expect(html).toContain(escapeHtml('<b>cookie</b>'));
      expect(html).toContain(escapeHtml('"quoted" <script>x()</script>'));
      expect(html).toContain(escapeHtml('/"><script>alert(2)</script>'));
      // The banner's name of the service is its own escaped text, not escaped twice.
      const tracker = evidence.categories.find((category) => category.key === 'marketing')!.services[0]!;
      expect(tracker.name).toBe(escapeHtml(HOSTILE_NAME));
      expect(html).not.toContain('&amp;lt;img');
    });

    it('names the record, the revision, the domain and every cookie, with accepted in words', async () => {
      const { evidence, html } = await hostile();
      expect(html.startsWith('<!doctype html>\n<html lang="en-US">')).toBe(true);
      expect(html).toMatch(/<title>Proof of consent 0193a1b2-c3d4-4e5f-8a6b-7c8d9e0f1a2b – www\.example\.org<\/title>/);
      expect(html).toContain('<h1>Proof of consent</h1>');
      expect(html).toContain(evidence.record.consentId);
      expect(html).toContain(evidence.revision.hash);
      expect(html).toContain('revision 7');
      expect(html).toContain('shop deploy key');
      expect(html).toContain('2026-11-21T12:00:00.000Z');
      expect(html).toContain('https://www.example.org');
      expect(html).toContain('@media print');
      expect(html).toContain(evidence.texts.consentModal.title);
      for (const category of evidence.categories) {
        for (const service of category.services) {
          for (const item of service.storage) expect(html).toContain(escapeHtml(item.name));
        }
      }
      expect(html).toContain('✓</span> Accepted');
      expect(html).toContain('✗</span> Not accepted');
      // Nothing that would fetch: no tag with a source, no stylesheet link, no CSS url().
      expect(html).not.toMatch(/<[^>]*\ssrc=|<link|url\(/i);
    });

    describe('in a browser', () => {
      let browser: Browser;
      beforeAll(async () => {
        const binary = await findChromium(process.env.CHROME_PATH);
        browser = await puppeteer.launch({ executablePath: binary.path, headless: 'shell', args: CHROMIUM_FLAGS });
      }, 120_000);
      afterAll(() => browser?.close());

      it('renders as a page that loads nothing, runs nothing and prints on A4', async () => {
        const { evidence, html } = await hostile();
        const page = await browser.newPage();
        const requests: string[] = [];
        const dialogs: string[] = [];
        await page.setRequestInterception(true);
        page.on('request', (request) => {
          requests.push(request.url());
          void request.abort();
        });
        page.on('dialog', (dialog) => {
          dialogs.push(dialog.message());
          void dialog.dismiss();
        });
        await page.setContent(html, { waitUntil: 'load' });
        const shown = await page.evaluate(() => ({
          title: document.title,
          lang: document.documentElement.lang,
          scripts: document.scripts.length,
          images: document.images.length,
          services: document.querySelectorAll('tr.service').length,
          text: document.body.innerText,
        }));
        expect(shown).toMatchObject({ title: `Proof of consent ${evidence.record.consentId} – www.example.org`, lang: 'en-US', scripts: 0, images: 0, services: 5 });
        expect(shown.text).toContain(HOSTILE_NAME);
        expect(shown.text).toContain(HOSTILE_VENDOR);
        expect(requests).toEqual([]);
        expect(dialogs).toEqual([]);
        const pdf = await page.pdf({ format: 'A4', printBackground: false });
        expect(Buffer.from(pdf.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
        await page.close();
      }, 60_000);
    });
  });
});
