import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinCatalog } from '../../src/features/catalog/catalog.ts';
import { recogniseServices } from '../../src/features/onboarding/recognise.ts';
import { dnsEgressPolicy } from '../../src/scanner/address-policy.ts';
import { BrowserUnavailable, createSharedBrowser, type SharedBrowser } from '../../src/scanner/browser.ts';
import { createScanner, DEFAULT_SCAN_LIMITS, ScanError, type ScanFindings, type ScanLimits, type VisitedPage } from '../../src/scanner/scan.ts';
import { type FixtureWebsites, startFixtureWebsites } from '../fixtures/websites.ts';

/** The scanner against fixture websites on loopback, with its address checks switched on. */

let sites: FixtureWebsites;
let browser: SharedBrowser;
/** Short waits keep these scans quick; test/scanner/scanner-timing.test.ts scans with the default waits. */
const limits: ScanLimits = {
  ...DEFAULT_SCAN_LIMITS,
  navigationTimeoutMs: 4_000,
  loadTimeoutMs: 1_500,
  pageWaitMs: 300,
  startPageWaitMs: 600,
  graceMs: 200,
  totalTimeoutMs: 20_000,
};

beforeAll(async () => {
  sites = await startFixtureWebsites();
  browser = createSharedBrowser({ acceptInsecureCerts: true });
  await browser.warmUp();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await sites?.close();
});

const scanner = () => createScanner({ browser, policy: sites.policy, limits });

async function scanFailure(url: string, scan = scanner()): Promise<ScanError> {
  const error = await scan.scan(url).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ScanError);
  return error as ScanError;
}

