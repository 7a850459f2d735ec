import { describe, expect, it } from 'vitest';
import { builtinCatalog } from '../../../src/features/catalog/catalog.ts';
import { complianceResultOf } from '../../../src/features/compliance/compliance-findings.ts';
import type { Embedding } from '../../../src/features/embeddings/embedding.contract.ts';
import { embeddingDefaults } from '../../../src/features/embeddings/embedding.contract.ts';
import type { ConsentCheck, ConsentState, ObservedCookie, ObservedRequest, StateObservations } from '../../../src/scanner/compliance.ts';

/**
 * Whom what a compliance scan saw belongs to, and what of it is a violation: the judgement alone,
 * on observations written out here, against the built-in catalog (no browser, no database).
 */

const PAGE = 'https://www.shop.example/';

const embedding = (id: string, name: string, purpose: Embedding['purpose'], overrides: Partial<Embedding> = {}): Embedding =>
  ({ ...embeddingDefaults, id, name, purpose, assets: [], ...overrides }) as Embedding;

const cookie = (name: string, domain = 'www.shop.example'): ObservedCookie => ({
  name,
  domain,
  path: '/',
  expires: null,
  httpOnly: false,
  secure: true,
  sameSite: 'Lax',
  party: domain.endsWith('shop.example') ? 'first' : 'third',
  page: PAGE,
});

const request = (url: string, resourceType: string, frameUrl: string | null = null): ObservedRequest => {
  const { host, pathname } = new URL(url);
  return { url, host, path: pathname, resourceType, page: PAGE, frameUrl, times: 1 };
};

function state(name: ConsentState, seen: Partial<StateObservations> = {}): StateObservations {
  const chose = name !== 'beforeConsent';
  return {
    state: name,
    choice: name === 'afterReject' ? 'necessary' : name === 'afterAcceptAll' ? 'all' : null,
    clicked: chose,
    pages: [{ url: PAGE, status: 200, landedUrl: PAGE, bannerShown: true }],
    banner: { domainId: 'd', revision: 'abc', consentName: 'ccm_consent' },
    bannerRequested: true,
    cookies: [],
    storage: [],
    requests: [],
    heldBack: [],
    ...seen,
  };
}

const check = (states: Partial<Record<ConsentState, Partial<StateObservations>>>): ConsentCheck => ({
  url: PAGE,
  site: 'shop.example',
  bannerOrigin: 'https://consent.example',
  states: {
    beforeConsent: state('beforeConsent', states.beforeConsent),
    afterReject: state('afterReject', states.afterReject),
    afterAcceptAll: state('afterAcceptAll', states.afterAcceptAll),
  },
  refusedRequests: [],
  durationMs: 1,
});

const SESSION = embedding('0193aaaa-0000-7000-8000-000000000001', 'Shop', '41ba25c', {
  assets: [{ id: '0193aaaa-0000-7000-8000-0000000000a1', name: 'shop_sid', dynamic: false, storageType: 'cookie', lifetime: '', description: '', translations: {} }],
});
const STATS = embedding('0193aaaa-0000-7000-8000-000000000002', 'Stats', 'a717ff5', {
  scriptMarkers: ['stats.example/s.js'],
  assets: [
    { id: '0193aaaa-0000-7000-8000-0000000000a2', name: 'shop_sid', dynamic: false, storageType: 'cookie', lifetime: '', description: '', translations: {} },
    { id: '0193aaaa-0000-7000-8000-0000000000a3', name: '_st_*', dynamic: true, storageType: 'cookie', lifetime: '', description: '', translations: {} },
  ],
});

