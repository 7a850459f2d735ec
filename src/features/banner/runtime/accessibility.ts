/**
 * What vanilla-cookieconsent's modals lack for keyboard and screen-reader users, added once a
 * modal is drawn and when it opens.
 */

/** The text an HTML string shows (`&amp;` → `&`), without parsing it into elements. */
function shownText(html: string): string {
  const decoder = document.createElement('textarea');
  decoder.innerHTML = html;
  return decoder.value;
}

/**
 * Labels of the switches: cookieconsent writes the (already escaped) service and category names
 * into them as plain text, so `Beispiel &amp; Söhne` would be read out as written. Scrolling
 * parts get into the tab order, so a keyboard can scroll them.
 */
export function makeAccessible(modal: HTMLElement): void {
  for (const label of Array.from(modal.querySelectorAll<HTMLElement>('.toggle__label'))) label.textContent = shownText(label.textContent ?? '');
  // The cookie tables' cells name their column in `headers` by a key no header cell has as id; the
  // header cells' `scope="col"` says it already, and a `headers` that points nowhere misleads screen readers.
  for (const cell of Array.from(modal.querySelectorAll('td[headers]'))) cell.removeAttribute('headers');
  for (const region of Array.from(modal.querySelectorAll<HTMLElement>('.pm__body, .cm__texts'))) {
    if (!region.hasAttribute('tabindex') && (region.classList.contains('pm__body') || region.scrollHeight > region.clientHeight)) region.tabIndex = 0;
  }
}

/**
 * An opened modal is a dialog: the keyboard focus moves onto it, unless it is inside already. On
 * the dialog itself, not a button, so no choice is preselected: a screen reader reads its title
 * and text, and Tab reaches the buttons in their order.
 */
export function focusInto(modal: HTMLElement): void {
  if (modal.contains(document.activeElement)) return;
  if (!modal.hasAttribute('tabindex')) modal.tabIndex = -1;
  // cookieconsent shows the modal with a transition, and an element still hidden takes no focus: tried until it does (about a second at most).
  let tries = 20;
  const attempt = () => {
    if (modal.contains(document.activeElement)) return;
    modal.focus({ preventScroll: true });
    if (document.activeElement !== modal && --tries > 0) setTimeout(attempt, 50);
  };
  requestAnimationFrame(attempt);
}
