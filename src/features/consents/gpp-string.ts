import { GppModel, Sections, TcfEuV2, TcfCaV1, UsNat } from '@iabgpp/cmpapi';
import { withinDecodingBounds } from './tc-string.ts';
import { BitReader } from './iab-bits.ts';
import { type DecodedGppString, type DecodedUsNat, MAX_GPP_STRING } from './privacy-strings.contract.ts';

/**
 * Strings of the IAB Global Privacy Platform, decoded with @iabgpp/cmpapi's GppModel (it runs in
 * Node: the encoder needs no browser).
 *
 * The library reads the header's section ids as Fibonacci-coded ranges and expands them id by
 * id: a header of a few characters can name a range of billions, which would hang the service.
 * So the header is read here first (type 3, version 1, each section id one the library knows),
 * and a `tcfeuv2` section gets the TC string's check of its vendor ranges (tc-string.ts). The
 * Canadian TCF section (`tcfcav1`) codes its vendor ranges the same unbounded way and is refused;
 * the banner never writes it.
 */

const GPP_STRING_SHAPE = /^[A-Za-z0-9_-]+(?:~[A-Za-z0-9_.-]+)*$/;
/** Fibonacci codes of the header's ids: 12 bits go past 233, more than any section id. */
const MAX_ID_BITS = 12;

/** The section ids the header names, in order; null when it is no GPP v1 header of known sections. */
function headerSectionIds(header: string): number[] | null {
  const reader = BitReader.of(header);
  if (!reader || reader.int(6) !== 3 || reader.int(6) !== 1) return null;
  const entries = reader.int(12);
  if (entries === null) return null;
  const ids: number[] = [];
  let offset = 0;
  for (let entry = 0; entry < entries; entry++) {
    const isRange = reader.int(1);
    const start = reader.fibonacci(MAX_ID_BITS);
    if (isRange === null || start === null) return null;
    offset += start;
    let end = offset;
    if (isRange === 1) {
      const width = reader.fibonacci(MAX_ID_BITS);
      if (width === null) return null;
      end = offset + width;
    }
    for (let id = offset; id <= end; id++) {
      if (!Sections.SECTION_ID_NAME_MAP.has(id) || id === TcfCaV1.ID) return null;
      ids.push(id);
    }
    offset = end;
  }
  return ids;
}

const usnatOf = (fields: Record<string, unknown>): DecodedUsNat => ({
  version: fields.Version as number,
  sharingNotice: fields.SharingNotice as number,
  saleOptOutNotice: fields.SaleOptOutNotice as number,
  sharingOptOutNotice: fields.SharingOptOutNotice as number,
  targetedAdvertisingOptOutNotice: fields.TargetedAdvertisingOptOutNotice as number,
  sensitiveDataProcessingOptOutNotice: fields.SensitiveDataProcessingOptOutNotice as number,
  sensitiveDataLimitUseNotice: fields.SensitiveDataLimitUseNotice as number,
  saleOptOut: fields.SaleOptOut as number,
  sharingOptOut: fields.SharingOptOut as number,
  targetedAdvertisingOptOut: fields.TargetedAdvertisingOptOut as number,
  sensitiveDataProcessing: [...(fields.SensitiveDataProcessing as number[])],
  knownChildSensitiveDataConsents: [...(fields.KnownChildSensitiveDataConsents as number[])],
  personalDataConsents: fields.PersonalDataConsents as number,
  mspaCoveredTransaction: fields.MspaCoveredTransaction as number,
  mspaOptOutOptionMode: fields.MspaOptOutOptionMode as number,
  mspaServiceProviderMode: fields.MspaServiceProviderMode as number,
  gpc: fields.GpcSegmentIncluded === false ? null : typeof fields.Gpc === 'boolean' ? fields.Gpc : null,
});

/** The string decoded; null when it is no GPP string the library decodes (or one this service refuses, see above). */
export function decodeGppString(text: string): DecodedGppString | null {
  if (text.length > MAX_GPP_STRING || !GPP_STRING_SHAPE.test(text)) return null;
  const [header = '', ...sections] = text.split('~');
  const ids = headerSectionIds(header);
  if (!ids || ids.length !== sections.length || new Set(ids).size !== ids.length) return null;
  const tcfSection = ids.indexOf(TcfEuV2.ID);
  if (tcfSection >= 0 && !withinDecodingBounds(sections[tcfSection]!)) return null;
  try {
    const model = new GppModel(text);
    // Every section decoded now, so that a broken one is found at the intake, not in the evidence.
    const decoded = model.toObject() as Record<string, Record<string, unknown>>;
    const names = ids.map((id) => Sections.SECTION_ID_NAME_MAP.get(id)!);
    if (names.some((name) => !decoded[name])) return null;
    const usnat = decoded[UsNat.NAME];
    return { sections: ids.map((id, index) => ({ id, name: names[index]! })), usnat: usnat ? usnatOf(usnat) : null };
  } catch {
    return null;
  }
}
