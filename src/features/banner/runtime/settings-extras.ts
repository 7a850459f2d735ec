import type { BannerConfig } from '../banner-config.ts';

/** `settingsFooter`: the first layer's links (imprint, privacy policy, accessibility) at the foot of the settings too. */
export function addSettingsFooter(config: BannerConfig, modal: HTMLElement, locale: string): void {
  const links = config.texts[locale]?.translation.consentModal.footer;
  if (!links || modal.querySelector('.ccm-settings-footer')) return;
  const footer = document.createElement('div');
  footer.className = 'pm__footer ccm-settings-footer';
  const group = document.createElement('div');
  group.className = 'cm__link-group';
  // Built and sanitised by the server.
  group.innerHTML = links;
  footer.append(group);
  modal.append(footer);
}

/**
 * `settingsCheckAndUncheckAllButtons`: two buttons above the purposes that switch every purpose
 * and service that can be switched on or off. Nothing is saved until the visitor saves.
 */
export function addCheckAllButtons(config: BannerConfig, modal: HTMLElement, locale: string): void {
  const labels = config.texts[locale]?.checkAll;
  const body = modal.querySelector('.pm__body');
  if (!labels || !body || modal.querySelector('.ccm-check-all')) return;
  const row = document.createElement('div');
  row.className = 'ccm-check-all';
  for (const on of [true, false]) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'pm__btn pm__btn--secondary';
    button.setAttribute('data-role', on ? 'check-all' : 'uncheck-all');
    button.innerHTML = `<span>${on ? labels.on : labels.off}</span>`;
    button.addEventListener('click', () => {
      // A purpose's toggle comes before its services': its change sets theirs.
      for (const toggle of modal.querySelectorAll<HTMLInputElement>('input.section__toggle:not(:disabled)')) {
        if (toggle.checked === on) continue;
        toggle.checked = on;
        toggle.dispatchEvent(new Event('change'));
      }
    });
    row.append(button);
  }
  body.prepend(row);
}