describe('scanning the fixture shop', () => {
  let found: ScanFindings;
  beforeAll(async () => {
    found = await scanner().scan('http://www.shop.test/');
  }, 60_000);

  it('visits the start page first, then the imprint and privacy pages, then the rest of the site', () => {
    expect(found.pages.map((page) => page.url)).toEqual([
      'http://www.shop.test/',
      'http://www.shop.test/impressum',
      'http://www.shop.test/datenschutz',
      'http://www.shop.test/produkte',
      'http://www.shop.test/ueber-uns',
      'http://www.shop.test/produkte/tasse',
    ]);
    expect(found.pages.every((page) => page.status === 200)).toBe(true);
  });

  it('notes where every page landed, and marks none slow', () => {
    expect(found.pages.every((page) => page.landedUrl === page.url)).toBe(true);
    expect(found.pages.some((page) => 'slow' in page)).toBe(false);
  });

  it('stays within the registrable domain and follows no mailto or foreign links', () => {
    expect([...sites.hits.keys()].filter((key) => key.startsWith('www.elsewhere'))).toEqual([]);
  });

  it('reads first- and third-party cookies, by header and by script, including one set late', () => {
    const byName = Object.fromEntries(found.cookies.map((cookie) => [cookie.name, cookie]));
    expect(Object.keys(byName).sort()).toEqual(
      ['VISITOR_INFO1_LIVE', 'YSC', '_ga', '_ga_FIXTURE', 'late_cookie', 'shop_session'].sort(),
    );
    expect(byName.shop_session).toMatchObject({ domain: 'www.shop.test', path: '/', httpOnly: true, party: 'first', expires: null });
    expect(byName._ga).toMatchObject({ domain: 'www.shop.test', party: 'first', httpOnly: false });
    // Two years asked for; Chromium caps cookie lifetimes at 400 days.
    expect(Date.parse(byName._ga!.expires!)).toBeGreaterThan(Date.now() + 399 * 86_400_000);
    expect(byName.late_cookie).toMatchObject({ party: 'first' });
    expect(byName.VISITOR_INFO1_LIVE).toMatchObject({ domain: 'www.youtube.com', secure: true, sameSite: 'None', party: 'third' });
    expect(byName.YSC).toMatchObject({ party: 'third', expires: null });
  });

  it('reads the localStorage and sessionStorage keys of every frame origin, each with what wrote it', () => {
    // Inline scripts show as their page; the player's key as the player's frame document.
    const seen = { phase: 'before-consent' };
    expect(found.localStorage).toEqual(
      expect.arrayContaining([
        { name: 'cart_items', origin: 'http://www.shop.test', ...seen, setBy: 'http://www.shop.test/' },
        { name: 'yt-remote-device-id', origin: 'https://www.youtube.com', ...seen, setBy: 'https://www.youtube.com/embed/fixture-video' },
      ]),
    );
    expect(found.localStorage).toHaveLength(2);
    expect(found.sessionStorage).toEqual([{ name: 'checkout_step', origin: 'http://www.shop.test', ...seen, setBy: expect.stringMatching(/^http:\/\/www\.shop\.test\//) }]);
  });

  it('finds no IndexedDB databases or caches where there are none (and no Cache Storage outside secure contexts)', () => {
    expect(found.indexedDB).toEqual([]);
    expect(found.cacheStorage).toEqual([]);
  });

  it('lists the scripts and frames the pages loaded', () => {
    expect(found.scripts).toContain('http://www.googletagmanager.com/gtag/js?id=G-FIXTURE');
    expect(found.iframes).toContain('https://www.youtube.com/embed/fixture-video');
  });

  it('finds the imprint and privacy pages and reads the address from the imprint', () => {
    expect(found.imprintUrl).toBe('http://www.shop.test/impressum');
    expect(found.privacyPolicyUrl).toBe('http://www.shop.test/datenschutz');
    expect(found.address).toEqual({ company: 'Fixture Shop GmbH', street: 'Musterstraße 12', zipCode: '10115', city: 'Berlin' });
  });

  it('refuses nothing on a site that loads only public (fixture) addresses', () => {
    expect(found.refusedRequests).toEqual([]);
  });
});

describe('scanning a site with embeds of several services', () => {
  let found: ScanFindings;
  beforeAll(async () => {
    found = await scanner().scan('http://www.bistro.test/');
  }, 60_000);

  it('reads the cookies the embeds set, first and third party', () => {
    const byName = Object.fromEntries(found.cookies.map((cookie) => [cookie.name, cookie]));
    expect(Object.keys(byName).sort()).toEqual(['_fbp', '_hjSessionUser_4711', 'cart', 'csrftoken', 'player', 'vuid']);
    expect(byName.vuid).toMatchObject({ domain: 'player.vimeo.com', party: 'third', secure: true, sameSite: 'None' });
    expect(byName._hjSessionUser_4711).toMatchObject({ domain: 'www.bistro.test', party: 'first' });
    expect(byName._fbp).toMatchObject({ domain: 'www.bistro.test', party: 'first' });
  });

  it('refuses subresources on private addresses and still scans the page', () => {
    expect(found.pages[0]).toEqual({ url: 'http://www.bistro.test/', status: 200, landedUrl: 'http://www.bistro.test/' });
    expect(found.refusedRequests.map((refused) => refused.host).sort()).toEqual(['10.0.0.8', '127.0.0.1']);
    expect(found.refusedRequests.every((refused) => / is not a public address$/.test(refused.reason))).toBe(true);
    expect(sites.hits.get('127.0.0.1 /private-script.js')).toBeUndefined();
  });

  it("takes the site's own privacy page, not a foreign one linked before it", () => {
    expect(found.privacyPolicyUrl).toBe('http://www.bistro.test/datenschutz-hinweise');
    expect(found.imprintUrl).toBe('http://www.bistro.test/impressum');
    expect(found.address).toEqual({ company: 'Bistro Fixture UG', street: 'Am Markt 3', zipCode: '04109', city: 'Leipzig' });
  });

  it('recognises the embedded services by script, frame and cookie, and nothing by names every shop uses', () => {
    const recognised = recogniseServices(builtinCatalog(), found);
    expect(recognised.map((preset) => preset.name).sort()).toEqual(['Hotjar', 'Meta Pixel', 'Vimeo']);
    const vimeo = recognised.find((preset) => preset.name === 'Vimeo')!;
    expect(vimeo.evidence).toEqual(
      expect.arrayContaining([
        { kind: 'iframe', value: 'https://player.vimeo.com/video/76979871' },
        { kind: 'cookie', value: 'vuid' },
      ]),
    );
    expect(recognised.find((preset) => preset.name === 'Hotjar')!.evidence).toEqual(
      expect.arrayContaining([{ kind: 'cookie', value: '_hjSessionUser_4711' }]),
    );
  });
});

describe('a site that moved', () => {
  it('is crawled where its start address redirects to, with its cookies as first party', async () => {
    const found = await createScanner({ browser, policy: sites.policy, limits: { ...limits, pageLimit: 3 } }).scan('http://bistro-alt.test/');
    expect(found.pages.map((page) => page.url)).toEqual([
      'http://bistro-alt.test/',
      'http://www.bistro.test/impressum',
      'http://www.bistro.test/datenschutz-hinweise',
    ]);
    expect(found.imprintUrl).toBe('http://www.bistro.test/impressum');
    expect(found.cookies.find((cookie) => cookie.name === 'cart')).toMatchObject({ domain: 'www.bistro.test', party: 'first' });
  });
});

describe('pages that never finish loading', () => {
  let found: ScanFindings;
  beforeAll(async () => {
    found = await scanner().scan('http://www.stau.test/');
  }, 60_000);

  it('reads a start page whose image never finishes as it is, marked slow, instead of failing the scan', () => {
    expect(found.pages[0]).toEqual({ url: 'http://www.stau.test/', status: 200, landedUrl: 'http://www.stau.test/', slow: true });
    const names = found.cookies.map((cookie) => cookie.name);
    expect(names).toEqual(expect.arrayContaining(['stau_start', 'stau_script']));
  });

  it('reads a sub-page whose script never finishes, marked slow, and keeps crawling', () => {
    const byUrl = Object.fromEntries(found.pages.map((page) => [page.url, page]));
    expect(Object.keys(byUrl).sort()).toEqual(['http://www.stau.test/', 'http://www.stau.test/normal', 'http://www.stau.test/unterseite']);
    expect(byUrl['http://www.stau.test/unterseite']).toMatchObject({ status: 200, slow: true });
    expect(byUrl['http://www.stau.test/normal']).toEqual({ url: 'http://www.stau.test/normal', status: 200, landedUrl: 'http://www.stau.test/normal' });
    expect(found.cookies.map((cookie) => cookie.name)).toEqual(expect.arrayContaining(['stau_unterseite', 'stau_normal']));
    expect(found.scripts).toContain('http://cdn.stau.test/haengt.js');
  });
});

describe('redirects within the site', () => {
  it('crawls the page a redirect landed on once: links to the landing address (also with #fragments) are not followed again', async () => {
    const found = await createScanner({ browser, policy: sites.policy, limits: { ...limits, pageConcurrency: 2 } }).scan('http://www.umzug.test/');
    expect(found.pages.map((page) => [page.url, page.landedUrl])).toEqual([
      ['http://www.umzug.test/', 'http://www.umzug.test/'],
      ['http://www.umzug.test/alt', 'http://www.umzug.test/neu'],
      ['http://www.umzug.test/a', 'http://www.umzug.test/a'],
      ['http://www.umzug.test/b', 'http://www.umzug.test/b'],
    ]);
    expect(sites.hits.get('www.umzug.test /neu')).toBe(1);
  });

  it('does not count a redirect to a page already visited against the page limit', async () => {
    const ended: [string, number, number][] = [];
    const found = await createScanner({ browser, policy: sites.policy, limits: { ...limits, pageConcurrency: 1, pageLimit: 4 } }).scan(
      'http://www.umzug.test/andersrum',
      { onPage: (page: VisitedPage, index, limit) => ended.push([page.url, index, limit]) },
    );
    // /alt lands on /neu, visited before it: it is left out, and the start page, the fourth page, still fits.
    expect(found.pages.map((page) => page.url)).toEqual([
      'http://www.umzug.test/andersrum',
      'http://www.umzug.test/neu',
      'http://www.umzug.test/b',
      'http://www.umzug.test/',
    ]);
    expect(new Set(found.pages.map((page) => page.landedUrl)).size).toBe(4);
    expect(ended).toEqual(found.pages.map((page, i) => [page.url, i + 1, 4]));
  });

  it("loads a page once when a slow redirect lands on it after another tab took it from a faster page's link", async () => {
    const found = await createScanner({ browser, policy: sites.policy, limits: { ...limits, pageConcurrency: 2 } }).scan('http://www.umzug.test/zoegerlich');
    // /flink loads, its link to /ziel is taken and loaded while /spaet-umgezogen still waits for its
    // answer; the redirect to /ziel is then refused as it starts, and that visit does not count.
    expect(found.pages.map((page) => [page.url, page.landedUrl])).toEqual([
      ['http://www.umzug.test/zoegerlich', 'http://www.umzug.test/zoegerlich'],
      ['http://www.umzug.test/flink', 'http://www.umzug.test/flink'],
      ['http://www.umzug.test/ziel', 'http://www.umzug.test/ziel'],
    ]);
    expect(sites.hits.get('www.umzug.test /ziel')).toBe(1);
    expect(sites.hits.get('www.umzug.test /spaet-umgezogen')).toBe(1);
  });
});

describe('stylesheets and fonts', () => {
  let found: ScanFindings;
  beforeAll(async () => {
    found = await scanner().scan('http://www.schrift.test/');
  }, 60_000);

  it('lists the stylesheets the page loaded, of font services and its own', () => {
    expect([...found.stylesheets].sort()).toEqual([
      'http://www.schrift.test/stil.css',
      'https://fonts.googleapis.com/css2?family=Fixture+Sans&display=swap',
      'https://use.typekit.net/fix1abc.css',
    ]);
  });

  it('lists the font files those stylesheets loaded from other hosts', () => {
    expect([...found.fonts].sort()).toEqual([
      'https://fonts.gstatic.com/s/fixturesans/v1/fixture-sans.woff2',
      'https://use.typekit.net/af/fixture/l?primer=7cdcb4&fvd=n4&v=3',
    ]);
  });
});

describe('what no consent banner can hold back', () => {
  let found: ScanFindings;
  beforeAll(async () => {
    found = await scanner().scan('http://www.einbettung.test/');
  }, 60_000);
  const sorted = (loads: ScanFindings['unblockable']) =>
    [...loads].sort((a, b) => `${a.kind} ${a.url} ${a.page}`.localeCompare(`${b.kind} ${b.url} ${b.page}`));

  it('lists iframes written with src in the HTML, stylesheets and fonts of other sites, each with the page that asked for it', () => {
    expect(sorted(found.unblockable)).toEqual([
      { kind: 'font', url: 'https://fonts.gstatic.com/s/fixturesans/v1/fixture-sans.woff2', page: 'http://www.einbettung.test/' },
      { kind: 'font', url: 'https://use.typekit.net/af/fixture/l?primer=7cdcb4&fvd=n4&v=3', page: 'http://www.einbettung.test/' },
      { kind: 'iframe', url: 'https://www.youtube.com/embed/im-html', page: 'http://www.einbettung.test/' },
      { kind: 'iframe', url: 'https://www.youtube.com/embed/zweites-video', page: 'http://www.einbettung.test/videos' },
      { kind: 'stylesheet', url: 'https://fonts.googleapis.com/css2?family=Fixture+Sans&display=swap', page: 'http://www.einbettung.test/' },
      // The site's own script inserted it: no banner holds a stylesheet.
      { kind: 'stylesheet', url: 'https://use.typekit.net/fix1abc.css', page: 'http://www.einbettung.test/' },
    ]);
  });

  it('leaves out frames a script gave their address (data-src turned into src, or inserted), and what a script of another site put in', () => {
    // Every one of them loaded: what is left out was seen and judged, not missed.
    expect(found.iframes).toEqual(
      expect.arrayContaining(['https://www.youtube.com/embed/mit-data-src', 'https://www.youtube.com/embed/per-skript']),
    );
    expect(found.stylesheets).toContain('https://fonts.googleapis.com/css?family=Widget+Sans');
    expect(found.fonts).toContain('https://fonts.gstatic.com/s/widgetsans/v1/widget-sans.woff2');
    const listed = found.unblockable.map((load) => load.url);
    for (const url of [
      'https://www.youtube.com/embed/mit-data-src',
      'https://www.youtube.com/embed/per-skript',
      'https://fonts.googleapis.com/css?family=Widget+Sans',
      'https://fonts.gstatic.com/s/widgetsans/v1/widget-sans.woff2',
    ]) {
      expect(listed).not.toContain(url);
    }
  });

  it("lists no scripts: the bistro's Vimeo frame, written in its HTML, is all, beside the Hotjar and Meta scripts it loads", async () => {
    const bistro = await scanner().scan('http://www.bistro.test/');
    expect(bistro.scripts).toEqual(expect.arrayContaining(['http://static.hotjar.com/c/hotjar-4711.js', 'http://connect.facebook.net/en_US/fbevents.js']));
    expect(bistro.unblockable).toEqual([{ kind: 'iframe', url: 'https://player.vimeo.com/video/76979871', page: 'http://www.bistro.test/' }]);
  }, 60_000);
});

describe('limits and isolation', () => {
  it('stops at the page limit', async () => {
    const found = await createScanner({ browser, policy: sites.policy, limits: { ...limits, pageLimit: 10 } }).scan(
      'http://www.tensite.test/',
    );
    expect(found.pages).toHaveLength(10);
    expect(new Set(found.pages.map((page) => page.url)).size).toBe(10);
    expect(found.cookies.filter((cookie) => cookie.name.startsWith('visited_'))).toHaveLength(10);
  });

  it('gives every scan a fresh browser context: no cookies carry over', async () => {
    await scanner().scan('http://www.shop.test/');
    const found = await createScanner({ browser, policy: sites.policy, limits: { ...limits, pageLimit: 1 } }).scan(
      'http://www.tensite.test/',
    );
    expect(found.cookies.map((cookie) => cookie.name)).toEqual(['visited_0']);
  });
});

describe('failures', () => {
  it.each([
    ['an error status (404)', 'http://error404.test/', /status 404/],
    ['an error status (500)', 'http://error500.test/', /status 500/],
    ['an empty answer', 'http://empty.test/', /empty page/],
    ['a page with nothing in it', 'http://blank.test/', /empty page/],
  ])('fails with a site error for %s', async (_, url, message) => {
    const error = await scanFailure(url);
    expect(error.failure).toBe('site');
    expect(error.message).toMatch(message);
  });

  it('fails with a crawl error when the page never finishes loading, within the navigation time-out', async () => {
    const started = Date.now();
    const error = await scanFailure('http://slow.test/');
    expect(error.failure).toBe('crawl');
    expect(error.message).toMatch(/in time/);
    expect(Date.now() - started).toBeLessThan(limits.navigationTimeoutMs + 3_000);
  });

  it('fails with a crawl error when the whole scan runs over its time limit', async () => {
    const tight = createScanner({ browser, policy: sites.policy, limits: { ...limits, totalTimeoutMs: 1_500 } });
    const started = Date.now();
    const error = await scanFailure('http://slow.test/', tight);
    expect(error.failure).toBe('crawl');
    expect(error.message).toMatch(/longer than/);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('fails with a crawl error when the host does not resolve', async () => {
    const error = await scanFailure('http://unresolvable.test/');
    expect(error.failure).toBe('crawl');
  });

  it('fails with a crawl error when the browser cannot start', async () => {
    const broken = createScanner({ browser: createSharedBrowser({ chromePath: '/nonexistent/chromium' }), policy: sites.policy, limits });
    const error = await scanFailure('http://www.shop.test/', broken);
    expect(error.failure).toBe('crawl');
    expect(error.message).toMatch(/the browser does not start: CHROME_PATH \/nonexistent\/chromium is not an executable/);
    expect(error.cause).toBeInstanceOf(BrowserUnavailable);
  });

  it('fails with a crawl error when nothing listens at the address', async () => {
    const closedPort = createScanner({ browser, policy: async () => ({ address: '127.0.0.1', port: 1 }), limits });
    const error = await scanFailure('http://www.closed.test/', closedPort);
    expect(error.failure).toBe('crawl');
  });
});

describe('address safety', () => {
  it('refuses a loopback start address without opening it', async () => {
    const error = await scanFailure(`http://127.0.0.1:${sites.httpPort}/`);
    expect(error.failure).toBe('refused');
    expect(error.message).toMatch(/is not a public address/);
  });

  it.each(['http://10.0.0.8/', 'http://169.254.169.254/latest/meta-data/', 'http://[::1]/', 'http://192.168.0.1/'])(
    'refuses %s',
    async (url) => {
      expect((await scanFailure(url)).failure).toBe('refused');
    },
  );

  it('refuses a redirect to a private address, checked on the redirect itself', async () => {
    const error = await scanFailure('http://redirect.test/');
    expect(error.failure).toBe('refused');
    expect(sites.hits.get('127.0.0.1 /private')).toBeUndefined();
  });

  it('visits private addresses when explicitly allowed (SCAN_ALLOW_PRIVATE_ADDRESSES)', async () => {
    const allowing = createScanner({ browser, policy: dnsEgressPolicy({ allowPrivate: true }), limits: { ...limits, pageLimit: 1 } });
    const found = await allowing.scan(`http://127.0.0.1:${sites.httpPort}/`);
    const url = `http://127.0.0.1:${sites.httpPort}/`;
    expect(found.pages).toEqual([{ url, status: 200, landedUrl: url }]);
  });
});
