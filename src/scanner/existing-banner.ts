import { readdir, readFile } from 'node:fs/promises';
import type { AutoConsentCMPRule, Config, ContentScriptMessage } from '@duckduckgo/autoconsent';
import type { Page } from 'puppeteer-core';

/**
 * Accepts the consent banner a site already runs (another CMP's), with the rules of
 * `@duckduckgo/autoconsent` rather than clicks of our own, so that a second pass of the scan sees
 * what the site runs only after consent.
 *
 * Autoconsent's content script runs in every frame of the tab's next documents, in the page's own
 * world (as its Puppeteer guide does it). It is configured in the page itself, so no rules cross
 * the DevTools connection per frame; the page reports back through one exposed function, and only
 * what a scan needs: which rule found a banner and whether accepting it worked.
 */

/** A banner of another CMP found on the page, and whether accepting it worked. */
export type ExistingBanner = {
  /** The name of the autoconsent rule that recognised it (`Complianz banner`, `Cybotcookiebot`, `Onetrust`…). */
  cmp: string;
  accepted: boolean;
  error?: string;
};

export type BannerAcceptance = {
  /**
   * The banner found and accepted (or not) in the tab, waiting up to `timeoutMs` for it; undefined
   * if no banner appeared by then. Never fails.
   */
  result(timeoutMs: number): Promise<ExistingBanner | undefined>;
  /** The rule that recognised a banner shown in the tab so far, if one did. */
  found(): string | undefined;
  /**
   * Accepts the banner found (prepared with `acceptAtOnce: false`): asks every frame of the tab to
   * opt in, where autoconsent found it, and waits for the outcome as `result` does.
   */
  accept(timeoutMs: number): Promise<ExistingBanner | undefined>;
};

/** The page's side of the exposed function (seen by the site's scripts too, like the content script's globals). */
const REPORT_FUNCTION = 'scanExistingBannerReport';

/** What the page reports; the rest of autoconsent's messages (state reports, mostly) stay in the page. */
const REPORTED: ContentScriptMessage['type'][] = ['popupFound', 'optInResult', 'autoconsentError'];

const CONFIG: Partial<Config> = {
  enabled: true,
  disabledCmps: [],
  // The scan must see the page as a visitor does: nothing hidden ahead of the rules.
  enablePrehide: false,
  // A cosmetic rule only hides a banner; that gives no consent.
  enableCosmeticRules: false,
  enableGeneratedRules: false,
  // Guessing at buttons of unknown banners could "accept" a newsletter pop-up; only named rules click.
  enableHeuristicDetection: false,
  heuristicMode: 'off',
  detectRetries: 20,
  // The script runs in the page's world, so the rules' page-script checks run in place.
  isMainWorld: true,
  logs: { lifecycle: false, rulesteps: false, detectionsteps: false, evals: false, errors: false, messages: false, waits: false },
};

/**
 * Call on a tab before it navigates (a reload counts): its next documents run autoconsent, which
 * finds a banner its rules know and accepts it, at once or (`acceptAtOnce: false`) when `accept`
 * asks, so that a scan can first read the page as a visitor who has not chosen sees it. Once per tab.
 */
