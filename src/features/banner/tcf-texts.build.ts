import { escapeHtml } from '../../kernel/html.ts';
import type { Locale } from '../locales/locale.contract.ts';
import type { BannerTcfTexts } from './banner-config.ts';
import { type Fill, plainText } from './texts.ts';

/**
 * The words of the TCF layers (runtime/tcf/layers.ts) for one locale. The headings and notes an
 * operator can word (`tcf…` texts of the locale) come from the locale; the sentences the TCF
 * Policies require of the first layer and the labels of a vendor's facts are the service's own,
 * in the languages the locales ship default texts in (others get the English ones). `{count}`, `{purposes}` and
 * `{days}` are left for the runtime.
 */

type BuiltIn = Omit<BannerTcfTexts, LocaleKey>;
type LocaleKey = keyof typeof FROM_LOCALE;

const FROM_LOCALE = {
  vendorIntro: 'tcfVendorIntroText',
  purposes: 'tcfPurposeLabel',
  specialPurposes: 'tcfSpecialPurposeLabel',
  features: 'tcfFeaturesLabel',
  specialFeatures: 'tcfSpecialFeaturesLabel',
  optedIn: 'tcfOptedInRemark',
  partners: 'tcfThirdPartiesLabel',
  nonCookieStorage: 'tcfVendorUsesNonCookieStorageText',
  specialFeaturesGlobal: 'tcfSpecialFeaturesHandledGloballyText',
  stacksIntro: 'tcfStacksListText',
  cookieRefresh: 'tcfCookieRefreshText',
  storageDisclosure: 'tcfExtendedDisclosureText',
  assetType: 'tcfAssetTypeLabel',
  assetPurposes: 'tcfAssetPurposesLabel',
} as const satisfies Record<string, keyof Locale>;

const ENGLISH: BuiltIn = {
  firstLayer:
    'We and our {count} partners store information on your device and read it from there (cookies, for example) and process personal data, ' +
    'such as identifiers and information about your browsing, for the following purposes:',
  legitimateInterestNote:
    'Some partners do not ask for your consent but rely on their legitimate interest for: {purposes}. You have the right to object to this in the settings.',
  withdrawNote: 'Your choice applies to this website. You can change it or withdraw your consent at any time in the privacy settings.',
  showPartners: 'Show all {count} partners',
  partnerCount: '{count} partners',
  consent: 'Consent',
  legitimateInterest: 'Legitimate interest (untick to object)',
  legitimateInterestPurposes: 'Purposes on legitimate interest',
  retention: 'data kept for {days} days',
  days: '{days} days',
  dataCategories: 'Data used',
  cookieDuration: 'Longest cookie lifetime',
  noCookies: 'Stores no cookies.',
  privacyPolicy: 'Privacy policy',
  legitimateInterestClaim: 'Legitimate interest at stake',
  examples: 'Examples',
};

const GERMAN: BuiltIn = {
  firstLayer:
    'Wir und unsere {count} Partner speichern Informationen auf Ihrem Gerät und lesen sie dort aus (zum Beispiel Cookies) und verarbeiten personenbezogene Daten, ' +
    'etwa Kennungen und Angaben zu Ihrem Surfverhalten, zu diesen Zwecken:',
  legitimateInterestNote:
    'Einige Partner fragen nicht nach Ihrer Einwilligung, sondern berufen sich auf ihr berechtigtes Interesse für: {purposes}. Dem können Sie in den Einstellungen widersprechen.',
  withdrawNote: 'Ihre Auswahl gilt für diese Website. Sie können sie jederzeit in den Datenschutzeinstellungen ändern und Ihre Einwilligung widerrufen.',
  showPartners: 'Alle {count} Partner anzeigen',
  partnerCount: '{count} Partner',
  consent: 'Einwilligung',
  legitimateInterest: 'Berechtigtes Interesse (abwählen, um zu widersprechen)',
  legitimateInterestPurposes: 'Zwecke auf Grundlage berechtigten Interesses',
  retention: 'Daten werden {days} Tage gespeichert',
  days: '{days} Tage',
  dataCategories: 'Verwendete Daten',
  cookieDuration: 'Längste Speicherdauer der Cookies',
  noCookies: 'Speichert keine Cookies.',
  privacyPolicy: 'Datenschutzerklärung',
  legitimateInterestClaim: 'Berechtigtes Interesse',
  examples: 'Beispiele',
};

