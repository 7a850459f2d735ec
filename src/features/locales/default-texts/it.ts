import type { LocaleTexts } from '../locale.contract.ts';

/** The default texts in Italian (formal address). */
export const it: LocaleTexts = {
  widgetTitle: 'Impostazioni sulla privacy',
  widgetIntroText:
    'Questo sito utilizza cookie, tecnologie simili e servizi di altri fornitori. Alcuni sono indispensabili per il suo funzionamento; ' +
    'altri ci aiutano a migliorarlo, a mostrare contenuti come video o mappe o a proporLe pubblicità pertinente. ' +
    'Utilizziamo i servizi facoltativi solo con il Suo consenso. Può modificare o revocare la Sua scelta in qualsiasi momento nelle impostazioni. ' +
    'Maggiori dettagli nella nostra informativa sulla privacy.',
  widgetDeclineButtonText: 'Solo necessari',
  widgetFullConsentButtonText: 'Accetta tutto',
  widgetSettingsButtonText: 'Impostazioni',
  checkAllButtonText: 'Seleziona tutto',
  uncheckAllButtonText: 'Deseleziona tutto',
  imprint: 'Note legali',
  imprintHtmlCode:
    '<p>{FIRMA}<br>{Firma_Ort}</p><p>Tutti i dati sul gestore di questo sito sono riportati nelle nostre <a href="{Firma_Impressum}">note legali</a>.</p>',
  imprintUrl: '{Firma_Impressum}',
  privacyPolicy: 'Informativa sulla privacy',
  privacyPolicyHtmlCode:
    '<p>La nostra <a href="{Firma_Datenschutz}">informativa sulla privacy</a> spiega come {FIRMA} tratta i dati personali e quali diritti Lei ha.</p>',
  privacyPolicyUrl: '{Firma_Datenschutz}',
  accessibility: 'Accessibilità',
  accessibilityHtmlCode:
    '<p>{FIRMA} desidera rendere questo sito accessibile a tutti. Se incontra un ostacolo o ha bisogno di un contenuto in un altro formato, ' +
    'La preghiamo di contattarci. I nostri recapiti sono indicati nelle <a href="{Firma_Impressum}">note legali</a>.</p>',
  accessibilityUrl: '{Firma_Impressum}',
  categoriesTitle: 'Personalizzi la Sua scelta',
  categoriesCancelButtonText: 'Indietro',
  categoriesFullConsentButtonText: 'Accetta tutto',
  categoriesSaveButtonText: 'Salva la scelta',
  detailsTitle: 'Servizi e cookie utilizzati',
  detailsCloseButtonText: 'Chiudi',
  embeddingVendorLabel: 'Fornitore',
  embeddingDescriptionLabel: 'Descrizione',
  embeddingPrivacyPolicyUrlLabel: 'Informativa sulla privacy del fornitore',
  embeddingLifetimeLabel: 'Durata di conservazione',
  embeddingWhichDataIsCollectedLabel: 'Dati raccolti',
  embeddingPurposeOfDataCollectionLabel: 'Finalità della raccolta',
  embeddingLegalBasisLabel: 'Base giuridica',
  embeddingPlaceOfProcessingLabel: 'Luogo del trattamento',
  embeddingAssetNameLabel: 'Nome',
  embeddingAssetLifetimeLabel: 'Durata di conservazione',
  embeddingAssetDescriptionLabel: 'Descrizione',
  blockedContentTitle: 'Contenuto esterno',
  blockedContentDisclaimer:
    'Questo contenuto proviene da un altro fornitore. Se lo carica, dati come il Suo indirizzo IP vengono trasmessi a tale fornitore, ' +
    'che può anche salvare cookie sul Suo dispositivo.',
  blockedContentConsentButtonText: 'Carica il contenuto',
  blockedContentConsentSwitchShowExternalContent: 'Mostra sempre i contenuti esterni',
  blockedContentConsentSwitchAllowEmbedding: 'Consenti sempre questo servizio',
  blockedContentConsentSwitchProviderDetails: 'Informazioni sul fornitore',
  purposeNames: {
    '41ba25c': 'Tecnicamente necessari',
    cdcbd7c: 'Pubblicità',
    a717ff5: 'Analisi e statistiche',
    '7c19e32': 'Personalizzazione',
    '6cd2721': 'Social media',
    '15c61c3': 'Altro',
  },
  purposeDescriptions: {
    '41ba25c':
      'Il sito non funziona senza questi cookie e servizi, che memorizzano per esempio le Sue impostazioni sulla privacy o il carrello. Per questo non possono essere disattivati.',
    cdcbd7c: 'Consentono a noi e ai nostri partner di mostrarLe pubblicità in linea con i Suoi interessi e di misurarne l’efficacia.',
    a717ff5:
      'Ci indicano come i visitatori usano il sito, per esempio quali pagine aprono, così da poterne migliorare contenuti e tecnica.',
    '7c19e32': 'Permettono al sito di ricordare le Sue preferenze, come lingua o regione, e di adattare i contenuti.',
    '6cd2721':
      'Mostrano contenuti dei social network e Le permettono di condividervi dei post. I social network possono raccogliere dati su di Lei.',
    '15c61c3': 'Servizi che non rientrano in nessuna delle altre finalità, per esempio video o mappe incorporati.',
  },
  changeConsentText: 'Modifica le impostazioni sulla privacy',
  moreInformationLabel: 'Maggiori informazioni',
  questionMarkButtonText: 'Che cosa significa?',
  tcfVendorIntroText:
    'Collaboriamo con partner che aderiscono al Transparency and Consent Framework (TCF) di IAB Europe. Qui può vedere quale partner intende trattare ' +
    'quali dati e per quali finalità. Alcuni partner si basano su un legittimo interesse; Lei ha il diritto di opporsi.',
  tcfPurposeLabel: 'Finalità',
  tcfSpecialPurposeLabel: 'Finalità speciali',
  tcfFeaturesLabel: 'Funzionalità',
  tcfSpecialFeaturesLabel: 'Funzionalità speciali',
  tcfOptedInRemark: '(consentito da Lei)',
  tcfThirdPartiesLabel: 'Partner',
  nonTcfPurposesLabel: 'Altre finalità',
  nonTcfVendorsLabel: 'Altri fornitori',
  tcfVendorUsesNonCookieStorageText:
    'Oltre ai cookie, questo partner memorizza informazioni sul Suo dispositivo anche in altri modi, per esempio nella memoria del browser.',
  tcfSpecialFeaturesHandledGloballyText: 'Le funzionalità speciali si consentono o si rifiutano per tutti i partner insieme.',
  tcfStacksListText: 'Alcune finalità sono raggruppate affinché possa accettarle in una sola volta:',
  tcfCookieRefreshText: 'La durata di conservazione dei cookie di questo partner può essere prolungata a ogni visita.',
  tcfExtendedDisclosureText: 'Informazioni dettagliate sulla memorizzazione',
  tcfAssetTypeLabel: 'Tipo',
  tcfAssetPurposesLabel: 'Finalità',
};