describe('judging what a compliance scan saw', () => {
  const catalog = builtinCatalog();

  it('names a violation by embedding, catalog service or nobody, and lets the banner’s own, the necessary and what nobody claims pass', () => {
    const seen: Partial<StateObservations> = {
      cookies: [cookie('shop_sid'), cookie('_st_9f'), cookie('_fbp'), cookie('zz_mystery'), cookie('ccm_consent')],
      storage: [{ storageType: 'localStorage', name: 'ccm_consent', origin: 'https://www.shop.example', page: PAGE }],
      requests: [
        request('https://stats.example/s.js?id=1', 'script'),
        request('https://connect.facebook.net/en_US/fbevents.js', 'script'),
        // Inside an embedded YouTube player: YouTube's, whatever its own host.
        request('https://i.ytimg.com/vi/abc/hq.jpg', 'image', 'https://www.youtube.com/embed/abc'),
        request('https://assets.partner-cdn.example/lib.js', 'script'),
      ],
    };
    const result = complianceResultOf(check({ beforeConsent: seen, afterAcceptAll: seen }), [SESSION, STATS], catalog);
    const before = result.states.beforeConsent;

    // Declared by a necessary embedding and by another: the necessary one counts.
    expect(before.cookies.find((c) => c.name === 'shop_sid')).toMatchObject({ owner: 'embedding', embeddingName: 'Shop', declared: true, needsConsent: false });
    expect(before.cookies.find((c) => c.name === '_st_9f')).toMatchObject({ owner: 'embedding', embeddingName: 'Stats', declared: true, needsConsent: true });
    expect(before.cookies.find((c) => c.name === '_fbp')).toMatchObject({ owner: 'catalog', presetName: 'Meta Pixel', purpose: 'cdcbd7c', declared: false, needsConsent: true });
    expect(before.cookies.find((c) => c.name === 'zz_mystery')).toMatchObject({ owner: 'unknown', purpose: null, needsConsent: true });
    expect(before.cookies.find((c) => c.name === 'ccm_consent')).toMatchObject({ owner: 'banner', needsConsent: false });
    expect(before.storage[0]).toMatchObject({ owner: 'banner', needsConsent: false });
    const requestOf = (host: string) => before.requests.find((r) => r.host === host)!;
    expect(requestOf('stats.example')).toMatchObject({ owner: 'embedding', embeddingName: 'Stats', declared: true, needsConsent: true });
    expect(requestOf('connect.facebook.net')).toMatchObject({ owner: 'catalog', presetName: 'Meta Pixel', needsConsent: true });
    expect(requestOf('i.ytimg.com')).toMatchObject({ owner: 'catalog', presetName: 'YouTube', needsConsent: true });
    expect(requestOf('assets.partner-cdn.example')).toMatchObject({ owner: 'unknown', needsConsent: false });

    expect(result.findings.map((f) => [f.kind, f.name ?? f.host, f.embeddingName ?? f.presetName])).toEqual([
      ['cookie', '_st_9f', 'Stats'],
      ['cookie', '_fbp', 'Meta Pixel'],
      ['cookie', 'zz_mystery', null],
      ['request', 'stats.example', 'Stats'],
      ['request', 'connect.facebook.net', 'Meta Pixel'],
      ['request', 'i.ytimg.com', 'YouTube'],
    ]);
    expect(result.findings.every((f) => f.state === 'beforeConsent')).toBe(true);
    // After "accept all" the same is no finding, and shows what ran.
    expect(result.states.afterAcceptAll.services).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ owner: 'embedding', embeddingName: 'Stats', status: 'ran' }),
        expect.objectContaining({ owner: 'catalog', presetName: 'Meta Pixel', status: 'ran' }),
      ]),
    );
    expect(result.states.afterReject.services.find((s) => s.embeddingName === 'Stats')?.status).toBe('not-seen');
  });

  it('says held back for what the banner holds, and a request for a held element is one the host got all the same', () => {
    const seen: Partial<StateObservations> = {
      heldBack: [{ element: 'script', src: 'https://stats.example/s.js?id=1', serviceId: STATS.id, page: PAGE }],
      // The preload scanner fetched it before the banner held the element.
      requests: [request('https://stats.example/s.js?id=1', 'script')],
    };
    const result = complianceResultOf(check({ afterReject: seen }), [SESSION, STATS], catalog);
    expect(result.states.afterReject.heldBack).toEqual([expect.objectContaining({ element: 'script', embeddingName: 'Stats', needsConsent: true })]);
    expect(result.states.afterReject.services.find((s) => s.embeddingName === 'Stats')?.status).toBe('held-back');
    expect(result.findings).toEqual([expect.objectContaining({ state: 'afterReject', kind: 'request', heldBack: true, embeddingName: 'Stats' })]);
  });

  it('reports a page without a banner, unless the page asked for one and nothing in the configuration needs consent', () => {
    const none: Partial<StateObservations> = { banner: null, pages: [{ url: PAGE, status: 200, landedUrl: PAGE, bannerShown: false }], clicked: false };
    const missing = complianceResultOf(check({ beforeConsent: { ...none, bannerRequested: false }, afterReject: { ...none, bannerRequested: false } }), [SESSION], catalog);
    expect(missing.findings.map((f) => [f.state, f.kind])).toEqual([
      ['beforeConsent', 'no-banner'],
      ['afterReject', 'no-banner'],
    ]);
    // Only necessary embeddings: the banner rightly shows nothing.
    expect(complianceResultOf(check({ beforeConsent: none, afterReject: none }), [SESSION], catalog).findings).toEqual([]);
    // But with something to ask, a banner that does not show is a violation.
    expect(complianceResultOf(check({ beforeConsent: none, afterReject: none }), [SESSION, STATS], catalog).findings).toHaveLength(2);
  });
});
