import type { LocaleTexts } from '../locale.contract.ts';

/** The default texts in Polish (formal address). */
export const pl: LocaleTexts = {
  widgetTitle: 'Ustawienia prywatności',
  widgetIntroText:
    'Ta strona korzysta z plików cookie, podobnych technologii oraz usług innych dostawców. Niektóre z nich są niezbędne do działania strony; ' +
    'inne pomagają nam ją ulepszać, wyświetlać treści takie jak filmy czy mapy albo pokazywać dopasowane reklamy. ' +
    'Z usług opcjonalnych korzystamy wyłącznie za Państwa zgodą. Swój wybór mogą Państwo w każdej chwili zmienić lub wycofać w ustawieniach. ' +
    'Więcej informacji zawiera nasza polityka prywatności.',
  widgetDeclineButtonText: 'Tylko niezbędne',
  widgetFullConsentButtonText: 'Akceptuj wszystkie',
  widgetSettingsButtonText: 'Ustawienia',
  checkAllButtonText: 'Zaznacz wszystkie',
  uncheckAllButtonText: 'Odznacz wszystkie',
  imprint: 'Nota prawna',
  imprintHtmlCode:
    '<p>{FIRMA}<br>{Firma_Ort}</p><p>Wszystkie dane właściciela tej strony znajdą Państwo w naszej <a href="{Firma_Impressum}">nocie prawnej</a>.</p>',
  imprintUrl: '{Firma_Impressum}',
  privacyPolicy: 'Polityka prywatności',
  privacyPolicyHtmlCode:
    '<p>Jak {FIRMA} przetwarza dane osobowe i jakie prawa Państwu przysługują, wyjaśnia nasza <a href="{Firma_Datenschutz}">polityka prywatności</a>.</p>',
  privacyPolicyUrl: '{Firma_Datenschutz}',
  accessibility: 'Dostępność',
  accessibilityHtmlCode:
    '<p>{FIRMA} chce, aby ta strona była dostępna dla wszystkich. Jeśli napotkają Państwo barierę lub potrzebują treści w innej formie, ' +
    'prosimy o kontakt. Nasze dane kontaktowe znajdą Państwo w <a href="{Firma_Impressum}">nocie prawnej</a>.</p>',
  accessibilityUrl: '{Firma_Impressum}',
  categoriesTitle: 'Dostosuj wybór',
  categoriesCancelButtonText: 'Wstecz',
  categoriesFullConsentButtonText: 'Akceptuj wszystkie',
  categoriesSaveButtonText: 'Zapisz wybór',
  detailsTitle: 'Używane usługi i pliki cookie',
  detailsCloseButtonText: 'Zamknij',
  embeddingVendorLabel: 'Dostawca',
  embeddingDescriptionLabel: 'Opis',
  embeddingPrivacyPolicyUrlLabel: 'Polityka prywatności dostawcy',
  embeddingLifetimeLabel: 'Okres przechowywania',
  embeddingWhichDataIsCollectedLabel: 'Zbierane dane',
  embeddingPurposeOfDataCollectionLabel: 'Cel zbierania danych',
  embeddingLegalBasisLabel: 'Podstawa prawna',
  embeddingPlaceOfProcessingLabel: 'Miejsce przetwarzania',
  embeddingAssetNameLabel: 'Nazwa',
  embeddingAssetLifetimeLabel: 'Okres przechowywania',
  embeddingAssetDescriptionLabel: 'Opis',
  blockedContentTitle: 'Treść zewnętrzna',
  blockedContentDisclaimer:
    'Ta treść pochodzi od innego dostawcy. Jeśli ją Państwo wczytają, dane takie jak adres IP zostaną przekazane temu dostawcy, ' +
    'który może też zapisać pliki cookie na Państwa urządzeniu.',
  blockedContentConsentButtonText: 'Wczytaj treść',
  blockedContentConsentSwitchShowExternalContent: 'Zawsze pokazuj treści zewnętrzne',
  blockedContentConsentSwitchAllowEmbedding: 'Zawsze zezwalaj na tę usługę',
  blockedContentConsentSwitchProviderDetails: 'Informacje o dostawcy',
  purposeNames: {
    '41ba25c': 'Niezbędne',
    cdcbd7c: 'Reklama',
    a717ff5: 'Analityka i statystyka',
    '7c19e32': 'Personalizacja',
    '6cd2721': 'Media społecznościowe',
    '15c61c3': 'Inne',
  },
  purposeDescriptions: {
    '41ba25c':
      'Bez tych plików cookie i usług strona nie działa, bo zapamiętują one na przykład ustawienia prywatności lub zawartość koszyka. Dlatego nie można ich wyłączyć.',
    cdcbd7c: 'Pozwalają nam i naszym partnerom wyświetlać reklamy dopasowane do Państwa zainteresowań i mierzyć ich skuteczność.',
    a717ff5:
      'Pokazują nam, jak odwiedzający korzystają ze strony, na przykład które podstrony otwierają, dzięki czemu możemy ulepszać jej treść i technikę.',
    '7c19e32': 'Pozwalają stronie zapamiętać Państwa preferencje, takie jak język czy region, i dopasować do nich treści.',
    '6cd2721':
      'Wyświetlają treści z serwisów społecznościowych i pozwalają udostępniać w nich wpisy. Serwisy te mogą przy tym zbierać dane o Państwu.',
    '15c61c3': 'Usługi, które nie należą do żadnego z pozostałych celów, na przykład osadzone filmy lub mapy.',
  },
  changeConsentText: 'Zmień ustawienia prywatności',
  moreInformationLabel: 'Więcej informacji',
  questionMarkButtonText: 'Co to oznacza?',
  tcfVendorIntroText:
    'Współpracujemy z partnerami uczestniczącymi w Transparency and Consent Framework (TCF) organizacji IAB Europe. Tutaj widzą Państwo, który partner ' +
    'chce przetwarzać jakie dane i w jakich celach. Niektórzy partnerzy powołują się przy tym na prawnie uzasadniony interes; mają Państwo prawo wnieść sprzeciw.',
  tcfPurposeLabel: 'Cele',
  tcfSpecialPurposeLabel: 'Cele specjalne',
  tcfFeaturesLabel: 'Funkcje',
  tcfSpecialFeaturesLabel: 'Funkcje specjalne',
  tcfOptedInRemark: '(zezwolono przez Państwa)',
  tcfThirdPartiesLabel: 'Partnerzy',
  nonTcfPurposesLabel: 'Inne cele',
  nonTcfVendorsLabel: 'Inni dostawcy',
  tcfVendorUsesNonCookieStorageText:
    'Oprócz plików cookie ten partner zapisuje informacje na Państwa urządzeniu także w inny sposób, na przykład w pamięci przeglądarki.',
  tcfSpecialFeaturesHandledGloballyText: 'Na funkcje specjalne zezwalają Państwo lub odmawiają ich wszystkim partnerom jednocześnie.',
  tcfStacksListText: 'Niektóre cele zostały zgrupowane, aby mogli Państwo zgodzić się na nie jednym kliknięciem:',
  tcfCookieRefreshText: 'Okres przechowywania plików cookie tego partnera może się wydłużać przy każdej wizycie.',
  tcfExtendedDisclosureText: 'Szczegółowe informacje o przechowywaniu',
  tcfAssetTypeLabel: 'Rodzaj',
  tcfAssetPurposesLabel: 'Cele',
};
