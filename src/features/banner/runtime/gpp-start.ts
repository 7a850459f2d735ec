import type { GppSettings } from '../banner-config.ts';
import { OWN } from './attributes.ts';
import type { Handover } from './handover.ts';

/** How long the page waits for the region's answer before it takes the visitor for one outside the US. */
const REGION_WAIT_MS = 3_000;

type GppCallback = (value: unknown, success: boolean) => void;
type StubbedGpp = ((...call: unknown[]) => unknown) & { queue?: unknown[][] };

declare global {
  interface Window {
    __gpp?: StubbedGpp;
  }
}

/**
 * GPP's stub (CMP API v1.1), synchronously before the page's other scripts: `__gpp` answers
 * `ping` at once (status `stub`), holds every other command until the GPP bundle takes them
 * over (the CMP API library reads the queue from `__gpp()` and replaces the function), and
 * frames below reach it through the `__gppLocator` frame and `__gppCall` messages.
 */
function installStub(cmpId: number): void {
  if (typeof window.__gpp === 'function') return;
  const queue: unknown[][] = [];
  const stub: StubbedGpp = (...call: unknown[]) => {
    if (call.length === 0) return queue;
    const [command, callback] = call as [unknown, GppCallback | undefined];
    if (command === 'ping') {
      const ping = { gppVersion: '1.1', cmpStatus: 'stub', cmpDisplayStatus: 'hidden', signalStatus: 'not ready', supportedAPIs: [], cmpId, sectionList: [], applicableSections: [-1], gppString: '', parsedSections: {} };
      if (typeof callback === 'function') callback(ping, true);
      return ping;
    }
    // The spec lets these answer null while the CMP loads, rather than wait.
    if (command === 'hasSection' || command === 'getSection' || command === 'getField') {
      if (typeof callback === 'function') callback(null, false);
      return null;
    }
    queue.push(call);
    return undefined;
  };
  stub.queue = queue;
  window.__gpp = stub;
  addEventListener('message', (event: MessageEvent) => {
    let message: unknown = event.data;
    const asText = typeof message === 'string';
    try {
      if (asText) message = JSON.parse(message as string);
    } catch {
      return;
    }
    const call = (message as { __gppCall?: { command?: unknown; parameter?: unknown; version?: unknown; callId?: unknown } } | null)?.__gppCall;
    if (!call || !event.source) return;
    const source = event.source as WindowProxy;
    // The present `__gpp`: the stub until the bundle has loaded, then the library's.
    window.__gpp?.(
      call.command,
      (returnValue: unknown, success: boolean) => {
        const reply = { __gppReturn: { returnValue, success, callId: call.callId } };
        source.postMessage(asText ? JSON.stringify(reply) : reply, '*');
      },
      call.parameter ?? null,
      call.version ?? '1.1',
    );
  });
  addLocator();
}

/** The empty frame named `__gppLocator` by which scripts in frames find this page's CMP. */
function addLocator(): void {
  if (window.frames['__gppLocator' as unknown as number]) return;
  if (!document.body) {
    setTimeout(addLocator, 10);
    return;
  }
  const frame = document.createElement('iframe');
  frame.name = '__gppLocator';
  frame.style.display = 'none';
  frame.setAttribute('aria-hidden', 'true');
  frame.tabIndex = -1;
  document.body.appendChild(frame);
}

/** Whether the service places the visitor in the United States; not in time, or any fault: not. */
function askUsVisitor(regionUrl: string): Promise<boolean> {
  const answer = fetch(regionUrl, { credentials: 'omit', cache: 'no-store' })
    .then((response) => (response.ok ? response.json() : null))
    .then((body: { us?: unknown } | null) => body?.us === true, () => false);
  return Promise.race([answer, new Promise<boolean>((resolve) => setTimeout(resolve, REGION_WAIT_MS, false))]);
}

/** `usPrivacyModel` `opt-out`: the stub, the region question and the GPP bundle, as app.js starts. */
export function startGpp(gpp: GppSettings, handover: Handover): void {
  installStub(gpp.cmpId);
  handover.usVisitor = askUsVisitor(gpp.regionUrl);
  const chunk = document.createElement('script');
  // Marked before its address is set: the blocker holds scripts the moment they get one.
  chunk.setAttribute(OWN, '');
  chunk.src = gpp.chunkUrl;
  chunk.async = true;
  (document.head ?? document.documentElement).appendChild(chunk);
}