export async function prepareBannerAcceptance(page: Page, { acceptAtOnce = true }: { acceptAtOnce?: boolean } = {}): Promise<BannerAcceptance> {
  let popupCmp: string | undefined;
  let outcome: ExistingBanner | undefined;
  const errors: string[] = [];
  const waiting = new Set<() => void>();

  const hear = (message: unknown) => {
    if (!isReport(message) || outcome) return;
    if (message.type === 'popupFound') popupCmp ??= message.cmp;
    else if (message.type === 'autoconsentError') errors.push(errorText(message.details));
    else {
      outcome = message.result
        ? { cmp: message.cmp, accepted: true }
        : { cmp: message.cmp, accepted: false, error: errors.at(-1) ?? 'the rule found no way to accept the banner' };
      for (const finish of waiting) finish();
    }
  };
  await page.exposeFunction(REPORT_FUNCTION, hear);
  await page.evaluateOnNewDocument(await contentScript(acceptAtOnce ? 'optIn' : null));

  const result: BannerAcceptance['result'] = (timeoutMs) =>
    new Promise((resolve) => {
        if (outcome) return resolve(outcome);
        const finish = () => {
          clearTimeout(timer);
          waiting.delete(finish);
          page.off('close', finish);
          resolve(
            outcome ??
              (popupCmp === undefined
                ? undefined
                : { cmp: popupCmp, accepted: false, error: `accepting the banner did not finish within ${timeoutMs} ms` }),
          );
        };
        const timer = setTimeout(finish, timeoutMs);
        waiting.add(finish);
        page.once('close', finish);
      });

  return {
    result,
    found: () => outcome?.cmp ?? popupCmp,
    accept(timeoutMs) {
      for (const frame of page.frames()) {
        // Frames where autoconsent found nothing answer `none`, which hear() passes over.
        frame.evaluate(() => (window as unknown as { autoconsentReceiveMessage?: (message: { type: 'optIn' }) => unknown }).autoconsentReceiveMessage?.({ type: 'optIn' })).catch(() => {});
      }
      return result(timeoutMs);
    },
  };
}

type Report = Extract<ContentScriptMessage, { type: 'popupFound' | 'optInResult' | 'autoconsentError' }>;

/** A message as the content script sends it (anything on the page can call the function). */
function isReport(message: unknown): message is Report {
  if (typeof message !== 'object' || message === null) return false;
  const { type, cmp, result } = message as Record<string, unknown>;
  if (type === 'autoconsentError') return true;
  if (typeof cmp !== 'string') return false;
  return type === 'popupFound' || (type === 'optInResult' && typeof result === 'boolean' && cmp !== 'none');
}

function errorText(details: unknown): string {
  const text = typeof details === 'object' && details !== null && 'msg' in details ? details.msg : details;
  return typeof text === 'string' ? text : JSON.stringify(text);
}

const scripts = new Map<Config['autoAction'], Promise<string>>();

/**
 * The source run in each new document: a sender that answers the content script's `init` in the
 * page (with the config and rules) and passes the reports on, then autoconsent's own bundle.
 */
function contentScript(autoAction: Config['autoAction']): Promise<string> {
  let script = scripts.get(autoAction);
  if (script) return script;
  script = (async () => {
    const distribution = new URL('.', import.meta.resolve('@duckduckgo/autoconsent'));
    const [bundle, rules] = await Promise.all([
      readFile(new URL('autoconsent.playwright.js', distribution), 'utf8'),
      acceptingRules(new URL('../rules/autoconsent/', distribution)),
    ]);
    const initResponse = JSON.stringify({ type: 'initResp', config: { ...CONFIG, autoAction }, rules: { autoconsent: rules } });
    const sender = `(() => {
  const reported = ${JSON.stringify(REPORTED)};
  window.autoconsentSendMessage = (message) => {
    if (message.type === 'init') {
      // Sent while the content script starts, before it listens: answered right after.
      queueMicrotask(() => window.autoconsentReceiveMessage(JSON.parse(${JSON.stringify(initResponse)})));
    } else if (reported.includes(message.type) && typeof window.${REPORT_FUNCTION} === 'function') {
      window.${REPORT_FUNCTION}(message).catch(() => {});
    }
    return Promise.resolve();
  };
})();`;
    return `${sender}\n${bundle}`;
  })();
  scripts.set(autoAction, script);
  script.catch(() => scripts.delete(autoAction));
  return script;
}

/**
 * The package's hand-written CMP rules that can accept: its published `rules.json` is missing
 * from the npm package, and the compact rules it does ship carry opt-out steps only. The
 * generated site rules have no opt-in steps either.
 */
async function acceptingRules(folder: URL): Promise<AutoConsentCMPRule[]> {
  const files = (await readdir(folder)).filter((name) => name.endsWith('.json')).sort();
  const rules = await Promise.all(files.map(async (name) => JSON.parse(await readFile(new URL(name, folder), 'utf8')) as AutoConsentCMPRule));
  return rules.filter((rule) => !rule.cosmetic && (rule.optIn?.length ?? 0) > 0);
}
