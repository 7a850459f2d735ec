import type { LocaleTexts } from '../locale.contract.ts';

/** The default texts in English; also those of every language without texts of its own. */
export const en: LocaleTexts = {
  widgetTitle: 'Privacy settings',
  widgetIntroText:
    'This website uses cookies, similar technologies and services from other providers. Some of them are essential for the site to work; ' +
    'others help us improve it, show content such as videos or maps, or display relevant advertising. ' +
    'We only use optional services if you agree. You can change or withdraw your choice at any time in the settings. ' +
    'Our privacy policy tells you more.',
  widgetDeclineButtonText: 'Essential only',
  widgetFullConsentButtonText: 'Accept all',
  widgetSettingsButtonText: 'Settings',
  checkAllButtonText: 'Select all',
  uncheckAllButtonText: 'Deselect all',
  imprint: 'Legal notice',
  imprintHtmlCode:
    '<p>{FIRMA}<br>{Firma_Ort}</p><p>You will find full details of who runs this website in our <a href="{Firma_Impressum}">legal notice</a>.</p>',
  imprintUrl: '{Firma_Impressum}',
  privacyPolicy: 'Privacy policy',
  privacyPolicyHtmlCode:
    '<p>How {FIRMA} processes personal data, and what rights you have, is explained in our <a href="{Firma_Datenschutz}">privacy policy</a>.</p>',
  privacyPolicyUrl: '{Firma_Datenschutz}',
  accessibility: 'Accessibility',
  accessibilityHtmlCode:
    '<p>{FIRMA} wants this website to be usable by everyone. If you come across a barrier or need content in another format, please get in touch. ' +
    'You will find our contact details in the <a href="{Firma_Impressum}">legal notice</a>.</p>',
  accessibilityUrl: '{Firma_Impressum}',
  categoriesTitle: 'Customise your choice',
  categoriesCancelButtonText: 'Back',
  categoriesFullConsentButtonText: 'Accept all',
  categoriesSaveButtonText: 'Save choice',
  detailsTitle: 'Services and cookies we use',
  detailsCloseButtonText: 'Close',
  embeddingVendorLabel: 'Provider',
  embeddingDescriptionLabel: 'Description',
  embeddingPrivacyPolicyUrlLabel: "Provider's privacy policy",
  embeddingLifetimeLabel: 'Storage period',
  embeddingWhichDataIsCollectedLabel: 'Data collected',
  embeddingPurposeOfDataCollectionLabel: 'Purpose of collection',
  embeddingLegalBasisLabel: 'Legal basis',
  embeddingPlaceOfProcessingLabel: 'Place of processing',
  embeddingAssetNameLabel: 'Name',
  embeddingAssetLifetimeLabel: 'Storage period',
  embeddingAssetDescriptionLabel: 'Description',
  blockedContentTitle: 'External content',
  blockedContentDisclaimer:
    'This content comes from another provider. If you load it, data such as your IP address will be sent to that provider, ' +
    'which may also store cookies on your device.',
  blockedContentConsentButtonText: 'Load content',
  blockedContentConsentSwitchShowExternalContent: 'Always show external content',
  blockedContentConsentSwitchAllowEmbedding: 'Always allow this service',
  blockedContentConsentSwitchProviderDetails: 'About the provider',
  purposeNames: {
    '41ba25c': 'Essential',
    cdcbd7c: 'Advertising',
    a717ff5: 'Analytics and statistics',
    '7c19e32': 'Personalisation',
    '6cd2721': 'Social media',
    '15c61c3': 'Other',
  },
  purposeDescriptions: {
    '41ba25c':
      'The website cannot work without these cookies and services, for instance because they remember your privacy settings or a shopping basket. They cannot be switched off.',
    cdcbd7c: 'These let us and our partners show you advertising that matches your interests and measure how well it works.',
    a717ff5: 'These tell us how visitors use the website, such as which pages they open, so that we can improve its content and technology.',
    '7c19e32': 'These let the website remember your preferences, such as your language or region, and tailor content to you.',
    '6cd2721':
      'These show you content from social networks and let you share posts there. The networks may collect data about you when you do.',
    '15c61c3': 'Services that belong to none of the other purposes, such as embedded videos or maps.',
  },
  changeConsentText: 'Change privacy settings',
  moreInformationLabel: 'More information',
  questionMarkButtonText: 'What does this mean?',
  tcfVendorIntroText:
    "We work with partners who take part in IAB Europe's Transparency and Consent Framework (TCF). Here you can see which partner wants to process " +
    'which data, and for which purposes. Some partners rely on a legitimate interest to do so; you have the right to object.',
  tcfPurposeLabel: 'Purposes',
  tcfSpecialPurposeLabel: 'Special purposes',
  tcfFeaturesLabel: 'Features',
  tcfSpecialFeaturesLabel: 'Special features',
  tcfOptedInRemark: '(allowed by you)',
  tcfThirdPartiesLabel: 'Partners',
  nonTcfPurposesLabel: 'Other purposes',
  nonTcfVendorsLabel: 'Other providers',
  tcfVendorUsesNonCookieStorageText:
    'Besides cookies, this partner also stores information on your device by other means, such as your browser’s storage.',
  tcfSpecialFeaturesHandledGloballyText: 'You allow or refuse special features for all partners at once.',
  tcfStacksListText: 'Some purposes are grouped together so that you can agree to them in one go:',
  tcfCookieRefreshText: "The storage period of this partner's cookies may be extended each time you visit.",
  tcfExtendedDisclosureText: 'Detailed storage information',
  tcfAssetTypeLabel: 'Type',
  tcfAssetPurposesLabel: 'Purposes',
};
