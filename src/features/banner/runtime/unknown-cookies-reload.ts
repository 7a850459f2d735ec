import type { BannerConfig } from '../banner-config.ts';
import { cookieNames } from './cookies.ts';

/**
 * `deleteUnknownCookiesForceReload`: after a choice removed cookies no embedding declares, the
 * page is loaded again, so that no script that ran before the choice keeps going on it. Never in
 * a loop: only a choice the visitor made with their own hand on this page reloads it (the
 * browser's user activation; a choice made for them on load, by a privacy signal or a framing
 * page, never does), and where a browser cannot tell, a page the banner reloaded within the
 * last minute is not reloaded again.
 */

const MARK = 'ccm_reloaded';

function reloadedLately(): boolean {
  try {
    return Date.now() - Number(sessionStorage.getItem(MARK)) < 60_000;
  } catch {
    // Nothing to tell by: no reload rather than one too many.
    return true;
  }
}

/**
 * `tried`: the names `eraseUnknownCookies` expired; the page reloads when one of them is really
 * gone. `madeForVisitor`: the runtime made the choice itself (a privacy signal), which never
 * reloads — the user activation alone cannot tell, since any earlier tap on the page counts.
 */
export function reloadIfErased(config: BannerConfig, tried: string[], madeForVisitor: boolean): void {
  if (!config.reloadAfterDeletingCookies || madeForVisitor) return;
  const left = new Set(cookieNames());
  if (!tried.some((name) => !left.has(name))) return;
  const activation = navigator.userActivation as UserActivation | undefined;
  if (!(activation ? activation.hasBeenActive : !reloadedLately())) return;
  try {
    sessionStorage.setItem(MARK, String(Date.now()));
  } catch {
    // The activation alone guards.
  }
  // After cookieconsent and the page's listeners are through with the choice (its record is a keepalive request).
  setTimeout(() => location.reload());
}
