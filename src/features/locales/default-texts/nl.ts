import type { LocaleTexts } from '../locale.contract.ts';

/** The default texts in Dutch (formal address). */
export const nl: LocaleTexts = {
  widgetTitle: 'Privacy-instellingen',
  widgetIntroText:
    'Deze website gebruikt cookies, vergelijkbare technieken en diensten van andere aanbieders. Een deel daarvan is noodzakelijk om de website te laten werken; ' +
    'andere helpen ons de website te verbeteren, inhoud zoals video’s of kaarten te tonen of passende advertenties te laten zien. ' +
    'Optionele diensten gebruiken wij alleen met uw toestemming. U kunt uw keuze op elk moment wijzigen of intrekken in de instellingen. ' +
    'Meer hierover leest u in onze privacyverklaring.',
  widgetDeclineButtonText: 'Alleen noodzakelijke',
  widgetFullConsentButtonText: 'Alles accepteren',
  widgetSettingsButtonText: 'Instellingen',
  checkAllButtonText: 'Alles selecteren',
  uncheckAllButtonText: 'Alles deselecteren',
  imprint: 'Colofon',
  imprintHtmlCode:
    '<p>{FIRMA}<br>{Firma_Ort}</p><p>Alle gegevens over de aanbieder van deze website vindt u in ons <a href="{Firma_Impressum}">colofon</a>.</p>',
  imprintUrl: '{Firma_Impressum}',
  privacyPolicy: 'Privacyverklaring',
  privacyPolicyHtmlCode:
    '<p>In onze <a href="{Firma_Datenschutz}">privacyverklaring</a> leest u hoe {FIRMA} persoonsgegevens verwerkt en welke rechten u hebt.</p>',
  privacyPolicyUrl: '{Firma_Datenschutz}',
  accessibility: 'Toegankelijkheid',
  accessibilityHtmlCode:
    '<p>{FIRMA} wil deze website voor iedereen toegankelijk maken. Stuit u op een belemmering of hebt u inhoud in een andere vorm nodig, ' +
    'neem dan contact met ons op. Onze contactgegevens vindt u in het <a href="{Firma_Impressum}">colofon</a>.</p>',
  accessibilityUrl: '{Firma_Impressum}',
  categoriesTitle: 'Uw keuze aanpassen',
  categoriesCancelButtonText: 'Terug',
  categoriesFullConsentButtonText: 'Alles accepteren',
  categoriesSaveButtonText: 'Keuze opslaan',
  detailsTitle: 'Gebruikte diensten en cookies',
  detailsCloseButtonText: 'Sluiten',
  embeddingVendorLabel: 'Aanbieder',
  embeddingDescriptionLabel: 'Beschrijving',
  embeddingPrivacyPolicyUrlLabel: 'Privacyverklaring van de aanbieder',
  embeddingLifetimeLabel: 'Bewaartermijn',
  embeddingWhichDataIsCollectedLabel: 'Verzamelde gegevens',
  embeddingPurposeOfDataCollectionLabel: 'Doel van de verzameling',
  embeddingLegalBasisLabel: 'Rechtsgrond',
  embeddingPlaceOfProcessingLabel: 'Plaats van verwerking',
  embeddingAssetNameLabel: 'Naam',
  embeddingAssetLifetimeLabel: 'Bewaartermijn',
  embeddingAssetDescriptionLabel: 'Beschrijving',
  blockedContentTitle: 'Externe inhoud',
  blockedContentDisclaimer:
    'Deze inhoud komt van een andere aanbieder. Als u hem laadt, worden gegevens zoals uw IP-adres naar die aanbieder verstuurd, ' +
    'en kan deze cookies op uw apparaat opslaan.',
  blockedContentConsentButtonText: 'Inhoud laden',
  blockedContentConsentSwitchShowExternalContent: 'Externe inhoud altijd tonen',
  blockedContentConsentSwitchAllowEmbedding: 'Deze dienst altijd toestaan',
  blockedContentConsentSwitchProviderDetails: 'Over de aanbieder',
  purposeNames: {
    '41ba25c': 'Noodzakelijk',
    cdcbd7c: 'Advertenties',
    a717ff5: 'Analyse en statistiek',
    '7c19e32': 'Personalisatie',
    '6cd2721': 'Sociale media',
    '15c61c3': 'Overig',
  },
  purposeDescriptions: {
    '41ba25c':
      'Zonder deze cookies en diensten werkt de website niet, omdat ze bijvoorbeeld uw privacy-instellingen of winkelwagen onthouden. Ze kunnen daarom niet worden uitgeschakeld.',
    cdcbd7c: 'Hiermee tonen wij en onze partners u advertenties die bij uw interesses passen, en meten we hoe goed ze werken.',
    a717ff5:
      'Hiermee zien we hoe bezoekers de website gebruiken, bijvoorbeeld welke pagina’s ze openen, zodat we inhoud en techniek kunnen verbeteren.',
    '7c19e32': 'Hiermee onthoudt de website uw voorkeuren, zoals taal of regio, en stemt de inhoud op u af.',
    '6cd2721':
      'Hiermee ziet u inhoud van sociale netwerken en kunt u er berichten delen. De netwerken kunnen daarbij gegevens over u verzamelen.',
    '15c61c3': 'Diensten die bij geen van de andere doelen horen, bijvoorbeeld ingesloten video’s of kaarten.',
  },
  changeConsentText: 'Privacy-instellingen wijzigen',
  moreInformationLabel: 'Meer informatie',
  questionMarkButtonText: 'Wat betekent dit?',
  tcfVendorIntroText:
    'Wij werken samen met partners die deelnemen aan het Transparency and Consent Framework (TCF) van IAB Europe. Hier ziet u welke partner ' +
    'welke gegevens voor welke doelen wil verwerken. Sommige partners beroepen zich daarbij op een gerechtvaardigd belang; daartegen kunt u bezwaar maken.',
  tcfPurposeLabel: 'Doelen',
  tcfSpecialPurposeLabel: 'Speciale doelen',
  tcfFeaturesLabel: 'Functies',
  tcfSpecialFeaturesLabel: 'Speciale functies',
  tcfOptedInRemark: '(door u toegestaan)',
  tcfThirdPartiesLabel: 'Partners',
  nonTcfPurposesLabel: 'Overige doelen',
  nonTcfVendorsLabel: 'Overige aanbieders',
  tcfVendorUsesNonCookieStorageText:
    'Naast cookies slaat deze partner ook op andere manieren informatie op uw apparaat op, bijvoorbeeld in de opslag van uw browser.',
  tcfSpecialFeaturesHandledGloballyText: 'Speciale functies staat u toe of weigert u voor alle partners tegelijk.',
  tcfStacksListText: 'Sommige doelen zijn gegroepeerd, zodat u er in één keer mee kunt instemmen:',
  tcfCookieRefreshText: 'De bewaartermijn van de cookies van deze partner kan bij elk bezoek worden verlengd.',
  tcfExtendedDisclosureText: 'Uitgebreide informatie over opslag',
  tcfAssetTypeLabel: 'Soort',
  tcfAssetPurposesLabel: 'Doelen',
};
