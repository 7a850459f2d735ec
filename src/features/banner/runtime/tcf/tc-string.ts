import { GVL, TCModel, TCString, type Vector } from '@iabtechlabtcf/core';
import type { TcfSettings, TcfVendorList } from '../../banner-config.ts';
import type { TcfChoice } from './choice.ts';

export type TcStrings = {
  /** The TC string of a choice, encoded with the domain's vendor list. */
  encode(choice: TcfChoice): string;
  /** The choice a TC string encodes, limited to what the banner asks now; null when it cannot be read. */
  decode(tcString: string): TcfChoice | null;
  /** The list as `@iabtechlabtcf/core` reads it (getVendorList answers with its JSON). */
  gvl: GVL;
};

/** The TC string's consent language: the banner locale's language (`de-CH` → `DE`), English when the GVL knows none such. */
export function consentLanguageOf(locale: string): string {
  const language = locale.split(/[-_]/)[0]!.toUpperCase();
  return GVL.consentLanguages.has(language) ? language : 'EN';
}

const idsOf = (vector: Vector): Set<number> => {
  const ids = new Set<number>();
  vector.forEach((value, id) => {
    if (value) ids.add(id);
  });
  return ids;
};

/** TC strings for the domain: service-specific, the CMP's id and version, the vendors limited to those the banner asks for. */
export function tcStrings(settings: TcfSettings, list: TcfVendorList, locale: string): TcStrings {
  const { translations: _translations, ...vendorList } = list;
  const gvl = new GVL(vendorList as unknown as ConstructorParameters<typeof GVL>[0]);
  gvl.narrowVendorsTo(settings.vendorIds);
  const asked = new Set(settings.vendorIds);
  const askedFeatures = new Set(settings.specialFeatures);

  return {
    gvl,
    encode(choice) {
      const model = new TCModel(gvl);
      model.cmpId = settings.cmpId;
      model.cmpVersion = settings.cmpVersion;
      model.isServiceSpecific = true;
      model.publisherCountryCode = settings.publisherCountryCode;
      model.consentLanguage = consentLanguageOf(locale);
      model.vendorListVersion = list.vendorListVersion;
      model.policyVersion = settings.policyVersion;
      model.purposeConsents.set([...choice.purposesConsent]);
      model.purposeLegitimateInterests.set([...choice.purposesLegitimateInterest]);
      model.vendorConsents.set([...choice.vendorsConsent].filter((id) => asked.has(id)));
      model.vendorLegitimateInterests.set([...choice.vendorsLegitimateInterest].filter((id) => asked.has(id)));
      model.specialFeatureOptins.set([...choice.specialFeatures].filter((id) => askedFeatures.has(id)));
      // TCF 2.2: every vendor the banner showed is disclosed (the string's disclosed-vendors segment).
      model.vendorsDisclosed.set(settings.vendorIds.filter((id) => gvl.vendors[id] !== undefined));
      return TCString.encode(model);
    },
    decode(tcString) {
      try {
        const model = TCString.decode(tcString);
        return {
          purposesConsent: idsOf(model.purposeConsents),
          purposesLegitimateInterest: idsOf(model.purposeLegitimateInterests),
          vendorsConsent: new Set([...idsOf(model.vendorConsents)].filter((id) => asked.has(id))),
          vendorsLegitimateInterest: new Set([...idsOf(model.vendorLegitimateInterests)].filter((id) => asked.has(id))),
          specialFeatures: new Set([...idsOf(model.specialFeatureOptins)].filter((id) => askedFeatures.has(id))),
        };
      } catch {
        return null;
      }
    },
  };
}
