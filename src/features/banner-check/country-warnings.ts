import { asksConsent } from '../banner/region/consent-region.ts';
import type { BannerWarning } from './banner-warning.contract.ts';
import type { PublishedConfiguration } from '../banner/published-configuration.ts';

/**
 * What the domain's `country` (where the site and its operator are; CCM19 keeps it as
 * information, `null` falling back to the account's profile, which this service does not keep)
 * says about its banner. Unknown (`ZZ`) or unset: nothing.
 *
 * - countryOnlyInEu: a site of the EU, the EEA, the United Kingdom or Switzerland (the region
 *   where the banner asks everyone) whose theme asks only visitors from there (`enableOnlyInEu`).
 *   The data protection law of an operator established there binds it for every visitor (GDPR
 *   Art. 3(1)), wherever the visitor is.
 * - countryLanguageMissing: no active locale speaks the country's most likely language (CLDR's
 *   likely subtags, through Intl), so the site's own visitors read the banner in a foreign one.
 */
type Warning = Pick<BannerWarning, 'rule' | 'path' | 'message'> & Partial<Pick<BannerWarning, 'related'>>;

const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });
const languageNames = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'code' });

/** The language most spoken in `country` (`de` for AT, `nl` for BE), by CLDR's likely subtags. */
export const likelyLanguageOf = (country: string): string => new Intl.Locale(`und-${country}`).maximize().language;

export function countryWarnings({ domain, theme }: Pick<PublishedConfiguration, 'domain' | 'theme'>): Warning[] {
  const country = domain.country;
  if (country === null || country === 'ZZ') return [];
  const warnings: Warning[] = [];
  const name = `${regionNames.of(country)} (${country})`;
  if (theme?.enableOnlyInEu && asksConsent(country)) {
    warnings.push({
      rule: 'countryOnlyInEu',
      path: `/theme/${theme.id}/enableOnlyInEu`,
      related: ['/country'],
      message: `The site is in ${name}, whose data protection law binds its operator for every visitor (GDPR Art. 3(1)); enableOnlyInEu leaves visitors from elsewhere unasked.`,
    });
  }
  const language = likelyLanguageOf(country);
  if (!domain.locales.some((locale) => locale.split(/[_-]/)[0]!.toLowerCase() === language)) {
    warnings.push({
      rule: 'countryLanguageMissing',
      path: '/locales',
      related: ['/country'],
      message: `The site is in ${name}, where ${languageNames.of(language)} (${language}) is most spoken, and no active locale is in it: its visitors read the banner in another language.`,
    });
  }
  return warnings;
}
