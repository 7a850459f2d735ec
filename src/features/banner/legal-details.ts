import type { Embedding, EmbeddingTranslation } from '../embeddings/embedding.contract.ts';

/**
 * The texts of an embedding that CCM19 lists as its legal information (shown to the visitor
 * before consent): changing one changes what a consent was given to.
 */
export const EMBEDDING_LEGAL_TEXTS = [
  'description',
  'whatDataIsCollected',
  'purposeOfDataCollection',
  'legalBasis',
  'placeOfProcessing',
] as const satisfies readonly (keyof Embedding & keyof EmbeddingTranslation)[];

/** The lists that say what the embedding does with consent: Consent Mode types, TCF purposes and special features. */
export const EMBEDDING_LEGAL_LISTS = ['googleConsentMode', 'tcfPurposes', 'tcfSpecialFeatures'] as const satisfies readonly (keyof Embedding)[];

/** A translation's fields that are legal information: the texts above, the name and the privacy policy's address. */
const TRANSLATED_LEGAL = ['name', 'privacyPolicyUrl', ...EMBEDDING_LEGAL_TEXTS] as const;

/**
 * The legal details of an embedding beyond its name, purpose, vendor, policy address, assets and
 * code, each named only when set: an embedding that sets none of them keeps the legal hash it had
 * before they counted, so counting them asks no visitor of such a site again.
 */
export function legalDetailsOf(embedding: Embedding): Record<string, unknown> {
  const details: Record<string, unknown> = {};
  for (const field of EMBEDDING_LEGAL_TEXTS) if (embedding[field] !== '') details[field] = embedding[field];
  for (const field of EMBEDDING_LEGAL_LISTS) {
    if (embedding[field].length > 0) details[field] = [...(embedding[field] as readonly (string | number)[])].sort();
  }
  const translations = Object.keys(embedding.translations)
    .sort()
    .flatMap((locale) => {
      const translation = embedding.translations[locale]!;
      const legal = TRANSLATED_LEGAL.flatMap((field) => (translation[field] ? [[field, translation[field]] as const] : []));
      return legal.length > 0 ? [[locale, Object.fromEntries(legal)] as const] : [];
    });
  if (translations.length > 0) details.translations = Object.fromEntries(translations);
  return details;
}
