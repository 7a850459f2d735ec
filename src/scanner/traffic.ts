import type { HTTPRequest, HTTPResponse, Page, Protocol } from 'puppeteer-core';
import { pageAddress, READ_TIMEOUT_MS, setCookieNames, siteOf, within } from './site-visit.ts';

/**
 * The third-party traffic of a scan: every request its tabs make to a host of another site, with
 * its kind, the page it was made on, what caused it and the phase of the scan. It knows nothing
 * about the catalog; onboarding (src/features/onboarding/third-parties.ts) says who the hosts are.
 *
 * How the crawl uses it: one log per scan (`const traffic = createTrafficLog()`); in `openTab`,
 * `await traffic.watch(page, { site: () => crawl.site, phase: () => crawl.phase })` before the tab
 * opens a page; at the end, `await traffic.settled()` and `requests: traffic.requests()` in the
 * findings.
 */

/** When a request or cookie was seen: before anyone consented, or after a banner the site runs was accepted. */
export type ScanPhase = 'before-consent' | 'after-accept';

export const SCAN_PHASES = ['before-consent', 'after-accept'] as const satisfies readonly ScanPhase[];

/** What a request fetched, as Chromium tells it (`beacon`: `navigator.sendBeacon` and `<a ping>`). */
export type RequestKind = 'document' | 'frame' | 'script' | 'stylesheet' | 'font' | 'image' | 'media' | 'beacon' | 'xhr' | 'fetch' | 'websocket' | 'other';

export const REQUEST_KINDS = [
  'document',
  'frame',
  'script',
  'stylesheet',
  'font',
  'image',
  'media',
  'beacon',
  'xhr',
  'fetch',
  'websocket',
  'other',
] as const satisfies readonly RequestKind[];

export type ThirdPartyRequest = {
  url: string;
  host: string;
  kind: RequestKind;
  /** The address of the top document of the tab when the request was made, without its fragment. */
  page: string;
  /**
   * What caused it: the script on top of the initiator's stack, else the document or stylesheet
   * the initiator names (a frame's document for what the frame's HTML asks for); null when the
   * browser does not say.
   */
  initiator: string | null;
  phase: ScanPhase;
  /**
   * An image of 1×1 pixel, or of no content, or a GIF of at most 100 bytes, whose address carries
   * something like an identifier in its query: a tracking pixel.
   */
  pixel?: boolean;
  /** The names of the cookies its answers set (`Set-Cookie`), redirects included. */
  setsCookies?: string[];
};

export type WatchOptions = {
  /** The site's registrable domain: requests to hosts of another one are recorded. Read per request and again by `requests()`, as a redirect of the start page may change it. */
  site: () => string;
  phase: () => ScanPhase;
};

export type TrafficLog = {
  /**
   * Records the third-party requests of a tab from now on (its WebSockets too, through a CDP
   * session of its own). Call it before the tab opens a page: it switches on a debugger that keeps
   * asynchronous stacks (see `initiator`), which must not meet a page's `debugger;` statement first.
   */
  watch(page: Page, options: WatchOptions): Promise<void>;
  /** Waits for the answers still being looked at (whether an image is a pixel), at most `READ_TIMEOUT_MS`. */
  settled(): Promise<void>;
  /** The requests recorded, in the order they were made, to hosts of another site than the site's last value. */
  requests(): ThirdPartyRequest[];
};

/** Requests recorded at most per scan (by kind, address, page and phase), so that a chatty page cannot fill the memory. */
export const MAX_RECORDED_REQUESTS = 2_000;

/** A pixel's answer is read only when it is at most this long (or does not say how long it is). */
const PIXEL_BODY_LIMIT = 2_048;

/** Asynchronous parents kept on a stack: enough to reach the script that set an image's address or a timer. */
const ASYNC_STACK_DEPTH = 8;

/** How long `settled()` waits for the answers still being read. */
const SETTLE_TIMEOUT_MS = 2_000;

