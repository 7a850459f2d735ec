import { type DecodedAcString, MAX_AC_STRING } from './privacy-strings.contract.ts';

/**
 * Google's Additional Consent string: version 1 `1~<consented ids>`, version 2
 * `2~<consented ids>~dv.<disclosed ids>`, ids dot-separated, either list possibly empty.
 */

const ID_LIST = '(?:[1-9][0-9]{0,8}(?:\\.[1-9][0-9]{0,8})*)?';
const VERSION_1 = new RegExp(`^1~(${ID_LIST})$`);
const VERSION_2 = new RegExp(`^2~(${ID_LIST})~dv\\.(${ID_LIST})$`);

const idList = (text: string | undefined) => (text ? [...new Set(text.split('.').map(Number))].sort((a, b) => a - b) : []);

/** The string decoded; null when it has neither format. */
export function decodeAcString(text: string): DecodedAcString | null {
  if (text.length > MAX_AC_STRING) return null;
  const first = VERSION_1.exec(text);
  if (first) return { version: 1, consentedProviders: idList(first[1]), disclosedProviders: [] };
  const second = VERSION_2.exec(text);
  if (second) return { version: 2, consentedProviders: idList(second[1]), disclosedProviders: idList(second[2]) };
  return null;
}
