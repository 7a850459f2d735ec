import * as CookieConsent from 'vanilla-cookieconsent';
import type { BannerConfig } from '../banner-config.ts';
import { US_OPT_OUT_CATEGORIES, US_OPT_OUT_NOTE } from './us-privacy.ts';

/**
 * The Do-Not-Sell control's choice, saved as a banner choice is (stored, recorded): every purpose
 * but those withheld, with a note in the stored consent that it was this opt-out.
 */
export function saveUsOptOut(config: BannerConfig): void {
  CookieConsent.acceptCategory(config.categories.map((category) => category.key).filter((key) => !US_OPT_OUT_CATEGORIES.includes(key)));
  CookieConsent.setCookieData({ value: { [US_OPT_OUT_NOTE]: true }, mode: 'update' });
}
