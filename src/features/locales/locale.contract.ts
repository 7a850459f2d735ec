import { z } from 'zod';
import { createSchema, fieldList, responseSchema, updateSchema } from '../../kernel/contract/field-list.ts';
import { localeName, PURPOSES, type PurposeId, text } from '../../kernel/contract/fields.ts';

/**
 * Locale: the texts of a domain's consent banner in one language, and whether the banner offers
 * that language (`active`). The active locales of a domain are its `locales` list.
 */

/**
 * Every plain text of a locale, with what it is for. `…Url` texts are addresses: an absolute
 * URL, or a `{placeholder}` reference standing for one (the domain's placeholders fill it in).
 */
const LOCALE_TEXTS = {
  widgetTitle: 'The heading of the consent banner.',
  widgetIntroText: 'The main text of the consent banner: what the site stores and why it asks for consent.',
  widgetDeclineButtonText: 'The banner button that declines everything but what is technically necessary.',
  widgetFullConsentButtonText: 'The banner button that accepts every purpose.',
  widgetSettingsButtonText: 'The banner button that opens the settings, where visitors choose purposes one by one.',
  checkAllButtonText: 'The settings button that switches every purpose on (shown when the theme enables it).',
  uncheckAllButtonText: 'The settings button that switches every optional purpose off (shown when the theme enables it).',
  imprint: 'The label of the link to the imprint.',
  imprintHtmlCode: 'The imprint as HTML, shown inside the banner when the domain displays it directly.',
  imprintUrl: 'The address of the imprint page, when the domain links to it.',
  privacyPolicy: 'The label of the link to the privacy policy.',
  privacyPolicyHtmlCode: 'The privacy policy as HTML, shown inside the banner when the domain displays it directly.',
  privacyPolicyUrl: 'The address of the privacy policy page, when the domain links to it.',
  accessibility: 'The label of the link to the accessibility statement.',
  accessibilityHtmlCode: 'The accessibility statement as HTML, shown inside the banner when the domain displays it directly.',
  accessibilityUrl: 'The address of the accessibility statement, when the domain links to it.',
  categoriesTitle: 'The heading of the settings, where visitors choose purposes one by one.',
  categoriesCancelButtonText: 'The settings button that leaves them without saving.',
  categoriesFullConsentButtonText: 'The settings button that accepts every purpose.',
  categoriesSaveButtonText: 'The settings button that saves the choice made.',
  detailsTitle: 'The heading of the details of the services (embeddings) and their cookies.',
  detailsCloseButtonText: 'The button that closes the details.',
  embeddingVendorLabel: "The label of a service's provider in the details.",
  embeddingDescriptionLabel: "The label of a service's description in the details.",
  embeddingPrivacyPolicyUrlLabel: "The label of the link to a service provider's privacy policy.",
  embeddingLifetimeLabel: "The label of how long an embedding keeps what it stores, in its details (settings and cookie declaration): every distinct lifetime of its cookies and storage keys, none left out.",
  embeddingWhichDataIsCollectedLabel: 'The label of which data a service collects.',
  embeddingPurposeOfDataCollectionLabel: 'The label of why a service collects data.',
  embeddingLegalBasisLabel: 'The label of the legal basis a service processes data on.',
  embeddingPlaceOfProcessingLabel: 'The label of where a service processes data.',
  embeddingAssetNameLabel: 'The label of the name of a cookie or storage entry.',
  embeddingAssetLifetimeLabel: 'The label of how long a cookie or storage entry is kept.',
  embeddingAssetDescriptionLabel: 'The label of what a cookie or storage entry is for.',
  blockedContentTitle: 'The heading shown in place of external content (a video, a map) that waits for consent.',
  blockedContentDisclaimer: 'The text shown in place of blocked external content: what loading it means.',
  blockedContentConsentButtonText: 'The button that loads blocked external content once.',
  blockedContentConsentSwitchShowExternalContent: 'The switch that always loads external content of this kind.',
  blockedContentConsentSwitchAllowEmbedding: 'The switch that always allows the service behind blocked content.',
  blockedContentConsentSwitchProviderDetails: "The link on a blocked iframe's notice (an embedding's) that opens the settings at the embedding's details (its provider, what it collects, its privacy policy); empty: no link.",
  changeConsentText: 'The link text that reopens the consent settings (the cookie declaration, the footer).',
  moreInformationLabel: "The link after the first layer's text that opens the settings with every purpose's embeddings and details, before any choice; empty: no link.",
  questionMarkButtonText: "The accessible name of the question-mark button beside each purpose in the settings, which unfolds that purpose's embeddings and their details; empty: no buttons.",
  tcfVendorIntroText: 'The introduction to the list of IAB TCF vendors.',
  tcfPurposeLabel: 'The heading of the TCF purposes.',
  tcfSpecialPurposeLabel: 'The heading of the TCF special purposes.',
  tcfFeaturesLabel: 'The heading of the TCF features.',
  tcfSpecialFeaturesLabel: 'The heading of the TCF special features.',
  tcfOptedInRemark: 'The remark beside a TCF special feature the visitor has opted in to.',
  tcfThirdPartiesLabel: 'The heading of the TCF vendors (third parties).',
  nonTcfPurposesLabel: 'The heading of the purposes outside the TCF.',
  nonTcfVendorsLabel: 'The heading of the vendors outside the TCF.',
  tcfVendorUsesNonCookieStorageText: 'The note that a TCF vendor also stores data by other means than cookies.',
  tcfSpecialFeaturesHandledGloballyText: 'The note that consent to TCF special features applies to every vendor using them.',
  tcfStacksListText: 'The introduction to TCF stacks: purposes grouped to be agreed to together.',
  tcfCookieRefreshText: "The note that a TCF vendor's cookies may be renewed, and their lifetime with them.",
  tcfExtendedDisclosureText: "The label of the link to a TCF vendor's detailed storage disclosure.",
  tcfAssetTypeLabel: 'The label of the kind of a TCF storage entry (cookie, web storage, …).',
  tcfAssetPurposesLabel: 'The label of the purposes of a TCF storage entry.',
} as const;