const FRENCH: BuiltIn = {
  firstLayer:
    'Nos {count} partenaires et nous-mêmes stockons des informations sur votre appareil et les y lisons (des cookies, par exemple), et traitons des données ' +
    'personnelles, telles que des identifiants et des informations sur votre navigation, aux fins suivantes :',
  legitimateInterestNote:
    'Certains partenaires ne demandent pas votre consentement mais se fondent sur leur intérêt légitime pour : {purposes}. Vous pouvez vous y opposer dans les paramètres.',
  withdrawNote: 'Votre choix s’applique à ce site. Vous pouvez le modifier ou retirer votre consentement à tout moment dans les paramètres de confidentialité.',
  showPartners: 'Afficher les {count} partenaires',
  partnerCount: '{count} partenaires',
  consent: 'Consentement',
  legitimateInterest: 'Intérêt légitime (décocher pour vous y opposer)',
  legitimateInterestPurposes: 'Finalités fondées sur l’intérêt légitime',
  retention: 'données conservées {days} jours',
  days: '{days} jours',
  dataCategories: 'Données utilisées',
  cookieDuration: 'Durée de vie maximale des cookies',
  noCookies: 'N’enregistre aucun cookie.',
  privacyPolicy: 'Politique de confidentialité',
  legitimateInterestClaim: 'Intérêt légitime invoqué',
  examples: 'Exemples',
};

const SPANISH: BuiltIn = {
  firstLayer:
    'Nosotros y nuestros {count} socios almacenamos información en su dispositivo y la leemos desde allí (por ejemplo, cookies), y tratamos datos personales, ' +
    'como identificadores e información sobre su navegación, para los siguientes fines:',
  legitimateInterestNote:
    'Algunos socios no piden su consentimiento, sino que se basan en su interés legítimo para: {purposes}. Puede oponerse a ello en la configuración.',
  withdrawNote: 'Su elección se aplica a este sitio web. Puede cambiarla o retirar su consentimiento en cualquier momento en la configuración de privacidad.',
  showPartners: 'Mostrar los {count} socios',
  partnerCount: '{count} socios',
  consent: 'Consentimiento',
  legitimateInterest: 'Interés legítimo (desmarque para oponerse)',
  legitimateInterestPurposes: 'Fines basados en el interés legítimo',
  retention: 'datos conservados {days} días',
  days: '{days} días',
  dataCategories: 'Datos utilizados',
  cookieDuration: 'Duración máxima de las cookies',
  noCookies: 'No almacena cookies.',
  privacyPolicy: 'Política de privacidad',
  legitimateInterestClaim: 'Interés legítimo alegado',
  examples: 'Ejemplos',
};

const ITALIAN: BuiltIn = {
  firstLayer:
    'Noi e i nostri {count} partner memorizziamo informazioni sul Suo dispositivo e le leggiamo da lì (ad esempio i cookie) e trattiamo dati personali, ' +
    'come identificativi e informazioni sulla Sua navigazione, per le seguenti finalità:',
  legitimateInterestNote:
    'Alcuni partner non chiedono il Suo consenso, ma si basano sul proprio legittimo interesse per: {purposes}. Può opporsi nelle impostazioni.',
  withdrawNote: 'La Sua scelta vale per questo sito web. Può modificarla o revocare il consenso in qualsiasi momento nelle impostazioni sulla privacy.',
  showPartners: 'Mostra tutti i {count} partner',
  partnerCount: '{count} partner',
  consent: 'Consenso',
  legitimateInterest: 'Legittimo interesse (deselezionare per opporsi)',
  legitimateInterestPurposes: 'Finalità basate sul legittimo interesse',
  retention: 'dati conservati per {days} giorni',
  days: '{days} giorni',
  dataCategories: 'Dati utilizzati',
  cookieDuration: 'Durata massima dei cookie',
  noCookies: 'Non memorizza cookie.',
  privacyPolicy: 'Informativa sulla privacy',
  legitimateInterestClaim: 'Legittimo interesse perseguito',
  examples: 'Esempi',
};

