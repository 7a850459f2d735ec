import * as CookieConsent from 'vanilla-cookieconsent';
import type { BannerConfig } from '../banner-config.ts';
import { plainText } from './html-text.ts';

/**
 * The theme's `showPurposesInMainWindow`, as CCM19 describes it: every purpose with a switch in
 * the first layer, a Save button beside "accept all" and "decline", and the settings button
 * turned into a text link below them. The switches start off (the necessary purpose on and
 * locked) unless the visitor chose before; Save consents to exactly what is switched on.
 */

const firstLayerInputs = () => [...document.querySelectorAll<HTMLInputElement>('#cc-main .ccm-purpose input')];

/** Before a choice, the settings show what the visitor switched in the first layer (cookieconsent draws them from the saved choice). */
export function carryIntoSettings(): void {
  if (CookieConsent.validConsent()) return;
  for (const input of firstLayerInputs()) {
    const toggle = document.querySelector<HTMLInputElement>(`#cc-main .pm input.section__toggle[value="${input.value}"]`);
    if (!toggle || toggle.disabled || toggle.checked === input.checked) continue;
    toggle.checked = input.checked;
    toggle.dispatchEvent(new Event('change'));
  }
}

/** The switches show the saved choice again when the first layer reopens. */
export function showSavedChoice(): void {
  if (!CookieConsent.validConsent()) return;
  for (const input of firstLayerInputs()) input.checked = input.disabled || CookieConsent.acceptedCategory(input.value);
}

export function addFirstLayerPurposes(config: BannerConfig, modal: HTMLElement, locale: string): void {
  const texts = config.texts[locale]?.translation.preferencesModal;
  const buttons = modal.querySelector('.cm__btns');
  if (!texts || !buttons || modal.querySelector('.ccm-purposes')) return;

  const group = document.createElement('div');
  group.className = 'ccm-purposes';
  group.setAttribute('role', 'group');
  group.setAttribute('aria-label', plainText(texts.title));
  for (const category of config.categories) {
    const label = document.createElement('label');
    label.className = 'ccm-purpose';
    const input = document.createElement('input');
    input.type = 'checkbox';
    input.value = category.key;
    input.disabled = category.readOnly;
    input.checked = category.readOnly || (CookieConsent.validConsent() && CookieConsent.acceptedCategory(category.key));
    input.addEventListener('change', carryIntoSettings);
    const name = document.createElement('span');
    // Section titles come escaped from the server.
    name.innerHTML = texts.sections.find((section) => section.linkedCategory === category.key)?.title ?? category.key;
    label.append(input, name);
    group.append(label);
  }
  buttons.before(group);

  const save = document.createElement('button');
  save.type = 'button';
  save.className = 'cm__btn';
  save.setAttribute('data-role', 'save');
  save.innerHTML = `<span>${texts.savePreferencesBtn}</span>`;
  save.addEventListener('click', () => {
    CookieConsent.acceptCategory(firstLayerInputs().filter((input) => input.checked).map((input) => input.value));
    CookieConsent.hide();
    CookieConsent.hidePreferences();
  });
  const beside = modal.querySelector('.cm__btn[data-role="all"], .cm__btn[data-role="necessary"]');
  (beside?.parentElement ?? buttons).append(save);

  const settings = modal.querySelector('.cm__btn[data-role="show"]');
  if (settings) {
    const previous = settings.parentElement;
    const row = document.createElement('div');
    row.className = 'ccm-settings-link';
    row.append(settings);
    buttons.after(row);
    if (previous && previous.children.length === 0) previous.remove();
  }
}
