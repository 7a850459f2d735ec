import * as CookieConsent from 'vanilla-cookieconsent';

/**
 * The theme's `manipulationPrevention`. As CCM19 documents it, a click that a script simulates
 * (`element.click()`, a dispatched event: not the visitor's own) on what would consent does
 * nothing. Beyond that, a banner that a page script or an extension removes or hides before the
 * visitor chose comes back; meanwhile nothing is released, as without a choice.
 */

/** What a simulated click must not operate: consenting buttons, switches and their labels. */
const GRANTING = '[data-role="all"],[data-role="save"],[data-role="check-all"],input,label';

const refuse = (event: Event) => {
  if (event.isTrusted) return;
  event.preventDefault();
  event.stopImmediatePropagation();
};

/**
 * Listens on the banner's root and on each element itself, in the capture phase (before
 * cookieconsent's own listeners): a click on an element taken out of the page never reaches the document.
 */
export function refuseSimulatedClicks(modal: HTMLElement): void {
  modal.querySelectorAll(GRANTING).forEach((element) => element.addEventListener('click', refuse, true));
  const root = modal.closest('#cc-main');
  if (root && !root.hasAttribute('data-ccm-guarded')) {
    root.setAttribute('data-ccm-guarded', '');
    root.addEventListener('click', (event) => event.target instanceof Element && event.target.closest(GRANTING) && refuse(event), true);
  }
}

/** After this many restorations the watch stops reacting at once (a script fighting back) and only checks every second. */
const MAX_EAGER_RESTORES = 50;

/** Keeps the banner in the page and visible until there is a valid consent. */
export function keepBannerShown(): void {
  const root = document.getElementById('cc-main');
  if (!root || CookieConsent.validConsent()) return;
  const forced: [HTMLElement, string][] = [];
  const force = (element: HTMLElement, property: string, value: string) => {
    element.style.setProperty(property, value, 'important');
    forced.push([element, property]);
    restores++;
  };
  let restores = 0;
  const check = () => {
    if (CookieConsent.validConsent()) {
      observer.disconnect();
      clearInterval(timer);
      for (const [element, property] of forced) element.style.removeProperty(property);
      return;
    }
    if (!root.isConnected) {
      (document.body ?? document.documentElement).append(root);
      restores++;
    }
    const shown = document.documentElement.classList;
    if (!shown.contains('show--consent') && !shown.contains('show--preferences')) {
      CookieConsent.show();
      shown.add('show--consent');
      restores++;
    }
    const modal = root.querySelector<HTMLElement>(shown.contains('show--preferences') ? '.pm' : '.cm');
    for (const element of modal ? [root, modal] : [root]) {
      const style = getComputedStyle(element);
      if (style.display === 'none') force(element, 'display', element === root ? 'block' : 'flex');
      if (style.visibility !== 'visible') force(element, 'visibility', 'visible');
      // A modal fades in: only a settled opacity of 0 is hiding it.
      if (style.opacity === '0' && element.getAnimations().length === 0) force(element, 'opacity', '1');
    }
    if (restores > MAX_EAGER_RESTORES) observer.disconnect();
  };
  const observer = new MutationObserver(check);
  observer.observe(document.documentElement, { childList: true, subtree: true, attributes: true, attributeFilter: ['class', 'style', 'hidden'] });
  // Rules added through the CSSOM (insertRule) change no node: checked every second.
  const timer = setInterval(check, 1000);
}
