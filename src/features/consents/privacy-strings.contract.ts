import { z } from 'zod';

/**
 * The strings of the IAB frameworks a consent record may carry, as the evidence decodes them
 * (tc-string.ts, ac-string.ts, gpp-string.ts): the TC string of IAB TCF 2.2, Google's Additional
 * Consent string, and the IAB Global Privacy Platform string.
 */

const ids = (description: string) => z.array(z.int().min(1)).meta({ description: `${description} Ascending.` });

export const decodedTcString = z
  .strictObject({
    cmpId: z.int().meta({ description: 'The IAB-registered id of the CMP that wrote the string.' }),
    cmpVersion: z.int(),
    vendorListVersion: z.int().meta({ description: 'The Global Vendor List version the choice was made under.' }),
    policyVersion: z.int().meta({ description: 'The TCF policy version.' }),
    created: z.string().meta({ description: 'When the string was first made (ISO 8601; TCF 2.2 keeps only the day).' }),
    lastUpdated: z.string().meta({ description: 'When it was last changed (ISO 8601; the day).' }),
    consentLanguage: z.string().meta({ description: 'The language the banner spoke (ISO 639-1, upper case).' }),
    publisherCountryCode: z.string().meta({ description: "`publisherCC`: the publisher's country (ISO 3166-1 alpha-2)." }),
    isServiceSpecific: z.boolean(),
    purposeConsents: ids('The purposes the visitor consented to.'),
    purposeLegitimateInterests: ids('The purposes whose legitimate interest the visitor did not object to.'),
    specialFeatureOptins: ids('The special features the visitor opted in to.'),
    vendorConsents: ids('The vendors the visitor consented to.'),
    vendorLegitimateInterests: ids('The vendors whose legitimate interest the visitor did not object to.'),
  })
  .meta({ id: 'DecodedTcString', description: 'A TC string of IAB TCF 2.2, decoded.' });

export const decodedAcString = z
  .strictObject({
    version: z.union([z.literal(1), z.literal(2)]).meta({ description: 'The format: 1 (consented ids only) or 2 (also the disclosed ones).' }),
    consentedProviders: ids('The Google Ad Tech Providers the visitor consented to.'),
    disclosedProviders: ids('Version 2: the providers listed as disclosed (`dv.`); empty for version 1.'),
  })
  .meta({ id: 'DecodedAcString', description: "Google's Additional Consent string, decoded." });

/** A usnat value: 0 not applicable, 1 yes / opted out / no consent (as the field says), 2 no / did not opt out / consent. */
const usnatValue = z.int().min(0).max(3);

export const decodedUsNat = z
  .strictObject({
    version: z.int(),
    sharingNotice: usnatValue,
    saleOptOutNotice: usnatValue,
    sharingOptOutNotice: usnatValue,
    targetedAdvertisingOptOutNotice: usnatValue,
    sensitiveDataProcessingOptOutNotice: usnatValue,
    sensitiveDataLimitUseNotice: usnatValue,
    saleOptOut: usnatValue.meta({ description: 'Opted out of the sale of personal data: 1 yes, 2 no, 0 not applicable.' }),
    sharingOptOut: usnatValue.meta({ description: 'Opted out of sharing for cross-context behavioural advertising: 1 yes, 2 no, 0 not applicable.' }),
    targetedAdvertisingOptOut: usnatValue.meta({ description: 'Opted out of targeted advertising: 1 yes, 2 no, 0 not applicable.' }),
    sensitiveDataProcessing: z.array(usnatValue).meta({ description: 'Per sensitive data category: 1 opted out (or no consent), 2 did not opt out (or consent), 0 not applicable.' }),
    knownChildSensitiveDataConsents: z.array(usnatValue),
    personalDataConsents: usnatValue,
    mspaCoveredTransaction: usnatValue,
    mspaOptOutOptionMode: usnatValue,
    mspaServiceProviderMode: usnatValue,
    gpc: z.boolean().nullable().meta({ description: 'The Global Privacy Control signal as the string carries it; null: the string has no GPC segment.' }),
  })
  .meta({ id: 'DecodedUsNat', description: 'The US National section (usnat) of a GPP string, decoded.' });

export const decodedGppString = z
  .strictObject({
    sections: z
      .array(z.strictObject({ id: z.int(), name: z.string() }))
      .meta({ description: "The sections the string holds (the header's section ids), with the names GPP gives them." }),
    usnat: decodedUsNat.nullable().meta({ description: 'The usnat section; null: the string has none.' }),
  })
  .meta({ id: 'DecodedGppString', description: 'A string of the IAB Global Privacy Platform, decoded.' });

export const decodedPrivacyStrings = z
  .strictObject({
    tcString: decodedTcString.nullable().meta({ description: "The record's `tcString`, decoded; null: the record has none." }),
    acString: decodedAcString.nullable().meta({ description: "The record's `acString`, decoded; null: none." }),
    gppString: decodedGppString.nullable().meta({ description: "The record's `gppString`, decoded; null: none." }),
  })
  .meta({ id: 'DecodedPrivacyStrings' });

export type DecodedTcString = z.output<typeof decodedTcString>;
export type DecodedAcString = z.output<typeof decodedAcString>;
export type DecodedUsNat = z.output<typeof decodedUsNat>;
export type DecodedGppString = z.output<typeof decodedGppString>;
export type DecodedPrivacyStrings = z.output<typeof decodedPrivacyStrings>;

/** The longest strings the intake takes (a TC string of a thousand vendors is well under 1 KiB; an AC string lists a few hundred ids twice). */
export const MAX_TC_STRING = 4096;
export const MAX_AC_STRING = 16_384;
export const MAX_GPP_STRING = 8192;