const KIND_OF_TYPE: Partial<Record<string, RequestKind>> = {
  document: 'document',
  stylesheet: 'stylesheet',
  font: 'font',
  image: 'image',
  media: 'media',
  script: 'script',
  ping: 'beacon',
  xhr: 'xhr',
  fetch: 'fetch',
  websocket: 'websocket',
};

/** Types that are not a request of their own to record: a CORS preflight repeats the request it precedes. */
const SKIPPED_TYPES = new Set(['preflight']);

type Recorded = ThirdPartyRequest & { site: string };

export function createTrafficLog(): TrafficLog {
  const recorded = new Map<string, Recorded>();
  const byRequest = new WeakMap<HTTPRequest, Recorded>();
  const pending = new Set<Promise<void>>();
  /** The site as the crawl knows it now (the last watch's option). */
  let currentSite: (() => string) | undefined;

  const record = (request: Omit<ThirdPartyRequest, 'host'>, site: string): Recorded | undefined => {
    if (!/^(?:https?|wss?):/i.test(request.url) || !URL.canParse(request.url)) return undefined; // data:, blob:, about:…
    const host = new URL(request.url).hostname;
    const hostSite = siteOf(host);
    if (hostSite === site) return undefined;
    const key = `${request.kind} ${request.url} ${request.page} ${request.phase}`;
    const known = recorded.get(key);
    if (known || recorded.size >= MAX_RECORDED_REQUESTS) return known;
    const entry: Recorded = { ...request, host, site: hostSite };
    recorded.set(key, entry);
    return entry;
  };

  const track = (work: Promise<void>) => {
    pending.add(work);
    void work.finally(() => pending.delete(work));
  };

  return {
    async watch(page, { site, phase }) {
      currentSite = site;
      const topPage = () => pageAddress(page.mainFrame().url());

      page.on('request', (request) => {
        const type = request.resourceType();
        if (SKIPPED_TYPES.has(type)) return;
        const frame = request.frame();
        const isTop = request.isNavigationRequest() && frame === page.mainFrame();
        const kind: RequestKind = type === 'document' && !isTop ? 'frame' : (KIND_OF_TYPE[type] ?? 'other');
        const on = isTop ? pageAddress(request.url()) : topPage();
        if (!on) return;
        const entry = record({ url: request.url(), kind, page: on, initiator: initiatorOf(request), phase: phase() }, site());
        if (entry) byRequest.set(request, entry);
      });

      page.on('response', (response) => {
        const entry = byRequest.get(response.request());
        if (!entry) return;
        const cookies = setCookieNames(response.headers()['set-cookie']);
        if (cookies.length > 0) entry.setsCookies = [...new Set([...(entry.setsCookies ?? []), ...cookies])];
        if (entry.kind === 'image' && !entry.pixel && hasIdentifier(entry.url))
          track(
            isPixel(response).then((pixel) => {
              if (pixel) entry.pixel = true;
            }),
          );
      });

      try {
        const session = await page.createCDPSession();
        // Chromium's request events leave WebSockets out; the DevTools protocol tells when a page opens one.
        session.on('Network.webSocketCreated', ({ url, initiator }: Protocol.Network.WebSocketCreatedEvent) => {
          const on = topPage();
          if (on) record({ url, kind: 'websocket', page: on, initiator: initiatorUrl(initiator), phase: phase() }, site());
        });
        // Bodies are read through puppeteer's own session; this one keeps none.
        await session.send('Network.enable', { maxTotalBufferSize: 0, maxResourceBufferSize: 0 });
        // A pixel a script loads with `new Image().src` is fetched after the script returned, and
        // Chromium names the parser's position as its initiator unless it keeps asynchronous stacks,
        // which it does for the whole page while a debugger asks for them (as DevTools does). The
        // debugger never holds the page: with breakpoints off, a site's `debugger;` statements are
        // ignored (`setSkipAllPauses` does not outlast the tab's first navigation), and should
        // anything pause it all the same, it goes on at once.
        session.on('Debugger.paused', () => void session.send('Debugger.resume').catch(() => {}));
        await session.send('Debugger.enable');
        await session.send('Debugger.setBreakpointsActive', { active: false });
        await session.send('Debugger.setAsyncCallStackDepth', { maxDepth: ASYNC_STACK_DEPTH });
      } catch {
        // The tab closed meanwhile: nothing more to record.
      }
    },

    async settled() {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([Promise.all(pending), new Promise((resolve) => (timer = setTimeout(resolve, SETTLE_TIMEOUT_MS)))]);
      clearTimeout(timer);
    },

    requests() {
      const site = currentSite?.();
      return [...recorded.values()].flatMap(({ site: hostSite, ...request }) =>
        hostSite === site ? [] : [{ ...request, ...(request.setsCookies ? { setsCookies: [...request.setsCookies] } : {}) }],
      );
    },
  };
}

