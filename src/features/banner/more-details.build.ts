import { escapeHtml } from '../../kernel/html.ts';
import type { Embedding } from '../embeddings/embedding.contract.ts';

/**
 * The ways to an embedding's details that CCM19's locale texts name: its storage period in the
 * details (`embeddingLifetimeLabel`), the first layer's "more information" link
 * (`moreInformationLabel`) and the "about the provider" link on a blocked iframe's notice
 * (`blockedContentConsentSwitchProviderDetails`). Links open the settings through the
 * `#CCM.openControlPanel` target the runtime handles; `data-ccm-details` (runtime/details.ts)
 * then unfolds the purpose of the embedding it names.
 */

/**
 * How long an embedding keeps what it stores: the distinct lifetimes of its assets in the
 * visitor's locale (else as entered), in their order. Lifetimes are free text ("2 years",
 * "Sitzung"), so none is left out as shorter: the visitor reads every one.
 */
export function storagePeriods(embedding: Embedding, locale: string): string {
  const periods = embedding.assets.map((asset) => (asset.translations[locale]?.lifetime || asset.lifetime).trim()).filter(Boolean);
  return [...new Set(periods)].join(', ');
}

/** The first layer's link to the settings (an escaped label); empty without a label. */
export const moreInformationLink = (label: string): string =>
  label ? ` <a href="#CCM.openControlPanel" class="ccm-more-information">${label}</a>` : '';

/** The notice's link to the embedding's details in the settings (an escaped label). */
export const providerDetailsLink = (embeddingId: string, label: string): string =>
  ` <a href="#CCM.openControlPanel" class="ccm-provider-details" data-ccm-details="${escapeHtml(embeddingId)}">${label}</a>`;
