import { TCString } from '@iabtechlabtcf/core';
import { BitReader } from './iab-bits.ts';
import { type DecodedTcString, MAX_TC_STRING } from './privacy-strings.contract.ts';

/**
 * TC strings of IAB TCF 2.2, decoded with @iabtechlabtcf/core (no Global Vendor List needed).
 *
 * The library expands every vendor range it reads id by id, so a short crafted string of
 * overlapping ranges 1–65535 keeps it busy for seconds (about 0.9 s for 4 KiB). The intake is
 * public: before decoding, the string's ranges are added up here and a string naming more ids
 * than MAX_EXPANDED_IDS is refused. A real string names each vendor at most once per vector.
 */

/** The ids all vectors of one string may expand to: four full vectors of the 16-bit vendor id space. */
export const MAX_EXPANDED_IDS = 4 * 65_536;

/** The bits of a TCF 2 core segment before its vendor consents: version to publisherCC. */
const CORE_FIELDS_BITS = 6 + 36 + 36 + 12 + 12 + 6 + 12 + 12 + 6 + 1 + 1 + 12 + 24 + 24 + 1 + 12;
const TC_STRING_SHAPE = /^[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*$/;

/** The ids a list of range entries (isRange, id[, id]) expands to; null if the bits end first. */
function rangeEntries(reader: BitReader): number | null {
  const entries = reader.int(12);
  if (entries === null) return null;
  let count = 0;
  for (let entry = 0; entry < entries; entry++) {
    const isRange = reader.int(1);
    const first = reader.int(16);
    if (isRange === null || first === null) return null;
    if (isRange === 0) {
      count += 1;
      continue;
    }
    const last = reader.int(16);
    if (last === null) return null;
    count += Math.max(0, last - first + 1);
  }
  return count;
}

/** A vendor vector (maxId, encoding, bitfield or ranges): the ids it expands to; null if the bits end first. */
function vendorVector(reader: BitReader): number | null {
  const maxId = reader.int(16);
  const isRanges = reader.int(1);
  if (maxId === null || isRanges === null) return null;
  if (isRanges === 1) return rangeEntries(reader);
  return reader.skip(maxId) ? maxId : null;
}

/** The ids the string's vectors expand to, counted up to where its bits end; null: no TCF 2 string. */
function expandedIds(segments: string[]): number | null {
  const [core, ...others] = segments.map((segment) => BitReader.of(segment));
  if (!core || core.int(6) !== 2 || !core.skip(CORE_FIELDS_BITS - 6)) return null;
  let total = 0;
  const add = (count: number | null) => {
    total += count ?? 0;
    return count !== null;
  };
  if (add(vendorVector(core)) && add(vendorVector(core))) {
    // Publisher restrictions: each a purpose (6 bits), a type (2 bits) and its range entries.
    const restrictions = core.int(12) ?? 0;
    for (let index = 0; index < restrictions; index++) {
      if (!core.skip(8) || !add(rangeEntries(core))) break;
    }
  }
  for (const segment of others) {
    if (!segment) return null;
    const type = segment.int(3);
    // 1: disclosed vendors, 2: allowed vendors (TCF 2.0); 3, the publisher's purposes, has no vector.
    if (type === 1 || type === 2) add(vendorVector(segment));
  }
  return total;
}

/**
 * Whether the string has a TCF 2 string's shape and names at most MAX_EXPANDED_IDS ids: what
 * must hold before a library decodes it (the `tcfeuv2` section of a GPP string is one too).
 */
export function withinDecodingBounds(text: string): boolean {
  if (text.length > MAX_TC_STRING || !TC_STRING_SHAPE.test(text)) return false;
  const ids = expandedIds(text.split('.'));
  return ids !== null && ids <= MAX_EXPANDED_IDS;
}

const idsOf = (vector: { values(): IterableIterator<number> }) => [...vector.values()].sort((a, b) => a - b);

/** The string decoded; null when it is no TCF 2 TC string the library decodes (or names too many ids). */
export function decodeTcString(text: string): DecodedTcString | null {
  if (!withinDecodingBounds(text)) return null;
  try {
    const model = TCString.decode(text);
    const validDate = (date: unknown) => date instanceof Date && !Number.isNaN(date.getTime());
    if (model.version !== 2 || !validDate(model.created) || !validDate(model.lastUpdated)) return null;
    return {
      cmpId: Number(model.cmpId),
      cmpVersion: Number(model.cmpVersion),
      vendorListVersion: Number(model.vendorListVersion),
      policyVersion: Number(model.policyVersion),
      created: model.created.toISOString(),
      lastUpdated: model.lastUpdated.toISOString(),
      consentLanguage: model.consentLanguage,
      publisherCountryCode: model.publisherCountryCode,
      isServiceSpecific: model.isServiceSpecific,
      purposeConsents: idsOf(model.purposeConsents),
      purposeLegitimateInterests: idsOf(model.purposeLegitimateInterests),
      specialFeatureOptins: idsOf(model.specialFeatureOptins),
      vendorConsents: idsOf(model.vendorConsents),
      vendorLegitimateInterests: idsOf(model.vendorLegitimateInterests),
    };
  } catch {
    return null;
  }
}
