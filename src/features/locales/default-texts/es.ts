import type { LocaleTexts } from '../locale.contract.ts';

/** The default texts in Spanish (formal address). */
export const es: LocaleTexts = {
  widgetTitle: 'Configuración de privacidad',
  widgetIntroText:
    'Este sitio web utiliza cookies, tecnologías similares y servicios de otros proveedores. Algunos son imprescindibles para que funcione; ' +
    'otros nos ayudan a mejorarlo, a mostrar contenidos como vídeos o mapas, o a presentarle publicidad adecuada. ' +
    'Solo utilizamos los servicios opcionales si usted lo acepta. Puede cambiar o retirar su elección en cualquier momento en la configuración. ' +
    'Encontrará más información en nuestra política de privacidad.',
  widgetDeclineButtonText: 'Solo las necesarias',
  widgetFullConsentButtonText: 'Aceptar todo',
  widgetSettingsButtonText: 'Configuración',
  checkAllButtonText: 'Seleccionar todo',
  uncheckAllButtonText: 'Deseleccionar todo',
  imprint: 'Aviso legal',
  imprintHtmlCode:
    '<p>{FIRMA}<br>{Firma_Ort}</p><p>Encontrará todos los datos del titular de este sitio web en nuestro <a href="{Firma_Impressum}">aviso legal</a>.</p>',
  imprintUrl: '{Firma_Impressum}',
  privacyPolicy: 'Política de privacidad',
  privacyPolicyHtmlCode:
    '<p>En nuestra <a href="{Firma_Datenschutz}">política de privacidad</a> le explicamos cómo trata {FIRMA} los datos personales y qué derechos tiene usted.</p>',
  privacyPolicyUrl: '{Firma_Datenschutz}',
  accessibility: 'Accesibilidad',
  accessibilityHtmlCode:
    '<p>{FIRMA} quiere que este sitio web sea accesible para todas las personas. Si encuentra alguna barrera o necesita un contenido en otro formato, ' +
    'póngase en contacto con nosotros. Encontrará nuestros datos de contacto en el <a href="{Firma_Impressum}">aviso legal</a>.</p>',
  accessibilityUrl: '{Firma_Impressum}',
  categoriesTitle: 'Personalizar su elección',
  categoriesCancelButtonText: 'Volver',
  categoriesFullConsentButtonText: 'Aceptar todo',
  categoriesSaveButtonText: 'Guardar selección',
  detailsTitle: 'Servicios y cookies que utilizamos',
  detailsCloseButtonText: 'Cerrar',
  embeddingVendorLabel: 'Proveedor',
  embeddingDescriptionLabel: 'Descripción',
  embeddingPrivacyPolicyUrlLabel: 'Política de privacidad del proveedor',
  embeddingLifetimeLabel: 'Plazo de conservación',
  embeddingWhichDataIsCollectedLabel: 'Datos recopilados',
  embeddingPurposeOfDataCollectionLabel: 'Finalidad de la recopilación',
  embeddingLegalBasisLabel: 'Base jurídica',
  embeddingPlaceOfProcessingLabel: 'Lugar del tratamiento',
  embeddingAssetNameLabel: 'Nombre',
  embeddingAssetLifetimeLabel: 'Plazo de conservación',
  embeddingAssetDescriptionLabel: 'Descripción',
  blockedContentTitle: 'Contenido externo',
  blockedContentDisclaimer:
    'Este contenido procede de otro proveedor. Si lo carga, se transmitirán a ese proveedor datos como su dirección IP, ' +
    'y este podrá guardar cookies en su dispositivo.',
  blockedContentConsentButtonText: 'Cargar contenido',
  blockedContentConsentSwitchShowExternalContent: 'Mostrar siempre contenidos externos',
  blockedContentConsentSwitchAllowEmbedding: 'Permitir siempre este servicio',
  blockedContentConsentSwitchProviderDetails: 'Información sobre el proveedor',
  purposeNames: {
    '41ba25c': 'Técnicamente necesarias',
    cdcbd7c: 'Publicidad',
    a717ff5: 'Análisis y estadística',
    '7c19e32': 'Personalización',
    '6cd2721': 'Redes sociales',
    '15c61c3': 'Otros',
  },
  purposeDescriptions: {
    '41ba25c':
      'El sitio web no funciona sin estas cookies y servicios, que guardan, por ejemplo, su configuración de privacidad o su cesta de la compra. Por eso no se pueden desactivar.',
    cdcbd7c: 'Nos permiten, a nosotros y a nuestros socios, mostrarle publicidad acorde con sus intereses y medir su eficacia.',
    a717ff5:
      'Nos indican cómo usan los visitantes el sitio web, por ejemplo qué páginas abren, para que podamos mejorar sus contenidos y su técnica.',
    '7c19e32': 'Permiten que el sitio web recuerde sus preferencias, como el idioma o la región, y adapte los contenidos a usted.',
    '6cd2721':
      'Le muestran contenidos de redes sociales y le permiten compartir publicaciones en ellas. Las redes pueden recopilar datos sobre usted al hacerlo.',
    '15c61c3': 'Servicios que no corresponden a ninguna de las demás finalidades, por ejemplo vídeos o mapas integrados.',
  },
  changeConsentText: 'Cambiar la configuración de privacidad',
  moreInformationLabel: 'Más información',
  questionMarkButtonText: '¿Qué significa esto?',
  tcfVendorIntroText:
    'Trabajamos con socios que participan en el Transparency and Consent Framework (TCF) de IAB Europe. Aquí puede ver qué socio desea tratar ' +
    'qué datos y con qué fines. Algunos socios se basan en un interés legítimo; usted tiene derecho a oponerse.',
  tcfPurposeLabel: 'Finalidades',
  tcfSpecialPurposeLabel: 'Finalidades especiales',
  tcfFeaturesLabel: 'Funciones',
  tcfSpecialFeaturesLabel: 'Funciones especiales',
  tcfOptedInRemark: '(permitido por usted)',
  tcfThirdPartiesLabel: 'Socios',
  nonTcfPurposesLabel: 'Otras finalidades',
  nonTcfVendorsLabel: 'Otros proveedores',
  tcfVendorUsesNonCookieStorageText:
    'Además de cookies, este socio guarda información en su dispositivo por otros medios, por ejemplo en el almacenamiento de su navegador.',
  tcfSpecialFeaturesHandledGloballyText: 'Las funciones especiales se permiten o rechazan para todos los socios a la vez.',
  tcfStacksListText: 'Algunas finalidades están agrupadas para que pueda aceptarlas de una sola vez:',
  tcfCookieRefreshText: 'El plazo de conservación de las cookies de este socio puede prolongarse en cada visita.',
  tcfExtendedDisclosureText: 'Información detallada sobre el almacenamiento',
  tcfAssetTypeLabel: 'Tipo',
  tcfAssetPurposesLabel: 'Finalidades',
};
