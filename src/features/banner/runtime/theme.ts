import type { BannerConfig } from '../banner-config.ts';
import { plainText } from './html-text.ts';

const ICON =
  '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path fill="currentColor" d="M12 2a10 10 0 1 0 10 10 4 4 0 0 1-5-5 4 4 0 0 1-5-5Zm-3.5 7a1.5 1.5 0 1 1 0 3 1.5 1.5 0 0 1 0-3Zm7 5a1.5 1.5 0 1 1 0 3 1.5 1.5 0 0 1 0-3Zm-6 3a1 1 0 1 1 0 2 1 1 0 0 1 0-2Z"/></svg>';

/** The theme's logo at the top of the consent modal's texts, above the title. */
export function addLogo(config: BannerConfig, modal: HTMLElement): void {
  const texts = modal.querySelector('.cm__texts');
  if (!config.layout.logo || !texts || texts.querySelector('.ccm-logo')) return;
  const logo = document.createElement('img');
  logo.className = 'ccm-logo';
  logo.alt = '';
  logo.src = config.layout.logo;
  texts.prepend(logo);
}

/** The floating button that reopens the settings; shown once there is a consent or the banner was closed. */
export function createSettingsButton(config: BannerConfig, label: string, open: (which: 'consent' | 'preferences') => void) {
  const settings = config.layout.settingsIcon;
  let button: HTMLButtonElement | null = null;
  return {
    show() {
      if (!settings || button) return;
      button = document.createElement('button');
      button.type = 'button';
      button.className = 'ccm-settings-button';
      button.setAttribute('aria-label', plainText(label));
      button.setAttribute('aria-haspopup', 'dialog');
      if (settings.image) {
        const image = document.createElement('img');
        image.alt = '';
        image.src = settings.image;
        button.append(image);
      } else {
        button.innerHTML = ICON;
      }
      button.addEventListener('click', () => open(settings.opens));
      document.body.append(button);
    },
    relabel(text: string) {
      button?.setAttribute('aria-label', plainText(text));
    },
  };
}
