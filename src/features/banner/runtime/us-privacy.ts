import type { BannerConfig } from '../banner-config.ts';
import { readStoredRecord, validStoredConsent } from './stored-consent.ts';

/**
 * `usPrivacyModel` `opt-out`: what a US visitor's opt-out of sale and sharing withholds. The
 * purposes whose embeddings sell or share personal data or use it for targeted advertising:
 * advertising (`marketing`), personalised content (`personalisation`) and social media plugins
 * (`social_media`, which hand the visit to the platforms' ad profiles). Analytics and the rest go on.
 */
export const US_OPT_OUT_CATEGORIES: readonly string[] = ['marketing', 'personalisation', 'social_media'];

/** The link on a page that opens the "Do Not Sell or Share My Personal Information" control. */
export const DO_NOT_SELL_HASH = '#ccm-do-not-sell';

/** Marks, in the stored consent (cookieconsent's `data`), a choice made in the Do-Not-Sell control. */
export const US_OPT_OUT_NOTE = 'usOptOut';

/** Whether the browser sends Global Privacy Control (or app.js was asked with `Sec-GPC: 1`). */
export const gpcSent = (): boolean =>
  (navigator as Navigator & { globalPrivacyControl?: unknown }).globalPrivacyControl === true || (window as { __ccmSecGpc?: unknown }).__ccmSecGpc === 1;

/**
 * Whether the visitor's stored choice opts out of sale and sharing: it accepts no embedding of
 * the withheld purposes, and was made in the Do-Not-Sell control or withholds at least one such
 * embedding of the domain (a "reject" in the banner's settings is an opt-out too).
 */
export function storedOptOut(config: BannerConfig): boolean {
  const stored = validStoredConsent(config);
  if (!stored) return false;
  const withheld = config.categories.filter((category) => US_OPT_OUT_CATEGORIES.includes(category.key));
  if (withheld.some((category) => (stored.services[category.key] ?? []).length > 0)) return false;
  const data = readStoredRecord(config.consent)?.data as Record<string, unknown> | undefined;
  return data?.[US_OPT_OUT_NOTE] === true || withheld.some((category) => category.services.length > 0);
}