const DUTCH: BuiltIn = {
  firstLayer:
    'Wij en onze {count} partners slaan informatie op uw apparaat op en lezen die daar uit (bijvoorbeeld cookies), en verwerken persoonsgegevens, ' +
    'zoals identificatoren en gegevens over uw surfgedrag, voor de volgende doeleinden:',
  legitimateInterestNote:
    'Sommige partners vragen niet om uw toestemming, maar beroepen zich op hun gerechtvaardigd belang voor: {purposes}. U kunt hiertegen bezwaar maken in de instellingen.',
  withdrawNote: 'Uw keuze geldt voor deze website. U kunt haar op elk moment wijzigen of uw toestemming intrekken in de privacyinstellingen.',
  showPartners: 'Alle {count} partners tonen',
  partnerCount: '{count} partners',
  consent: 'Toestemming',
  legitimateInterest: 'Gerechtvaardigd belang (uitvinken om bezwaar te maken)',
  legitimateInterestPurposes: 'Doeleinden op basis van gerechtvaardigd belang',
  retention: 'gegevens worden {days} dagen bewaard',
  days: '{days} dagen',
  dataCategories: 'Gebruikte gegevens',
  cookieDuration: 'Langste bewaartermijn van cookies',
  noCookies: 'Slaat geen cookies op.',
  privacyPolicy: 'Privacybeleid',
  legitimateInterestClaim: 'Gerechtvaardigd belang',
  examples: 'Voorbeelden',
};

const POLISH: BuiltIn = {
  firstLayer:
    'My i nasi partnerzy (w liczbie {count}) przechowujemy informacje na Państwa urządzeniu i odczytujemy je z niego (na przykład pliki cookie) oraz ' +
    'przetwarzamy dane osobowe, takie jak identyfikatory i informacje o Państwa aktywności w sieci, w następujących celach:',
  legitimateInterestNote:
    'Niektórzy partnerzy nie proszą o Państwa zgodę, lecz powołują się na swój prawnie uzasadniony interes w zakresie: {purposes}. Mogą Państwo wnieść sprzeciw w ustawieniach.',
  withdrawNote: 'Państwa wybór dotyczy tej witryny. Mogą go Państwo w każdej chwili zmienić lub wycofać zgodę w ustawieniach prywatności.',
  showPartners: 'Pokaż wszystkich partnerów ({count})',
  partnerCount: 'Liczba partnerów: {count}',
  consent: 'Zgoda',
  legitimateInterest: 'Prawnie uzasadniony interes (odznaczyć, aby wnieść sprzeciw)',
  legitimateInterestPurposes: 'Cele oparte na prawnie uzasadnionym interesie',
  retention: 'okres przechowywania danych: {days} dni',
  days: '{days} dni',
  dataCategories: 'Wykorzystywane dane',
  cookieDuration: 'Najdłuższy okres przechowywania plików cookie',
  noCookies: 'Nie zapisuje plików cookie.',
  privacyPolicy: 'Polityka prywatności',
  legitimateInterestClaim: 'Prawnie uzasadniony interes',
  examples: 'Przykłady',
};

const BUILT_IN: Record<string, BuiltIn> = { en: ENGLISH, de: GERMAN, fr: FRENCH, es: SPANISH, it: ITALIAN, nl: DUTCH, pl: POLISH };

/** The TCF layers' texts of `locale` (its name such as `de_DE` chooses the built-in language), escaped. */
export function tcfTexts(locale: Locale, fill: Fill): BannerTcfTexts {
  const builtIn = BUILT_IN[locale.name.slice(0, 2).toLowerCase()] ?? ENGLISH;
  const own = Object.fromEntries(Object.entries(FROM_LOCALE).map(([key, field]) => [key, plainText(fill, locale[field])])) as Record<LocaleKey, string>;
  // Built-in texts skip the operator's placeholders: a placeholder named `count` must not take the runtime's place.
  const fixed = Object.fromEntries(Object.entries(builtIn).map(([key, value]) => [key, escapeHtml(value)])) as BuiltIn;
  return { ...own, ...fixed };
}
