import type { LocaleTexts } from '../locale.contract.ts';

/** The default texts in French (formal address). */
export const fr: LocaleTexts = {
  widgetTitle: 'Paramètres de confidentialité',
  widgetIntroText:
    "Ce site utilise des cookies, des technologies similaires et des services d'autres fournisseurs. Certains sont indispensables à son fonctionnement ; " +
    "d'autres nous aident à l'améliorer, à afficher des contenus comme des vidéos ou des cartes, ou à vous présenter des publicités adaptées. " +
    "Nous n'utilisons les services facultatifs qu'avec votre accord. Vous pouvez modifier ou retirer votre choix à tout moment dans les paramètres. " +
    'Pour en savoir plus, consultez notre politique de confidentialité.',
  widgetDeclineButtonText: 'Uniquement les essentiels',
  widgetFullConsentButtonText: 'Tout accepter',
  widgetSettingsButtonText: 'Paramètres',
  checkAllButtonText: 'Tout sélectionner',
  uncheckAllButtonText: 'Tout désélectionner',
  imprint: 'Mentions légales',
  imprintHtmlCode:
    '<p>{FIRMA}<br>{Firma_Ort}</p><p>Vous trouverez toutes les informations sur l\'éditeur de ce site dans nos <a href="{Firma_Impressum}">mentions légales</a>.</p>',
  imprintUrl: '{Firma_Impressum}',
  privacyPolicy: 'Politique de confidentialité',
  privacyPolicyHtmlCode:
    '<p>Notre <a href="{Firma_Datenschutz}">politique de confidentialité</a> explique comment {FIRMA} traite les données personnelles et quels sont vos droits.</p>',
  privacyPolicyUrl: '{Firma_Datenschutz}',
  accessibility: 'Accessibilité',
  accessibilityHtmlCode:
    "<p>{FIRMA} souhaite rendre ce site accessible à tous. Si vous rencontrez un obstacle ou avez besoin d'un contenu sous une autre forme, " +
    'n\'hésitez pas à nous contacter. Nos coordonnées figurent dans les <a href="{Firma_Impressum}">mentions légales</a>.</p>',
  accessibilityUrl: '{Firma_Impressum}',
  categoriesTitle: 'Personnaliser votre choix',
  categoriesCancelButtonText: 'Retour',
  categoriesFullConsentButtonText: 'Tout accepter',
  categoriesSaveButtonText: 'Enregistrer mon choix',
  detailsTitle: 'Services et cookies utilisés',
  detailsCloseButtonText: 'Fermer',
  embeddingVendorLabel: 'Fournisseur',
  embeddingDescriptionLabel: 'Description',
  embeddingPrivacyPolicyUrlLabel: 'Politique de confidentialité du fournisseur',
  embeddingLifetimeLabel: 'Durée de conservation',
  embeddingWhichDataIsCollectedLabel: 'Données collectées',
  embeddingPurposeOfDataCollectionLabel: 'Finalité de la collecte',
  embeddingLegalBasisLabel: 'Base juridique',
  embeddingPlaceOfProcessingLabel: 'Lieu du traitement',
  embeddingAssetNameLabel: 'Nom',
  embeddingAssetLifetimeLabel: 'Durée de conservation',
  embeddingAssetDescriptionLabel: 'Description',
  blockedContentTitle: 'Contenu externe',
  blockedContentDisclaimer:
    "Ce contenu provient d'un autre fournisseur. Si vous le chargez, des données comme votre adresse IP lui sont transmises " +
    'et il peut enregistrer des cookies sur votre appareil.',
  blockedContentConsentButtonText: 'Charger le contenu',
  blockedContentConsentSwitchShowExternalContent: 'Toujours afficher les contenus externes',
  blockedContentConsentSwitchAllowEmbedding: 'Toujours autoriser ce service',
  blockedContentConsentSwitchProviderDetails: 'À propos du fournisseur',
  purposeNames: {
    '41ba25c': 'Indispensables',
    cdcbd7c: 'Publicité',
    a717ff5: 'Analyse et statistiques',
    '7c19e32': 'Personnalisation',
    '6cd2721': 'Réseaux sociaux',
    '15c61c3': 'Autres',
  },
  purposeDescriptions: {
    '41ba25c':
      'Le site ne peut pas fonctionner sans ces cookies et services, qui mémorisent par exemple vos paramètres de confidentialité ou votre panier. Ils ne peuvent pas être désactivés.',
    cdcbd7c: 'Ils nous permettent, à nous et à nos partenaires, de vous présenter des publicités adaptées à vos centres d’intérêt et d’en mesurer l’efficacité.',
    a717ff5:
      'Ils nous indiquent comment les visiteurs utilisent le site, par exemple quelles pages ils consultent, afin d’en améliorer le contenu et la technique.',
    '7c19e32': 'Ils permettent au site de mémoriser vos préférences, comme la langue ou la région, et d’adapter les contenus.',
    '6cd2721':
      'Ils affichent des contenus de réseaux sociaux et vous permettent d’y partager des publications. Ces réseaux peuvent alors collecter des données vous concernant.',
    '15c61c3': 'Les services qui ne relèvent d’aucune autre finalité, par exemple des vidéos ou des cartes intégrées.',
  },
  changeConsentText: 'Modifier les paramètres de confidentialité',
  moreInformationLabel: 'En savoir plus',
  questionMarkButtonText: 'Qu’est-ce que cela signifie ?',
  tcfVendorIntroText:
    'Nous travaillons avec des partenaires qui participent au Transparency and Consent Framework (TCF) d’IAB Europe. Vous voyez ici quel partenaire ' +
    'souhaite traiter quelles données et à quelles fins. Certains invoquent un intérêt légitime ; vous pouvez vous y opposer.',
  tcfPurposeLabel: 'Finalités',
  tcfSpecialPurposeLabel: 'Finalités spéciales',
  tcfFeaturesLabel: 'Fonctionnalités',
  tcfSpecialFeaturesLabel: 'Fonctionnalités spéciales',
  tcfOptedInRemark: '(autorisé par vous)',
  tcfThirdPartiesLabel: 'Partenaires',
  nonTcfPurposesLabel: 'Autres finalités',
  nonTcfVendorsLabel: 'Autres fournisseurs',
  tcfVendorUsesNonCookieStorageText:
    'Outre les cookies, ce partenaire enregistre aussi des informations sur votre appareil par d’autres moyens, par exemple dans la mémoire de votre navigateur.',
  tcfSpecialFeaturesHandledGloballyText: 'Vous autorisez ou refusez les fonctionnalités spéciales pour tous les partenaires à la fois.',
  tcfStacksListText: 'Certaines finalités sont regroupées afin que vous puissiez les accepter en une seule fois :',
  tcfCookieRefreshText: 'La durée de conservation des cookies de ce partenaire peut être prolongée à chaque visite.',
  tcfExtendedDisclosureText: 'Informations détaillées sur le stockage',
  tcfAssetTypeLabel: 'Type',
  tcfAssetPurposesLabel: 'Finalités',
};
