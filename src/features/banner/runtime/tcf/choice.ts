import type { TcfSettings, TcfVendorList } from '../../banner-config.ts';

/**
 * The visitor's TCF choice, shared by the CMP (index.ts, tc-model.ts) and the TCF layers (layers.ts).
 * Ids are the Global Vendor List's: purposes 1–11, special features 1–2, vendor ids.
 */
export type TcfChoice = {
  purposesConsent: Set<number>;
  /** Purposes processed on legitimate interest: established (some asked vendor declares it) and not objected to. */
  purposesLegitimateInterest: Set<number>;
  vendorsConsent: Set<number>;
  /** Vendors whose legitimate interest is established and not objected to. */
  vendorsLegitimateInterest: Set<number>;
  specialFeatures: Set<number>;
  /** Google's Additional Consent: the consented ATP provider ids (absent: none; only when the domain asks for them). */
  additionalConsent?: Set<number>;
};

/** The vendors the banner asks for, as the list describes them (a vendor missing from the list is left out). */
export const askedVendors = (settings: TcfSettings, list: TcfVendorList) =>
  settings.vendorIds.map((id) => list.vendors[String(id)]).filter((vendor) => vendor !== undefined);

/** The purposes some asked vendor processes on consent (its `purposes` or `flexiblePurposes`). */
export const consentPurposes = (settings: TcfSettings, list: TcfVendorList): Set<number> => {
  const ids = new Set<number>();
  for (const vendor of askedVendors(settings, list)) for (const id of [...vendor.purposes, ...vendor.flexiblePurposes]) ids.add(id);
  return new Set([...ids].filter((id) => list.purposes[String(id)] !== undefined).sort((a, b) => a - b));
};

/** The purposes some asked vendor claims a legitimate interest for: the interest is established unless objected to. */
export const legitimateInterestPurposes = (settings: TcfSettings, list: TcfVendorList): Set<number> => {
  const ids = new Set<number>();
  for (const vendor of askedVendors(settings, list)) for (const id of vendor.legIntPurposes) ids.add(id);
  return new Set([...ids].filter((id) => list.purposes[String(id)] !== undefined).sort((a, b) => a - b));
};

/**
 * The asked vendors with a legitimate interest: for some purpose, or (TCF policy since June 2021)
 * for their special purposes, which need no consent.
 */
export const legitimateInterestVendors = (settings: TcfSettings, list: TcfVendorList): Set<number> =>
  new Set(
    askedVendors(settings, list)
      .filter((vendor) => vendor.legIntPurposes.length > 0 || vendor.specialPurposes.length > 0)
      .map((vendor) => vendor.id),
  );

/** "Accept all": every purpose, special feature and vendor consented; every legitimate interest established. */
export const allAccepted = (settings: TcfSettings, list: TcfVendorList): TcfChoice => ({
  purposesConsent: new Set(Object.keys(list.purposes).map(Number).sort((a, b) => a - b)),
  purposesLegitimateInterest: legitimateInterestPurposes(settings, list),
  vendorsConsent: new Set(askedVendors(settings, list).map((vendor) => vendor.id)),
  vendorsLegitimateInterest: legitimateInterestVendors(settings, list),
  specialFeatures: new Set(settings.specialFeatures.filter((id) => list.specialFeatures[String(id)] !== undefined)),
  additionalConsent: new Set(settings.additionalConsentProviders ?? []),
});

/** "Reject all": no consent at all; a legitimate interest stays established (objecting to it is a separate act in the layers). */
export const allRejected = (settings: TcfSettings, list: TcfVendorList): TcfChoice => ({
  purposesConsent: new Set(),
  purposesLegitimateInterest: legitimateInterestPurposes(settings, list),
  vendorsConsent: new Set(),
  vendorsLegitimateInterest: legitimateInterestVendors(settings, list),
  specialFeatures: new Set(),
  additionalConsent: new Set(),
});

/** A copy the layers can edit without touching the original. */
export const copyChoice = (choice: TcfChoice): TcfChoice => ({
  purposesConsent: new Set(choice.purposesConsent),
  purposesLegitimateInterest: new Set(choice.purposesLegitimateInterest),
  vendorsConsent: new Set(choice.vendorsConsent),
  vendorsLegitimateInterest: new Set(choice.vendorsLegitimateInterest),
  specialFeatures: new Set(choice.specialFeatures),
  additionalConsent: new Set(choice.additionalConsent ?? []),
});
