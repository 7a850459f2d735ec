import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SITE_URL } from '../../fixtures/vendor-site.ts';
import { type OnboardedSite, onboardVendorSite, startVisit } from '../../support/onboarded-site.ts';
import { API } from '../../support/fixtures.ts';

/**
 * `autoCreateDomains` seen from visitors' browsers: the onboarded law-office site, its snippet
 * changed to the client's key-less form (`client=` in place of `domain=`), opened under its own
 * name, under a new name of the client's, and through a translation proxy's name.
 */

const NEW_SITE = 'www.kanzlei-zweigstelle.de';
const PROXY = 'www-kanzlei--muster-test.translate.goog';

describe('the client snippet in visitors’ browsers (autoCreateDomains)', () => {
  let onboarded: OnboardedSite;
  let clientSnippet: string;
  const domainsOfClient = async () => {
    const answer = await onboarded.service.rest('GET', `${API}/${onboarded.domain.clientId}/domain`);
    expect(answer.status, answer.text).toBe(200);
    return (answer.body as { id: string; url: string }[]).map(({ id, url }) => ({ id, url }));
  };

  beforeAll(async () => {
    onboarded = await onboardVendorSite({ siteAliases: [NEW_SITE, PROXY] });
    const on = await onboarded.service.rest('PUT', `${API}/${onboarded.domain.clientId}`, { autoCreateDomains: true });
    expect(on.status, on.text).toBe(200);
    expect(onboarded.snippet).toContain(`domain=${onboarded.domain.domainId}`);
    clientSnippet = onboarded.snippet.replace(`domain=${onboarded.domain.domainId}`, `client=${onboarded.domain.clientId}`);
  }, 120_000);

  afterAll(() => onboarded?.close());

  it("on the onboarded site's own name: its domain's banner asks, and nothing is created", async () => {
    const visit = await startVisit(onboarded, { variant: 'snippet-only', snippet: clientSnippet }, { paths: ['/'] });
    await visit.open(SITE_URL);
    const started = visit.bannerStarted;
    const banner = await visit.page.$('#cc-main .cm');
    const evidence = await visit.finish();
    expect(started, evidence.problems.join('; ')).toBe(true);
    expect(banner).not.toBeNull();
    // The onboarded domain holds the trackers back until the visitor chooses.
    expect([...evidence.ran]).toEqual([]);
    expect(await domainsOfClient()).toEqual([{ id: onboarded.domain.domainId, url: SITE_URL }]);
  });

  it('on a new name of the client: its domain is created, once', async () => {
    for (const path of ['/', '/kontakt']) {
      const visit = await startVisit(onboarded, { variant: 'snippet-only', snippet: clientSnippet }, { bannerWaitMs: 0, paths: ['/'] });
      await visit.open(`http://${NEW_SITE}${path}`);
      await visit.finish();
    }
    const domains = await domainsOfClient();
    expect(domains.map((domain) => domain.url).sort()).toEqual([`http://${NEW_SITE}/`, SITE_URL].sort());
  });

  it("through a translation proxy's name: nothing is created", async () => {
    const visit = await startVisit(onboarded, { variant: 'snippet-only', snippet: clientSnippet }, { bannerWaitMs: 0, paths: ['/'] });
    await visit.open(`http://${PROXY}/`);
    await visit.finish();
    expect((await domainsOfClient()).map((domain) => domain.url).sort()).toEqual([`http://${NEW_SITE}/`, SITE_URL].sort());
  });
});
