import { describe, expect, it } from 'vitest';
import { ADMIN_SETTINGS_KEY_NAME } from '../../../src/features/api-keys/key-ring.ts';
import { buildBannerConfig } from '../../../src/features/banner/banner-config.build.ts';
import { readPublishedConfiguration } from '../../../src/features/banner/published-configuration.ts';
import { contentHashOf, legalHashOf, manifestOf, partHash, partOf } from '../../../src/features/banner/configuration-manifest.ts';
import { forgetBuckets } from '../../../src/features/revisions/bucket-cache.ts';
import { createRevisionRecorder } from '../../../src/features/revisions/revision-recorder.ts';
import { BUCKET_DELTAS, bucketsOf, revisionStorageOf, storeRevision } from '../../../src/features/revisions/revision-store.ts';
import { pruneRevisions } from '../../../src/features/revisions/revision-retention.ts';
import { API, createApiKey, embeddingPayload, themePayload, unknownId } from '../../support/fixtures.ts';
import { useServiceWithDomain } from '../../support/service-with-domain.ts';

/**
 * The history of a domain's published configuration: every write that changes what the banner
 * publishes is kept as a revision (and one that changes nothing visible is not); revisions are
 * listed, read, compared and restored over REST and GraphQL.
 */
describe('configuration revisions', () => {
  const { service, domain, client } = useServiceWithDomain();

  type RevisionAnswer = { number: number; hash: string; legal: boolean; key: { id: string | null; name: string } | null; restoredFrom: number | null };

  const ok = async (method: string, path: string, body?: unknown) => {
    const answer = await service.rest(method, `${domain.base}${path}`, body);
    expect(answer.status, `${method} ${path}: ${answer.text}`).toBeLessThan(300);
    return answer.body;
  };
  const revisions = async (): Promise<RevisionAnswer[]> => {
    const answer = await service.rest('GET', `${domain.base}/revision?limit=100`);
    expect(answer.status, answer.text).toBe(200);
    return answer.body.revisions;
  };
  const newest = async () => (await revisions())[0]!;
  /** How many revisions, and the newest's number, as stored: what the API reads records the domain's due rows first. */
  const storedRevisions = async () =>
    (await service.database.orm.em.fork().execute<{ n: number }[]>(`select count(*)::int as "n" from "configuration_revision" where "domain_id" = ?`, [domain.domainId]))[0]!.n;
  const newestStored = async () =>
    (await service.database.orm.em.fork().execute<{ n: number }[]>(`select max("number")::int as "n" from "configuration_revision" where "domain_id" = ?`, [domain.domainId]))[0]!.n;
  const count = async () => (await revisions()).length;
  /** The content revision the banner serves now. */
  const bannerRevision = async () =>
    buildBannerConfig((await readPublishedConfiguration(service.database.orm, service.services, domain.domainId))!, null).contentRevision;

  it('starts with the domain: revision 1, legally relevant, made by the key that created it, equal to what the banner serves', async () => {
    const [first, ...rest] = await revisions();
    expect(rest).toEqual([]);
    expect(first).toMatchObject({ number: 1, legal: true, restoredFrom: null, key: { id: null, name: ADMIN_SETTINGS_KEY_NAME } });
    expect(first!.hash).toBe(await bannerRevision());
  });

  it('makes one revision per write of every kind that changes what is published, and none for a write that changes nothing visible', async () => {
    const steps: [string, () => Promise<unknown>, 'legal' | 'cosmetic' | 'either' | 'none'][] = [];
    let embeddingId = '';
    let assetId = '';
    let themeId = '';
    steps.push(
      ['domain setting', () => ok('PUT', '', { consentCookieLifetime: 180 }), 'cosmetic'],
      ['the same domain setting again', () => ok('PUT', '', { consentCookieLifetime: 180 }), 'none'],
      ['create embedding', async () => (embeddingId = (await ok('POST', '/embedding', embeddingPayload())).id), 'legal'],
      ['create an inactive embedding', () => ok('POST', '/embedding', embeddingPayload({ name: 'Hidden', active: false })), 'none'],
      ['embedding purpose', () => ok('PUT', `/embedding/${embeddingId}`, { purpose: 'cdcbd7c' }), 'legal'],
      ['embedding description', () => ok('PUT', `/embedding/${embeddingId}`, { description: 'Videos' }), 'legal'],
      ['embedding script markers', () => ok('PUT', `/embedding/${embeddingId}`, { scriptMarkers: ['youtube.com/iframe_api'] }), 'cosmetic'],
      ['embedding script code', () => ok('PUT', `/embedding/${embeddingId}`, { scriptHtmlCode: '<script src="https://www.youtube.com/iframe_api"></script>' }), 'legal'],
      ['the script code changed', () => ok('PUT', `/embedding/${embeddingId}`, { scriptHtmlCode: '<script src="https://evil.example/x.js"></script>' }), 'legal'],
      ['the script code removed', () => ok('PUT', `/embedding/${embeddingId}`, { scriptHtmlCode: '' }), 'legal'],
      ['switch the embedding off', () => ok('PUT', `/embedding/${embeddingId}`, { active: false }), 'legal'],
      ['and on again', () => ok('PUT', `/embedding/${embeddingId}`, { active: true }), 'legal'],
      ['switch the hidden one on', async () => {
        const hidden = ((await ok('GET', '/embedding')) as { id: string; name: string }[]).find((embedding) => embedding.name === 'Hidden')!;
        await ok('PUT', `/embedding/${hidden.id}`, { active: true });
      }, 'legal'],
      ['create asset', async () => (assetId = (await ok('POST', `/embedding/${embeddingId}/asset`, { name: '_yt' })).id), 'legal'],
      ['update asset', () => ok('PUT', `/embedding/${embeddingId}/asset/${assetId}`, { lifetime: '2 years' }), 'legal'],
      ['delete asset', () => ok('DELETE', `/embedding/${embeddingId}/asset/${assetId}`), 'legal'],
      ['create placeholder', () => ok('POST', '/placeholder', { name: 'Firma_Name', value: 'ACME' }), 'cosmetic'],
      ['update placeholder', () => ok('PUT', '/placeholder/Firma_Name', { value: 'ACME GmbH' }), 'cosmetic'],
      ['replace placeholders', () => ok('PUT', '/placeholder', [{ name: 'Firma_Name', value: 'ACME AG' }, { name: 'Ort', value: 'Köln' }]), 'cosmetic'],
      ['delete placeholder', () => ok('DELETE', '/placeholder/Ort'), 'cosmetic'],
      ['create theme', async () => (themeId = (await ok('POST', '/theme', themePayload())).id), 'cosmetic'],
      ['theme colour', () => ok('PUT', `/theme/${themeId}`, { primaryButtonBackgroundColor: '#222222' } as never), 'cosmetic'],
      ['locale text', () => ok('PUT', '/locale/en_US', { widgetTitle: 'Cookies?' } as never), 'cosmetic'],
      ['delete theme', () => ok('DELETE', `/theme/${themeId}`), 'cosmetic'],
      ['delete embedding', () => ok('DELETE', `/embedding/${embeddingId}`), 'legal'],
      ['import a preset', () => ok('POST', '/onboarding/presets', [{ id: 200, active: true }]), 'legal'],
      ['embeddings from cookie names', () => ok('POST', '/onboarding/embeddingsFromCookies', [{ name: '_ga', storageType: 'cookie' }]), 'legal'],
      ['add a locale', () => ok('POST', '/locale', { name: 'fr_FR' }), 'either'],
      ['deactivate it through the domain', () => ok('PUT', '', { locales: ['de_DE', 'en_US'] }), 'either'],
    );
    for (const [what, write, expected] of steps) {
      const before = await count();
      await write();
      const after = await revisions();
      expect(after.length - before, what).toBe(expected === 'none' ? 0 : 1);
      if (expected === 'legal' || expected === 'cosmetic') expect(after[0]!.legal, what).toBe(expected === 'legal');
      expect(after[0]!.hash, what).toBe(await bannerRevision());
    }
    const numbers = (await revisions()).map((revision) => revision.number);
    expect(numbers).toEqual([...numbers].sort((a, b) => b - a));
    expect(new Set(numbers).size).toBe(numbers.length);
  });

  it('keeps a large domain’s embeddings in buckets, each write rewriting one bucket, and equals the banner at every size', async () => {
    // The onboarding import makes many embeddings in one write; then single writes go past and below the inline limit.
    const many = Array.from({ length: 70 }, (_, i) => ({ name: `cookie_${i}`, storageType: 'cookie' }));
    await ok('POST', '/onboarding/embeddingsFromCookies', many);
    for (let i = 0; i < 70; i++) await ok('POST', '/embedding', embeddingPayload({ name: `Service ${i}`, assets: [] }));
    expect((await newest()).hash).toBe(await bannerRevision());
    // Every part is stored as the very text its hash was taken of (the parts go to the database inside one JSON value),
    // or, a bucket a write changed, as that change to the bucket before, which made whole hashes to its key.
    const stored = async () =>
      service.database.orm.em
        .fork()
        .getConnection()
        .execute<{ hash: string; base: string | null; text: string }[]>(
          `select "hash", "base", "body"::text as "text" from "configuration_part" where "domain_id" = ?`,
          [domain.domainId],
        );
    const parts = await stored();
    expect(parts.length).toBeGreaterThan(70);
    expect(parts.filter((part) => part.base === null && partHash(part.text) !== part.hash)).toEqual([]);
    const changes = parts.filter((part) => part.base !== null);
    expect(changes.length).toBeGreaterThan(0);
    // A change of one embedding is that embedding's entry, not the bucket's some 30 others.
    expect(Math.max(...changes.map((part) => part.text.length))).toBeLessThan(400);
    const whole = await bucketsOf(service.database.orm.em.fork(), domain.domainId, changes.map((part) => part.hash));
    expect(changes.filter((part) => partOf(whole.get(part.hash)!.entries).hash !== part.hash)).toEqual([]);
    const embeddings = (await ok('GET', '/embedding')) as { id: string; name: string }[];
    const services = embeddings.filter((embedding) => embedding.name.startsWith('Service '));
    // The round reads no bucket: the one before kept the buckets it made (bucket-cache.ts). Forgotten, they are read
    // (one statement more), and the revision is the same either way.
    const counter = service.database.statements;
    // The write and its round (which stores after the write is answered).
    const statementsOf = async (write: () => Promise<unknown>) => {
      await service.services.revisions.drain();
      const before = counter.total;
      await write();
      await service.services.revisions.drain();
      return counter.total - before;
    };
    expect(await statementsOf(() => ok('PUT', `/embedding/${services[50]!.id}`, { purpose: 'cdcbd7c' }))).toBe(3);
    expect((await newest()).hash).toBe(await bannerRevision());
    forgetBuckets();
    expect(await statementsOf(() => ok('PUT', `/embedding/${services[51]!.id}`, { purpose: 'cdcbd7c' }))).toBe(4);
    expect((await newest()).hash).toBe(await bannerRevision());
    // Many changes of one bucket: a whole copy after BUCKET_DELTAS changes, so no chain grows longer; read back
    // from the database (nothing kept in the process), the chains make the same revision.
    for (let i = 0; i < BUCKET_DELTAS + 5; i++) await ok('PUT', `/embedding/${services[52]!.id}`, { name: `Service 52, version ${i}` });
    expect((await newest()).hash).toBe(await bannerRevision());
    const [chains] = await service.database.orm.em.fork().execute<{ longest: number }[]>(
      `with recursive "chain" ("hash", "base", "steps") as (
         select "hash", "base", 0 from "configuration_part" where "domain_id" = ? and "base" is null
         union all
         select p."hash", p."base", c."steps" + 1 from "chain" c join "configuration_part" p on p."domain_id" = ? and p."base" = c."hash"
       ) select max("steps")::int as "longest" from "chain"`,
      [domain.domainId, domain.domainId],
    );
    expect(chains!.longest).toBe(BUCKET_DELTAS);
    forgetBuckets();
    await ok('PUT', `/embedding/${services[52]!.id}`, { name: 'Service 52' });
    expect((await newest()).hash).toBe(await bannerRevision());
    const steps: [string, () => Promise<unknown>][] = [
      ['update one', () => ok('PUT', `/embedding/${services[10]!.id}`, { purpose: 'cdcbd7c' })],
      ['add a cookie to one', () => ok('POST', `/embedding/${services[20]!.id}/asset`, { name: '_x' })],
      ['switch one off', () => ok('PUT', `/embedding/${services[30]!.id}`, { active: false })],
      ['delete one', () => ok('DELETE', `/embedding/${services[40]!.id}`)],
    ];
    for (const [what, write] of steps) {
      await write();
      expect((await newest()).hash, what).toBe(await bannerRevision());
    }
    const large = (await newest()).number;
    // Down to few embeddings: the list goes back into the manifest.
    for (const service of services.slice(0, 64)) if (service !== services[40]) await ok('DELETE', `/embedding/${service.id}`);
    expect((await newest()).hash).toBe(await bannerRevision());
    // A large revision reads back whole, compares, and restores to the same hash.
    const detail = await ok('GET', `/revision/${large}`);
    expect(detail.configuration.embeddings.length).toBeGreaterThan(64);
    expect((await ok('GET', `/revision/${large}/diff`)).changes.map((change: { summary: string }) => change.summary)).toEqual([
      expect.stringMatching(/^embedding Service 40 removed$/),
    ]);
    const restored = await ok('POST', `/revision/${large}/restore`);
    expect(restored.hash).toBe(detail.hash);
    expect(await bannerRevision()).toBe(detail.hash);
    // Retention keeps the parts inside the current revision's buckets.
    await service.database.orm.em
      .fork()
      .getConnection()
      .execute(`update "configuration_revision" set "created_at" = now() - interval '500 days' where "domain_id" = ?`, [domain.domainId]);
    await pruneRevisions(service.database.orm, { retentionDays: 395 });
    expect((await revisions()).map((revision) => revision.number)).toEqual([restored.number]);
    expect((await ok('GET', `/revision/${restored.number}`)).configuration).toEqual(detail.configuration);
  });

  it('names the API key whose write made a revision (its id and name, never the key)', async () => {
    const key = await createApiKey(service, client.id, 'agency deploy bot');
    const answer = await service.as(key.key).rest('POST', `${domain.base}/placeholder`, { name: 'Firma_Name', value: 'ACME' });
    expect(answer.status, answer.text).toBe(201);
    const revision = await newest();
    expect(revision.key).toEqual({ id: key.id, name: 'agency deploy bot' });
    expect(JSON.stringify(revision)).not.toContain(key.key);
  });

  it('reads a revision with its configuration, and 404s for revisions that do not exist', async () => {
    await ok('POST', '/embedding', embeddingPayload());
    const detail = await ok('GET', '/revision/2');
    expect(detail.number).toBe(2);
    expect(detail.configuration.embeddings.map((embedding: { name: string }) => embedding.name)).toEqual(['YouTube']);
    expect(detail.configuration.domain.id).toBe(domain.domainId);
    for (const missing of ['3', '0', 'abc', '99999999999']) {
      expect((await service.rest('GET', `${domain.base}/revision/${missing}`)).status, missing).toBe(404);
    }
  });

  it('pages newest first with a cursor', async () => {
    for (let i = 0; i < 6; i++) await ok('POST', '/placeholder', { name: `P${i}`, value: String(i) });
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const page = await ok('GET', `/revision?limit=3${cursor ? `&before=${cursor}` : ''}`);
      seen.push(...page.revisions.map((revision: RevisionAnswer) => revision.number));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual([7, 6, 5, 4, 3, 2, 1]);
    for (const query of ['limit=0', 'limit=101', 'limit=x', 'before=0', 'colour=blue']) {
      const answer = await service.rest('GET', `${domain.base}/revision?${query}`);
      expect(answer.status, query).toBe(400);
    }
  });

  it('compares two revisions: a JSON Patch and a summary per change', async () => {
    const embedding = await ok('POST', '/embedding', embeddingPayload({ purpose: '6cd2721' })); // 2
    const theme = await ok('POST', '/theme', themePayload({ name: 'Default', primaryButtonBackgroundColor: '#0a0a0a' })); // 3
    await ok('PUT', `/embedding/${embedding.id}`, { purpose: 'cdcbd7c' }); // 4
    await ok('PUT', `/theme/${theme.id}`, { primaryButtonBackgroundColor: '#222222' }); // 5
    const diff = await ok('GET', '/revision/5/diff?against=3');
    expect(diff).toMatchObject({ from: 3, to: 5 });
    const summaries: string[] = diff.changes.map((change: { summary: string }) => change.summary);
    expect(summaries.some((summary) => /YouTube/.test(summary) && /social_media → marketing/.test(summary)), summaries.join('\n')).toBe(true);
    expect(summaries.some((summary) => /Default/.test(summary) && /#0a0a0a → #222222/.test(summary)), summaries.join('\n')).toBe(true);
    expect(diff.patch).toContainEqual({ op: 'replace', path: '/embeddings/0/purpose', value: 'cdcbd7c' });
    // Against the one before by default; the same pair either way round.
    expect((await ok('GET', '/revision/5/diff')).from).toBe(4);
    expect(await ok('GET', '/revision/3/diff?against=5')).toEqual(diff);
    expect((await service.rest('GET', `${domain.base}/revision/1/diff`)).status).toBe(400);
    expect((await service.rest('GET', `${domain.base}/revision/5/diff?against=9`)).status).toBe(404);
  });

  it('restores a revision as a new one equal to it, bringing back deleted embeddings and cookies with their ids', async () => {
    const youtube = await ok('POST', '/embedding', embeddingPayload()); // 2
    await ok('POST', '/placeholder', { name: 'Firma_Name', value: 'ACME' }); // 3
    const theme = await ok('POST', '/theme', themePayload({ name: 'Default', default: true })); // 4
    await ok('PUT', '/locale/de_DE', { widgetTitle: 'Dürfen wir?' } as never); // 5
    const wanted = await newest();
    expect(wanted.number).toBe(5);
    // Then everything changes.
    await ok('DELETE', `/embedding/${youtube.id}`);
    const matomo = await ok('POST', '/embedding', embeddingPayload({ name: 'Matomo', purpose: 'a717ff5' }));
    await ok('PUT', '/placeholder', [{ name: 'Ort', value: 'Köln' }]);
    await ok('PUT', `/theme/${theme.id}`, { primaryButtonBackgroundColor: '#ff0000' } as never);
    await ok('POST', '/theme', themePayload({ name: 'Other' }));
    await ok('PUT', '/locale/de_DE', { widgetTitle: 'Cookies' } as never);
    await ok('PUT', '', { consentCookieLifetime: 30, locales: ['de_DE'] });
    const before = await count();

    const restored = await ok('POST', '/revision/5/restore');
    expect(restored).toMatchObject({ number: before + 1, hash: wanted.hash, restoredFrom: 5 });
    expect(await bannerRevision()).toBe(wanted.hash);
    const embeddings = await ok('GET', '/embedding');
    const byName = new Map(embeddings.map((embedding: { name: string }) => [embedding.name, embedding]));
    expect(byName.get('YouTube')).toMatchObject({ id: youtube.id, active: true, assets: youtube.assets });
    // What the revision did not publish is kept, switched off, not deleted.
    expect(byName.get('Matomo')).toMatchObject({ id: matomo.id, active: false });
    // History is never rewritten: the revisions in between are still there.
    expect(await count()).toBe(before + 1);
    // Restoring what is already current changes nothing.
    const again = await ok('POST', '/revision/5/restore');
    expect(again.number).toBe(before + 1);
    expect(await count()).toBe(before + 1);
    expect((await service.rest('POST', `${domain.base}/revision/99/restore`)).status).toBe(404);
  });

  it("holds a client key's restore to the client's code switches: a revision's other script code or CSS is a change of code", async () => {
    const youtube = await ok('POST', '/embedding', embeddingPayload({ scriptHtmlCode: '<script>first()</script>' }));
    const theme = await ok('POST', '/theme', themePayload({ name: 'Default', default: true, customCss: '.a{}' }));
    const withFirstCode = (await newest()).number;
    await ok('PUT', `/embedding/${youtube.id}`, { scriptHtmlCode: '<script>second()</script>' });
    await ok('PUT', `/theme/${theme.id}`, { customCss: '.b{}' } as never);
    const current = (await newest()).number;
    await ok('PUT', '/placeholder', [{ name: 'Ort', value: 'Köln' }]);
    const withCurrentCode = (await newest()).number;
    expect(withCurrentCode).toBeGreaterThan(current);

    const features = (on: boolean) => ({ features: { canUseScripts: on, canUseIndCSS: on } });
    expect((await service.rest('PUT', `${API}/${domain.clientId}`, features(false))).status).toBe(200);
    const asClient = service.as((await createApiKey(service, domain.clientId, 'no code')).key);

    const refused = await asClient.rest('POST', `${domain.base}/revision/${withFirstCode}/restore`);
    expect(refused.status, refused.text).toBe(403);
    expect(refused.body.detail).toMatch(/scriptHtmlCode.*canUseScripts|customCss.*canUseIndCSS/);
    expect((await newest()).number).toBe(withCurrentCode);
    // A revision with the code as it is now restores: only the placeholders change.
    const allowed = await asClient.rest('POST', `${domain.base}/revision/${current}/restore`);
    expect(allowed.status, allowed.text).toBe(201);
    // The administrator is not held to the switches.
    expect((await service.rest('POST', `${domain.base}/revision/${withFirstCode}/restore`)).status).toBe(201);
    expect((await ok('GET', `/embedding/${youtube.id}`)).scriptHtmlCode).toBe('<script>first()</script>');
  });

  /** The content revision in the banner script the service serves now (null: an idle banner, which names none). */
  const servedRevision = async () => {
    const script = await service.services.banner.script(domain.domainId, null);
    return /contentRevision\\?"\s*:\s*\\?"([0-9a-zA-Z_-]+)\\?"/.exec(script!.body.toString())?.[1] ?? null;
  };

  // Revisions are recorded just after the writes commit, one round at a time per domain: writes that
  // commit while a round runs are recorded together by the next one, so an intermediate state of a
  // burst may never become a revision. What must hold instead: the banner publishes only revisions
  // (consent records name what it published, and find its revision), numbered without gaps, and the
  // final state is the newest revision.
  it('loses nothing when writers and a restore run at once: every configuration the banner published is a revision, and the final state the newest', async () => {
    await ok('POST', '/placeholder', { name: 'Base', value: 'x' }); // 2
    const writes = Array.from({ length: 12 }, (_, i) =>
      i % 3 === 0
        ? service.rest('POST', `${domain.base}/embedding`, embeddingPayload({ name: `Service ${i}` }))
        : service.rest('POST', `${domain.base}/placeholder`, { name: `Name_${i}`, value: String(i) }),
    );
    const restore = service.rest('POST', `${domain.base}/revision/2/restore`);
    const served = new Set<string>();
    let writing = true;
    const watch = (async () => {
      while (writing) {
        const hash = await servedRevision();
        if (hash) served.add(hash);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    const answers = await Promise.all([...writes, restore]);
    writing = false;
    await watch;
    for (const answer of answers) expect(answer.status, answer.text).toBe(201);
    const all = await revisions();
    expect(all.length).toBeGreaterThanOrEqual(3);
    expect(all.length).toBeLessThanOrEqual(2 + 12 + 1);
    expect(all.map((revision) => revision.number)).toEqual(Array.from({ length: all.length }, (_, i) => all.length - i));
    expect(all[0]!.hash).toBe(await bannerRevision());
    const final = await servedRevision();
    expect(final).toBe(all[0]!.hash);
    served.add(final!);
    const kept = new Set(all.map((revision) => revision.hash));
    for (const hash of served) expect(kept.has(hash), `the banner published ${hash}`).toBe(true);
    // No two neighbours are the same configuration.
    for (let i = 1; i < all.length; i++) expect(all[i]!.hash).not.toBe(all[i - 1]!.hash);
  });

  it('answers 16 concurrent creates of one domain with 201, in at most 16 revisions, the newest the final configuration', async () => {
    const before = await count();
    const answers = await Promise.all(
      Array.from({ length: 16 }, (_, i) => service.rest('POST', `${domain.base}/embedding`, embeddingPayload({ name: `Burst ${i}` }))),
    );
    for (const answer of answers) expect(answer.status, answer.text).toBe(201);
    const all = await revisions();
    expect(all.length - before).toBeGreaterThanOrEqual(1);
    expect(all.length - before).toBeLessThanOrEqual(16);
    expect(all[0]!.hash).toBe(await bannerRevision());
    expect(await servedRevision()).toBe(all[0]!.hash);
    expect(((await ok('GET', `/revision/${all[0]!.number}`)).configuration.embeddings as unknown[]).length).toBe(16);
  });

  it('records a revision left due (a process stopped between a commit and its round) at the next start', async () => {
    const em = service.database.orm.em.fork();
    // A write whose round never ran: the configuration changed, its due row stayed.
    await em.execute(`update "domain" set "consent_cookie_lifetime" = 77 where "id" = ?`, [domain.domainId]);
    await em.execute(`insert into "revision_due" ("domain_id", "key_id", "key_name", "tables") values (?, null, 'left behind', '{domain}')`, [
      domain.domainId,
    ]);
    // Counted in the database: reading the revisions through the API would record the due row first.
    const before = await storedRevisions();
    await service.services.revisions.settleLeftovers();
    const after = await revisions();
    expect(after.length).toBe(before + 1);
    expect(after[0]!.key).toEqual({ id: null, name: 'left behind' });
    expect(after[0]!.hash).toBe(await bannerRevision());
    expect((await em.execute(`select count(*)::int as "n" from "revision_due" where "domain_id" = ?`, [domain.domainId]))[0]!.n).toBe(0);
    // Nothing left: a further round records nothing.
    await service.services.revisions.settle([domain.domainId]);
    expect(await count()).toBe(before + 1);
  });

  it('answers a write once its round has read what it records, not once it is stored; the revisions and the banner show the write at once', async () => {
    const em = service.database.orm.em.fork();
    const embedding = await ok('POST', '/embedding', embeddingPayload({ name: 'Slow store' }));
    const before = await count();
    const STORE_MS = 600;
    // Every revision store of this domain takes STORE_MS longer until the trigger goes.
    await em.execute(`create function "slow_revision"() returns trigger language plpgsql as $$
      begin perform pg_sleep(${STORE_MS / 1000}); return new; end $$`);
    await em.execute(`create trigger "slow_revision" before insert on "configuration_revision"
      for each row when (new."domain_id" = '${domain.domainId}') execute function "slow_revision"()`);
    try {
      const started = performance.now();
      await ok('PUT', `/embedding/${embedding.id}`, { vendor: 'Answered Early Ltd' });
      expect(performance.now() - started).toBeLessThan(STORE_MS);
      // Asked right after the answer, both wait for the round of this process and see the write.
      const [banner, listed] = await Promise.all([
        fetch(`${service.baseUrl}/app.js?domain=${domain.domainId}`).then((answer) => answer.text()),
        revisions(),
      ]);
      expect(banner).toContain('Answered Early Ltd');
      expect(listed).toHaveLength(before + 1);
      expect(listed[0]!.hash).toBe(await bannerRevision());
      // A write that follows an answer is never in the answered write's revision.
      await ok('PUT', `/embedding/${embedding.id}`, { vendor: 'Second Ltd' });
      await ok('PUT', `/embedding/${embedding.id}`, { vendor: 'Third Ltd' });
      expect(await count()).toBe(before + 3);
    } finally {
      await em.execute(`drop trigger "slow_revision" on "configuration_revision"`);
      await em.execute(`drop function "slow_revision"()`);
    }
    const vendors = await Promise.all([1, 2, 3].map(async (back) => {
      const { number } = (await revisions())[back - 1]!;
      const detail = await ok('GET', `/revision/${number}`);
      return detail.configuration.embeddings.find((found: { id: string }) => found.id === embedding.id).vendor;
    }));
    expect(vendors).toEqual(['Third Ltd', 'Second Ltd', 'Answered Early Ltd']);
  });

  it('tries a failed round again by itself: the banner catches up without a further write', async () => {
    const em = service.database.orm.em.fork();
    const before = await revisions();
    /** The revision the banner publishes (the newest recorded one). */
    const published = async () => buildBannerConfig((await service.services.revisions.published(domain.domainId))!, null).contentRevision;
    // Every revision store of this domain fails until the trigger goes.
    await em.execute(`create function "refuse_revision"() returns trigger language plpgsql as $$
      begin raise exception 'revision store refused'; end $$`);
    await em.execute(`create trigger "refuse_revision" before insert on "configuration_revision"
      for each row when (new."domain_id" = '${domain.domainId}') execute function "refuse_revision"()`);
    try {
      await ok('PUT', '', { consentCookieLifetime: 91 });
      expect(await count()).toBe(before.length);
      expect(await published()).toBe(before[0]!.hash);
    } finally {
      await em.execute(`drop trigger "refuse_revision" on "configuration_revision"`);
      await em.execute(`drop function "refuse_revision"()`);
    }
    // The first retry comes a second after the failure; nobody writes meanwhile.
    await expect.poll(count, { timeout: 5000, interval: 100 }).toBe(before.length + 1);
    const [made] = await revisions();
    expect(made!.hash).not.toBe(before[0]!.hash);
    expect(made!.hash).toBe(await bannerRevision());
    await expect.poll(published, { timeout: 5000, interval: 100 }).toBe(made!.hash);
    expect((await em.execute(`select count(*)::int as "n" from "revision_due" where "domain_id" = ?`, [domain.domainId]))[0]!.n).toBe(0);
  });

  // A round reads, then stores, with no lock held between: the store keeps nothing if another round came between.
  it('stores a round only if no other round came between its read and its store: a due row it read gone, or a newer revision', async () => {
    const em = service.database.orm.em.fork();
    const dueRows = async () => (await em.execute<{ n: number }[]>(`select count(*)::int as "n" from "revision_due" where "domain_id" = ?`, [domain.domainId]))[0]!.n;
    // A write whose round has not run yet: the configuration changed, its due row is there.
    await em.execute(`update "domain" set "consent_cookie_lifetime" = 78 where "id" = ?`, [domain.domainId]);
    const [inserted] = await em.execute<{ id: number }[]>(
      `insert into "revision_due" ("domain_id", "key_name", "tables") values (?, 'racer', '{domain}') returning "id"::int`,
      [domain.domainId],
    );
    const dueId = inserted!.id;
    const published = (await readPublishedConfiguration(service.database.orm, service.services, domain.domainId))!;
    const { manifest, parts } = manifestOf(published);
    const revision = { manifest, parts, hash: contentHashOf(manifest), legalHash: legalHashOf(manifest, published.locales) };
    const base = await newestStored(); // not through the API, which would record the due row first
    const made = { key: { id: null, name: 'racer' } };
    const refused = async (claim: { due: number[]; base: number | null }) => {
      const error = await storeRevision(em, domain.domainId, revision, made, claim).then(() => null, (caught: unknown) => caught);
      expect(error, JSON.stringify(claim)).toMatchObject({ code: '40001' });
    };
    await refused({ due: [dueId, dueId + 1_000_000], base }); // a due row it read is gone: another round took it
    await refused({ due: [dueId], base: base - 1 }); // the revision it built on is no longer the newest
    // Nothing was kept: the due row is still there, and no revision was stored.
    expect(await dueRows()).toBe(1);
    expect(await newestStored()).toBe(base);
    const stored = await storeRevision(em, domain.domainId, revision, made, { due: [dueId], base });
    expect(stored).toMatchObject({ number: base + 1, hash: await bannerRevision(), key: { id: null, name: 'racer' } });
    expect(await dueRows()).toBe(0);
  });

  it('records every change once when the rounds of several processes race: numbered without gaps, the newest the final state, none left due', async () => {
    const failures: unknown[] = [];
    // Two more recorders on the same database stand for two more processes, settling the domain over and over.
    const others = Array.from({ length: 2 }, () =>
      createRevisionRecorder({ orm: service.database.orm, services: () => service.services, onError: (error) => failures.push(error) }),
    );
    const before = await count();
    let writing = true;
    const racing = others.map(async (recorder) => {
      while (writing) await recorder.settle([domain.domainId]);
    });
    try {
      for (let burst = 0; burst < 4; burst++) {
        const answers = await Promise.all(
          Array.from({ length: 6 }, (_, i) =>
            i % 2 === 0
              ? service.rest('POST', `${domain.base}/embedding`, embeddingPayload({ name: `Race ${burst}.${i}` }))
              : service.rest('POST', `${domain.base}/placeholder`, { name: `Race_${burst}_${i}`, value: String(i) }),
          ),
        );
        for (const answer of answers) expect(answer.status, answer.text).toBe(201);
      }
    } finally {
      writing = false;
      await Promise.all(racing);
      for (const recorder of others) recorder.close();
    }
    // A round that lost the race five times in a row is reported (and tried again later); nothing else fails.
    for (const failure of failures) expect(failure).toMatchObject({ code: expect.stringMatching(/^(40001|23505|40P01)$/) });
    const all = await revisions();
    expect(all.length - before).toBeGreaterThanOrEqual(1);
    expect(all.map((revision) => revision.number)).toEqual(Array.from({ length: all.length }, (_, i) => all.length - i));
    for (let i = 1; i < all.length; i++) expect(all[i]!.hash).not.toBe(all[i - 1]!.hash);
    await expect.poll(async () => (await revisions())[0]!.hash, { timeout: 5000, interval: 100 }).toBe(await bannerRevision());
    const em = service.database.orm.em.fork();
    await expect
      .poll(async () => (await em.execute<{ n: number }[]>(`select count(*)::int as "n" from "revision_due" where "domain_id" = ?`, [domain.domainId]))[0]!.n, {
        timeout: 5000,
        interval: 100,
      })
      .toBe(0);
  });

  it("finds the revision of the banner's hash for a consent record", async () => {
    await ok('POST', '/embedding', embeddingPayload());
    const hash = await servedRevision();
    expect(hash).toBe((await newest()).hash);
    const consentId = crypto.randomUUID();
    const recorded = await fetch(`${service.baseUrl}/consent`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify({ domain: domain.domainId, consentId, choice: 'necessary', categories: ['necessary'], services: [], revision: hash, locale: 'de_DE', url: 'https://www.example.org/' }),
    });
    expect(recorded.status).toBe(201);
    expect((await ok('GET', `/consent/${consentId}/evidence`)).revision).toMatchObject({ number: (await newest()).number, configurationVerified: true });
  });

  it('stores a long history compactly: unchanged parts are shared between revisions', async () => {
    for (let i = 0; i < 20; i++) {
      await ok('POST', '/embedding', embeddingPayload({ name: `Service ${i}`, description: 'x'.repeat(500) }));
    }
    // As stored once the last write's round has stored (which comes after the write's answer).
    const storage = async () => {
      await service.services.revisions.drain();
      return revisionStorageOf(service.database.orm.em.fork(), domain.domainId);
    };
    const grown = await storage();
    for (let i = 0; i < 40; i++) await ok('PUT', '/placeholder', [{ name: 'Counter', value: String(i) }]);
    const after = await storage();
    const snapshotBytes = JSON.stringify((await ok('GET', `/revision/${after.revisions}`)).configuration).length;
    const perRevision = (after.bytes - grown.bytes) / (after.revisions - grown.revisions);
    expect(after.revisions - grown.revisions).toBe(40);
    // A revision that changed one placeholder costs its manifest and that part, not a copy of the configuration.
    expect(perRevision).toBeLessThan(snapshotBytes / 10);
  });

  it('forgets, past the retention, the revisions that neither a kept consent record nor the current configuration needs', async () => {
    await ok('POST', '/placeholder', { name: 'Firma_Name', value: 'v2' }); // 2
    await ok('PUT', '/placeholder/Firma_Name', { value: 'v3' }); // 3
    await ok('PUT', '/placeholder/Firma_Name', { value: 'v4' }); // 4
    await ok('PUT', '/placeholder/Firma_Name', { value: 'v5' }); // 5
    // A visitor was shown revision 2 (the record is recent) …
    const consentId = crypto.randomUUID();
    const shown = (await ok('GET', '/revision/2')).hash;
    const recorded = await fetch(`${service.baseUrl}/consent`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify({ domain: domain.domainId, consentId, choice: 'necessary', categories: ['necessary'], services: [], revision: shown, locale: 'de_DE', url: 'https://www.example.org/' }),
    });
    expect(recorded.status).toBe(201);
    // … and revisions 1–4 were made 500 days ago.
    await service.database.orm.em
      .fork()
      .getConnection()
      .execute(`update "configuration_revision" set "created_at" = now() - interval '500 days' where "domain_id" = ? and "number" < 5`, [domain.domainId]);
    const before = await revisionStorageOf(service.database.orm.em.fork(), domain.domainId);

    const pruned = await pruneRevisions(service.database.orm, { retentionDays: 395 });
    expect(pruned.revisions).toBeGreaterThanOrEqual(3);
    expect((await revisions()).map((revision) => revision.number)).toEqual([5, 2]);
    const after = await revisionStorageOf(service.database.orm.em.fork(), domain.domainId);
    // The placeholder parts of revisions 1, 3 and 4 went with them.
    expect(before.parts - after.parts).toBe(3);
    expect((await ok('GET', '/revision/2')).configuration.placeholders).toEqual([{ name: 'Firma_Name', value: 'v2' }]);
    expect((await ok('GET', `/consent/${consentId}/evidence`)).revision).toMatchObject({ number: 2, configurationVerified: true });
    // The history reads on across the gap.
    expect((await ok('GET', '/revision/5/diff')).from).toBe(2);
  });

  it('answers 404 to a key of another client, for every revision route', async () => {
    await ok('POST', '/placeholder', { name: 'Firma_Name', value: 'ACME' });
    const other = (await service.rest('POST', API, { username: `other-${Date.now()}`, emailAddress: 'o@example.org', password: 'other-password', active: true })).body;
    const key = await createApiKey(service, other.id, 'other');
    const stranger = service.as(key.key);
    for (const [method, path] of [
      ['GET', '/revision'],
      ['GET', '/revision/1'],
      ['GET', '/revision/2/diff'],
      ['POST', '/revision/1/restore'],
    ] as const) {
      expect((await stranger.rest(method, `${domain.base}${path}`)).status, `${method} ${path}`).toBe(404);
    }
    expect((await service.rest('GET', `${API}/${domain.clientId}/domain/${unknownId()}/revision`)).status).toBe(404);
  });

  it('offers the same over GraphQL', async () => {
    const embedding = await ok('POST', '/embedding', embeddingPayload());
    await ok('PUT', `/embedding/${embedding.id}`, { purpose: 'a717ff5' });
    const read = await service.graphql(
      `query ($clientId: ID!, $domainId: ID!) { domain(clientId: $clientId, id: $domainId) {
         revisions(limit: 2) { nextCursor revisions { number legal key { name } } }
         revision(number: 2) { revision { number hash } configuration }
         revisionDiff(number: 3) { from to patch changes { path summary } }
       } }`,
      { clientId: domain.clientId, domainId: domain.domainId },
    );
    expect(read.errors).toBeUndefined();
    const found = read.data.domain;
    expect(found.revisions).toEqual({
      nextCursor: '2',
      revisions: [
        { number: 3, legal: true, key: { name: ADMIN_SETTINGS_KEY_NAME } },
        { number: 2, legal: true, key: { name: ADMIN_SETTINGS_KEY_NAME } },
      ],
    });
    expect(found.revision.configuration.embeddings[0].id).toBe(embedding.id);
    expect(found.revisionDiff.changes.map((change: { summary: string }) => change.summary).join('\n')).toMatch(/social_media → analytics/);
    const restored = await service.graphql(
      `mutation ($clientId: ID!, $domainId: ID!) { restoreRevision(clientId: $clientId, domainId: $domainId, number: 2) { number restoredFrom hash } }`,
      { clientId: domain.clientId, domainId: domain.domainId },
    );
    expect(restored.errors).toBeUndefined();
    expect(restored.data.restoreRevision).toMatchObject({ number: 4, restoredFrom: 2, hash: found.revision.revision.hash });
  });
});
