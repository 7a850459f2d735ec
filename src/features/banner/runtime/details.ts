import type { BannerConfig } from '../banner-config.ts';
import { plainText } from './html-text.ts';

/**
 * The ways into an embedding's details in the settings: CCM19's question mark beside each
 * purpose (`questionMarkButtonText`) and links marked `data-ccm-details="<embedding id>"` (a
 * blocked iframe's "about the provider", more-details.build.ts). cookieconsent keeps a purpose's
 * embeddings and their details folded under its title; these unfold them.
 */

const sectionOf = (root: ParentNode, key: string) =>
  root.querySelector(`input.section__toggle[value="${CSS.escape(key)}"]`)?.closest('.pm__section--expandable') ?? null;

/** Unfolds a purpose's section as a click on its title would, and brings it (or one embedding's row in it) into view. */
function unfold(section: Element, serviceId?: string): void {
  const title = section.querySelector('[aria-controls]');
  section.classList.add('is-expanded');
  if (title) {
    title.setAttribute('aria-expanded', 'true');
    document.getElementById(title.getAttribute('aria-controls')!)?.setAttribute('aria-hidden', 'false');
  }
  const row = serviceId ? section.querySelector(`input[value="${CSS.escape(serviceId)}"]`)?.closest('.pm__service') : null;
  (row ?? section).scrollIntoView({ block: 'start' });
}

/** A question-mark button beside each purpose of the settings that has details to show. */
export function addQuestionMarks(config: BannerConfig, modal: HTMLElement, locale: string): void {
  const label = config.texts[locale]?.questionMark;
  if (!label) return;
  for (const category of config.categories) {
    const section = sectionOf(modal, category.key);
    const title = section?.querySelector('[aria-controls]');
    if (!section || !title || section.querySelector('.ccm-question-mark')) continue;
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'ccm-question-mark';
    // cookieconsent unstyles its buttons: drawn left of the purpose's switch (at 18px + 50px from the right), the title making room.
    button.style.cssText =
      'position:absolute;right:78px;z-index:1;width:24px;height:24px;border-radius:50%;text-align:center;background:var(--cc-btn-secondary-bg);color:var(--cc-btn-secondary-color);font-weight:700';
    (title as HTMLElement).style.paddingRight = '112px';
    button.textContent = '?';
    button.title = plainText(label);
    button.setAttribute('aria-label', button.title);
    button.addEventListener('click', () => unfold(section));
    title.after(button);
  }
}

/** Links to an embedding's details: they open the settings (their `#CCM.openControlPanel`), then unfold the embedding's purpose. */
export function openDetailsOnClick(config: BannerConfig): void {
  document.addEventListener('click', (event) => {
    const id = event.target instanceof Element ? event.target.closest('[data-ccm-details]')?.getAttribute('data-ccm-details') : null;
    const category = id ? config.categories.find((candidate) => candidate.services.some((service) => service.id === id)) : undefined;
    // After the settings are drawn.
    if (category) setTimeout(() => {
      const section = sectionOf(document.querySelector('#cc-main .pm') ?? document.createDocumentFragment(), category.key);
      if (section) unfold(section, id!);
    });
  });
}