/** The first script on an initiator's stack (its asynchronous parents' included), else the address it names. */
function initiatorUrl(initiator: Protocol.Network.Initiator | undefined): string | null {
  for (let trace = initiator?.stack; trace; trace = trace.parent) for (const frame of trace.callFrames) if (frame.url) return frame.url;
  return initiator?.url || null;
}

/** What caused a request; without a word from the browser, what a frame asks for is its document's doing. */
function initiatorOf(request: HTTPRequest): string | null {
  const named = initiatorUrl(request.initiator());
  if (named) return named;
  const frame = request.frame();
  if (frame?.parentFrame() && request.resourceType() !== 'document') return pageAddress(frame.url()) ?? null;
  return null;
}

/** Query parameters named like an identifier: `id`, `uid`, `cid`, `uuid`, `user_id`, `visitorId`… */
const ID_NAME = /^_?(?:id|uid|uuid|guid|cid|sid|vid|puid)$|(?:user|visitor|client|device|session|cookie|partner|member|customer|tracking)[_-]?id$/i;
/** Values that look like an identifier: eight or more characters mixing letters and digits (not a plain cache-busting number). */
const ID_VALUE = /^(?=[\w.-]*\d)(?=[\w.-]*[a-z])[\w.-]{8,}$/i;

/** Whether an address's query carries something like an identifier. */
export function hasIdentifier(url: string): boolean {
  if (!URL.canParse(url)) return false;
  for (const [name, value] of new URL(url).searchParams) if (value !== '' && (ID_NAME.test(name) || ID_VALUE.test(value))) return true;
  return false;
}

const isGif = (body: Uint8Array) => body.length >= 10 && String.fromCharCode(...body.subarray(0, 4)) === 'GIF8';
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Width and height of a GIF or PNG image, from its header. */
export function imageSize(body: Uint8Array): { width: number; height: number } | undefined {
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
  if (isGif(body)) return { width: view.getUint16(6, true), height: view.getUint16(8, true) };
  if (body.length >= 24 && PNG_SIGNATURE.every((byte, i) => body[i] === byte)) return { width: view.getUint32(16), height: view.getUint32(20) };
  return undefined;
}

/** Whether an image's answer is a tracking pixel's: no content, a GIF of at most 100 bytes, or an image of 1×1. */
async function isPixel(response: HTTPResponse): Promise<boolean> {
  const status = response.status();
  if (status === 204) return true;
  if (status < 200 || status >= 300) return false; // a redirect: the next hop's answer says
  const headers = response.headers();
  const declared = headers['content-length'] === undefined ? undefined : Number(headers['content-length']);
  if (declared === 0) return true;
  if (declared !== undefined && declared <= 100 && /^image\/gif/i.test(headers['content-type'] ?? '')) return true;
  if (declared !== undefined && declared > PIXEL_BODY_LIMIT) return false;
  const body = await within(READ_TIMEOUT_MS, response.content());
  if (!body) return false;
  if (body.length === 0 || (body.length <= 100 && isGif(body))) return true;
  const size = body.length <= PIXEL_BODY_LIMIT ? imageSize(body) : undefined;
  return size !== undefined && size.width <= 1 && size.height <= 1;
}
