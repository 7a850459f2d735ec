/**
 * Where the banner asks every visitor (`enableOnlyInEu`): the EU and the EEA, and, by this
 * service's choice, the United Kingdom and Switzerland, whose laws ask the same of cookies.
 * Also the parts of those states that have country codes of their own: the EU's outermost
 * regions and Åland (EU law applies there), and the Crown Dependencies and Gibraltar (laws
 * modelled on the GDPR). `EU` is what some databases name European ranges by.
 */
const ASKED = new Set([
  // The EU.
  'AT', 'BE', 'BG', 'HR', 'CY', 'CZ', 'DK', 'EE', 'FI', 'FR', 'DE', 'GR', 'HU', 'IE', 'IT', 'LV', 'LT', 'LU', 'MT', 'NL',
  'PL', 'PT', 'RO', 'SK', 'SI', 'ES', 'SE',
  // Its outermost regions and Åland.
  'GF', 'GP', 'MQ', 'RE', 'YT', 'MF', 'AX',
  // The rest of the EEA.
  'IS', 'LI', 'NO',
  // The United Kingdom, its Crown Dependencies and Gibraltar; Switzerland.
  'GB', 'GG', 'JE', 'IM', 'GI', 'CH',
  'EU',
]);

/**
 * Whether a visitor from `country` (ISO 3166-1 alpha-2, upper case) is asked. A visitor whose
 * country is not known is asked: only a known country outside the region skips the banner.
 */
export function asksConsent(country: string | undefined): boolean {
  return country === undefined || ASKED.has(country);
}
