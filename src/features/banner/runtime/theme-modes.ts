import * as CookieConsent from 'vanilla-cookieconsent';
import type { BannerConfig } from '../banner-config.ts';
import { addFirstLayerPurposes, carryIntoSettings, showSavedChoice } from './first-layer-purposes.ts';
import { keepBannerShown, refuseSimulatedClicks } from './manipulation-guard.ts';
import { addCheckAllButtons, addSettingsFooter } from './settings-extras.ts';

/** The theme settings that add parts to cookieconsent's modals or guard them (BannerConfig `themeModes`), hooked into its callbacks. */
export function themeModes(config: BannerConfig, locale: () => string) {
  const modes = config.themeModes;
  return {
    /** A modal was drawn (again after a change of language). */
    ready(name: string, modal: HTMLElement) {
      if (name === 'consentModal') {
        if (modes?.purposesInFirstLayer) addFirstLayerPurposes(config, modal, locale());
      } else {
        if (modes?.settingsFooter ?? true) addSettingsFooter(config, modal, locale());
        if (modes?.checkAllButtons) addCheckAllButtons(config, modal, locale());
      }
      if (modes?.manipulationPrevention) refuseSimulatedClicks(modal);
    },
    shown(name: string) {
      if (!modes?.purposesInFirstLayer) return;
      if (name === 'consentModal') showSavedChoice();
      else carryIntoSettings();
    },
    /** cookieconsent has run: guards the banner if it is showing and waits for a choice. */
    started() {
      if (modes?.manipulationPrevention && !CookieConsent.validConsent() && document.documentElement.classList.contains('show--consent')) keepBannerShown();
    },
  };
}
