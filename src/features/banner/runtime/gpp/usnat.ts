import { type CmpApi, UsNat } from '@iabgpp/cmpapi';

// The section's two-bit answers (MSPA US National technical specification).
const YES = 1;
const NO = 2;
const NOT_APPLICABLE = 0;

/** What this banner knows of a US visitor's choice. */
export type UsChoice = { optedOut: boolean; gpc: boolean };

/**
 * The US National section (usnat, id 7) for a visitor of a domain with the opt-out model. The
 * page gave notice of the right to opt out of sale, sharing and targeted advertising (the
 * Do-Not-Sell control), so those notices are "yes"; each opt-out is "opted out" when the visitor
 * opted out or sends Global Privacy Control, "did not opt out" otherwise. This banner asks for
 * no sensitive data and no data of known children: those fields are "not applicable". The
 * operator signs no MSPA through this service: covered transaction "no", its modes "not applicable".
 */
export function writeUsNat(cmp: CmpApi, { optedOut, gpc }: UsChoice): void {
  const section = UsNat.NAME;
  const optOut = optedOut || gpc ? YES : NO;
  const fields: Record<string, unknown> = {
    SharingNotice: YES,
    SaleOptOutNotice: YES,
    SharingOptOutNotice: YES,
    TargetedAdvertisingOptOutNotice: YES,
    SensitiveDataProcessingOptOutNotice: NOT_APPLICABLE,
    SensitiveDataLimitUseNotice: NOT_APPLICABLE,
    SaleOptOut: optOut,
    SharingOptOut: optOut,
    TargetedAdvertisingOptOut: optOut,
    SensitiveDataProcessing: new Array<number>(16).fill(NOT_APPLICABLE),
    KnownChildSensitiveDataConsents: [NOT_APPLICABLE, NOT_APPLICABLE, NOT_APPLICABLE],
    PersonalDataConsents: NOT_APPLICABLE,
    MspaCoveredTransaction: NO,
    MspaOptOutOptionMode: NOT_APPLICABLE,
    MspaServiceProviderMode: NOT_APPLICABLE,
    GpcSegmentIncluded: true,
    Gpc: gpc,
  };
  for (const [field, value] of Object.entries(fields)) cmp.setFieldValue(section, field, value);
}
