import * as CookieConsent from 'vanilla-cookieconsent';
import { eraseCookie } from './cookies.ts';
import type { Handover } from './handover.ts';
import { validStoredConsent } from './stored-consent.ts';
import type { BannerChoiceKind, TcfBridge } from './tcf/bridge.ts';

/** How long the banner waits for the TCF bundle before it shows itself without (it never stays away for it). */
const TCF_WAIT_MS = 3_000;

/**
 * The runtime's side of TCF (runtime/tcf/ is its own bundle): waits, bounded, for the bundle
 * before the banner shows, tells it what is shown and chosen, and sets the banner's services
 * when the visitor chooses in the TCF layers. Does nothing on domains without TCF.
 */
export function linkTcf(handover: Handover) {
  const { config } = handover;
  let bridge: TcfBridge | null = null;
  let reported = false;
  // The banner button that made the choice (cookieconsent's acceptType cannot tell "reject all" from
  // saving the settings with nothing on, nor "accept all" from saving with everything on).
  let pressed: string | null = null;
  const press = (role: string | null) => {
    pressed = role;
    setTimeout(() => (pressed = null));
  };
  if (config.tcf) {
    document.addEventListener('click', (event) => press((event.target as Element | null)?.closest?.('#cc-main [data-role]')?.getAttribute('data-role') ?? null), true);
  }

  const setServices = (states: Map<string, boolean>) => {
    // What follows is the TCF layers' choice carried over, not a choice of its own.
    press('save');
    const valid = CookieConsent.validConsent();
    const { acceptedServices } = CookieConsent.getUserPreferences();
    // A first choice made in the TCF layers: the banner's consent begins as "necessary only".
    if (!valid) CookieConsent.acceptCategory([]);
    for (const category of config.categories) {
      const ids = category.services.map((service) => service.id);
      if (category.readOnly || !ids.some((id) => states.has(id))) continue;
      const before = valid ? (acceptedServices[category.key] ?? []) : [];
      CookieConsent.acceptService(ids.filter((id) => states.get(id) ?? before.includes(id)), category.key);
    }
  };

  const found = (tcf: TcfBridge | null) => {
    bridge = tcf;
    if (!tcf) return;
    tcf.connect({ setServices, showPreferences: () => CookieConsent.showPreferences() });
    // The TCF choice is missing or stale (the vendors asked changed): the banner asks again.
    if (tcf.asksAgain(!!validStoredConsent(config))) {
      if (config.consent.storage === 'localStorage') localStorage.removeItem(config.consent.name);
      else eraseCookie(config.consent.name);
    }
  };
  const ready: Promise<void> =
    config.tcf && handover.tcfLoaded
      ? Promise.race([handover.tcfLoaded.then(() => handover.tcf ?? null), new Promise<null>((resolve) => setTimeout(resolve, TCF_WAIT_MS, null))])
          .catch(() => null)
          .then(found)
      : Promise.resolve();

  return {
    /** Settles when the TCF bundle is ready, has failed, or was not waited for any longer. */
    ready,
    /** A layer of the banner shows. */
    shown: () => bridge?.shown(),
    /** cookieconsent built a modal: the TCF layers go into it. */
    modalReady: (name: string, modal: HTMLElement) => bridge?.modalReady(name, modal),
    /**
     * The visitor chose (or changed their choice): once a choice, before its record and before
     * what it releases (service callbacks come before cookieconsent's choice callbacks).
     */
    chosen() {
      if (!bridge || reported) return;
      reported = true;
      setTimeout(() => (reported = false));
      const { acceptType, acceptedServices } = CookieConsent.getUserPreferences();
      const accepted = new Set(Object.values(acceptedServices).flat());
      const everything = config.categories.every((category) => category.readOnly || category.services.every((service) => accepted.has(service.id)));
      const byButton: Record<string, BannerChoiceKind> = { all: 'all', necessary: 'none', save: 'custom' };
      const kind: BannerChoiceKind = (pressed && byButton[pressed]) || (acceptType === 'necessary' ? 'none' : acceptType === 'all' && everything ? 'all' : 'custom');
      bridge.chose(kind, accepted);
    },
  };
}