export type LocaleTextKey = keyof typeof LOCALE_TEXTS;
export const LOCALE_TEXT_KEYS = Object.keys(LOCALE_TEXTS) as LocaleTextKey[];

const PURPOSE_IDS = Object.keys(PURPOSES) as PurposeId[];
const purposeList = PURPOSE_IDS.map((id) => `\`${id}\` (${PURPOSES[id]})`).join(', ');

/** purpose id → text, every purpose. */
export type PurposeTexts = Record<PurposeId, string>;

/**
 * Everything a locale says: every text and a name and a description per purpose. The default
 * texts (default-texts/) are of this type, so a language that lacks one fails the type check.
 */
export type LocaleTexts = { [K in LocaleTextKey]: string } & {
  purposeNames: PurposeTexts;
  purposeDescriptions: PurposeTexts;
};

const purposeShape = <T extends z.ZodType>(item: () => T) =>
  Object.fromEntries(PURPOSE_IDS.map((id) => [id, item().meta({ description: `The text for the purpose ${PURPOSES[id]}.` })])) as unknown as Record<
    PurposeId,
    T
  >;

/** purpose id → text: in writes any of the purposes (the others keep their text), in responses all of them. */
const purposeTexts = (what: string) => ({
  write: z.strictObject(purposeShape(() => text().optional())).meta({
    description: `${what}, keyed by purpose id: ${purposeList}. A write may send some of them; the others keep their text.`,
  }),
  read: z.strictObject(purposeShape(() => text())).meta({ description: `${what}, keyed by purpose id: ${purposeList}.` }),
});

const textFields = Object.fromEntries(
  LOCALE_TEXT_KEYS.map((key) => [key, { write: text().meta({ description: LOCALE_TEXTS[key] }) }]),
) as { [K in LocaleTextKey]: { readonly write: ReturnType<typeof text> } };

const localeNameField = localeName.meta({
  description: 'The locale: a language and region such as `de_DE`, or a bare language such as `fr`. Unique within the domain.',
});

export const localeFields = fieldList({
  name: {
    write: localeNameField,
    /** The operation checks that it repeats the name of the locale being updated. */
    update: localeName.meta({ description: 'Absent, or equal to the name of the locale being updated: locales are not renamed.' }),
    required: true,
  },
  active: {
    write: z.boolean().meta({
      description: "Whether the banner offers this language; the domain's `locales` lists the active ones. Default true.",
    }),
    default: true,
  },
  ...textFields,
  purposeNames: purposeTexts('The name of each purpose, as the banner shows it'),
  purposeDescriptions: purposeTexts('What each purpose means, for visitors'),
});

export const localeCreate = createSchema(localeFields).meta({
  id: 'LocaleCreate',
  examples: [{ name: 'fr_FR', widgetTitle: 'Votre vie privée', widgetFullConsentButtonText: 'Tout accepter', widgetDeclineButtonText: 'Refuser' }],
});
export const localeUpdate = updateSchema(localeFields).meta({ id: 'LocaleUpdate', examples: [{ widgetTitle: 'Cookies et vie privée' }] });
/** A locale as the service sends it: every text filled in. */
export const localeResponse = responseSchema(localeFields).meta({ id: 'Locale' });

export type Locale = z.output<typeof localeResponse>;
export type LocaleCreate = z.infer<typeof localeCreate>;
export type LocaleUpdate = z.infer<typeof localeUpdate>;
export { PURPOSE_IDS };
