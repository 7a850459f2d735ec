import type { Page } from 'puppeteer-core';

/**
 * Decides each top-level navigation of a tab as it starts, before its request leaves the browser:
 * the first request of a page and every hop of a redirect (HTTP or scripted) alike. The crawl uses
 * it so that a redirect to a page another tab is loading or has loaded is stopped at once rather
 * than loading that page a second time (noticing it once the page arrived is too late: its tags
 * have run and been counted). Only documents are paused (CDP Fetch, resource type Document), so a
 * page's scripts, images and requests pass untouched; frames pass without a decision.
 *
 * `allow(url)`: true lets the navigation go on; false refuses it (the navigation fails with
 * net::ERR_BLOCKED_BY_CLIENT).
 */
export async function gateNavigations(page: Page, allow: (url: string) => boolean): Promise<void> {
  const cdp = await page.createCDPSession();
  const { frameTree } = await cdp.send('Page.getFrameTree');
  const top = frameTree.frame.id;
  cdp.on('Fetch.requestPaused', (event) => {
    const go = event.frameId !== top || allow(event.request.url);
    const answer = go
      ? cdp.send('Fetch.continueRequest', { requestId: event.requestId })
      : cdp.send('Fetch.failRequest', { requestId: event.requestId, errorReason: 'BlockedByClient' });
    answer.catch(() => {}); // the tab closed meanwhile
  });
  await cdp.send('Fetch.enable', { patterns: [{ urlPattern: '*', resourceType: 'Document', requestStage: 'Request' }] });
}
