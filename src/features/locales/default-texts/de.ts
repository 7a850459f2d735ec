import type { LocaleTexts } from '../locale.contract.ts';

/** The default texts in German (formal address). */
export const de: LocaleTexts = {
  widgetTitle: 'Datenschutzeinstellungen',
  widgetIntroText:
    'Wir nutzen auf dieser Website Cookies und ähnliche Techniken sowie Dienste anderer Anbieter. Einige davon sind technisch notwendig, ' +
    'andere helfen uns, die Website zu verbessern, Inhalte wie Videos oder Karten einzubinden oder passende Werbung zu zeigen. ' +
    'Optionale Dienste setzen wir nur ein, wenn Sie einwilligen. Ihre Auswahl können Sie jederzeit in den Einstellungen ändern oder widerrufen. ' +
    'Mehr dazu erfahren Sie in unserer Datenschutzerklärung.',
  widgetDeclineButtonText: 'Nur notwendige',
  widgetFullConsentButtonText: 'Alle akzeptieren',
  widgetSettingsButtonText: 'Einstellungen',
  checkAllButtonText: 'Alle auswählen',
  uncheckAllButtonText: 'Alle abwählen',
  imprint: 'Impressum',
  imprintHtmlCode:
    '<p>{FIRMA}<br>{Firma_Ort}</p><p>Alle Angaben zum Anbieter dieser Website finden Sie in unserem <a href="{Firma_Impressum}">Impressum</a>.</p>',
  imprintUrl: '{Firma_Impressum}',
  privacyPolicy: 'Datenschutzerklärung',
  privacyPolicyHtmlCode:
    '<p>Wie {FIRMA} personenbezogene Daten verarbeitet und welche Rechte Sie dabei haben, erfahren Sie in unserer <a href="{Firma_Datenschutz}">Datenschutzerklärung</a>.</p>',
  privacyPolicyUrl: '{Firma_Datenschutz}',
  accessibility: 'Barrierefreiheit',
  accessibilityHtmlCode:
    '<p>{FIRMA} möchte diese Website für alle Menschen zugänglich machen. Wenn Ihnen Barrieren auffallen oder Sie Inhalte in einer anderen Form benötigen, ' +
    'wenden Sie sich bitte an uns. Unsere Kontaktdaten finden Sie im <a href="{Firma_Impressum}">Impressum</a>.</p>',
  accessibilityUrl: '{Firma_Impressum}',
  categoriesTitle: 'Auswahl anpassen',
  categoriesCancelButtonText: 'Zurück',
  categoriesFullConsentButtonText: 'Alle akzeptieren',
  categoriesSaveButtonText: 'Auswahl speichern',
  detailsTitle: 'Eingesetzte Dienste und Cookies',
  detailsCloseButtonText: 'Schließen',
  embeddingVendorLabel: 'Anbieter',
  embeddingDescriptionLabel: 'Beschreibung',
  embeddingPrivacyPolicyUrlLabel: 'Datenschutzerklärung des Anbieters',
  embeddingLifetimeLabel: 'Speicherdauer',
  embeddingWhichDataIsCollectedLabel: 'Erhobene Daten',
  embeddingPurposeOfDataCollectionLabel: 'Zweck der Datenerhebung',
  embeddingLegalBasisLabel: 'Rechtsgrundlage',
  embeddingPlaceOfProcessingLabel: 'Ort der Verarbeitung',
  embeddingAssetNameLabel: 'Name',
  embeddingAssetLifetimeLabel: 'Speicherdauer',
  embeddingAssetDescriptionLabel: 'Beschreibung',
  blockedContentTitle: 'Externer Inhalt',
  blockedContentDisclaimer:
    'Hier steht ein Inhalt eines anderen Anbieters. Wenn Sie ihn laden, werden Daten wie Ihre IP-Adresse an diesen Anbieter übertragen, ' +
    'und er kann Cookies auf Ihrem Gerät speichern.',
  blockedContentConsentButtonText: 'Inhalt laden',
  blockedContentConsentSwitchShowExternalContent: 'Externe Inhalte immer anzeigen',
  blockedContentConsentSwitchAllowEmbedding: 'Diesen Dienst immer erlauben',
  blockedContentConsentSwitchProviderDetails: 'Details zum Anbieter',
  purposeNames: {
    '41ba25c': 'Technisch notwendig',
    cdcbd7c: 'Werbung',
    a717ff5: 'Analyse und Statistik',
    '7c19e32': 'Personalisierung',
    '6cd2721': 'Soziale Medien',
    '15c61c3': 'Sonstiges',
  },
  purposeDescriptions: {
    '41ba25c':
      'Ohne diese Cookies und Dienste funktioniert die Website nicht, etwa weil sie Ihre Datenschutzeinstellungen oder einen Warenkorb speichern. Sie lassen sich deshalb nicht abwählen.',
    cdcbd7c: 'Damit zeigen wir und unsere Partner Ihnen Werbung, die zu Ihren Interessen passt, und messen, wie gut sie ankommt.',
    a717ff5:
      'Damit erfahren wir, wie Besucher die Website nutzen, zum Beispiel welche Seiten sie aufrufen. So können wir Inhalte und Technik verbessern.',
    '7c19e32': 'Damit merkt sich die Website Ihre Vorlieben, etwa Sprache oder Region, und passt Inhalte an Sie an.',
    '6cd2721':
      'Damit sehen Sie Inhalte aus sozialen Netzwerken und können Beiträge dort teilen. Die Netzwerke können dabei Daten über Sie erheben.',
    '15c61c3': 'Dienste, die zu keinem der anderen Zwecke gehören, zum Beispiel eingebundene Videos oder Karten.',
  },
  changeConsentText: 'Datenschutzeinstellungen ändern',
  moreInformationLabel: 'Weitere Informationen',
  questionMarkButtonText: 'Was bedeutet das?',
  tcfVendorIntroText:
    'Wir arbeiten mit Partnern zusammen, die am Transparency and Consent Framework (TCF) von IAB Europe teilnehmen. Hier sehen Sie, welcher Partner ' +
    'welche Daten zu welchen Zwecken verarbeiten möchte. Einige Partner berufen sich dabei auf ein berechtigtes Interesse; dem können Sie widersprechen.',
  tcfPurposeLabel: 'Zwecke',
  tcfSpecialPurposeLabel: 'Besondere Zwecke',
  tcfFeaturesLabel: 'Funktionen',
  tcfSpecialFeaturesLabel: 'Besondere Funktionen',
  tcfOptedInRemark: '(von Ihnen erlaubt)',
  tcfThirdPartiesLabel: 'Partner',
  nonTcfPurposesLabel: 'Weitere Zwecke',
  nonTcfVendorsLabel: 'Weitere Anbieter',
  tcfVendorUsesNonCookieStorageText:
    'Dieser Partner speichert Informationen auf Ihrem Gerät nicht nur in Cookies, sondern auch auf anderem Weg, zum Beispiel im Speicher Ihres Browsers.',
  tcfSpecialFeaturesHandledGloballyText: 'Besondere Funktionen erlauben oder verbieten Sie für alle Partner gemeinsam.',
  tcfStacksListText: 'Einige Zwecke sind zu Gruppen zusammengefasst, denen Sie gemeinsam zustimmen können:',
  tcfCookieRefreshText: 'Die Speicherdauer der Cookies dieses Partners kann sich bei jedem Besuch verlängern.',
  tcfExtendedDisclosureText: 'Ausführliche Angaben zur Speicherung',
  tcfAssetTypeLabel: 'Art',
  tcfAssetPurposesLabel: 'Zwecke',
};
