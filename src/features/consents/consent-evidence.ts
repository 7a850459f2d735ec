import { escapeHtml } from '../../kernel/html.ts';
import { buildBannerConfig } from '../banner/banner-config.build.ts';
import type { CategoryKey, PurposeId } from '../banner/banner-config.ts';
import type { PublishedConfiguration } from '../banner/published-configuration.ts';
import { linkTarget, placeholderFiller } from '../banner/texts.ts';
import type { StorageType } from '../embeddings/embedding-asset.contract.ts';
import type { ConsentRecord } from './consent-log.contract.ts';
import type { DecodedPrivacyStrings } from './privacy-strings.contract.ts';
import { decodedPrivacyStringsOf, privacyStringsHtml } from './privacy-strings.html.ts';

/**
 * The evidence of one consent record: what the visitor was shown (the configuration revision the
 * record names, in the locale the banner spoke) and what they accepted of it, as JSON and as a
 * standalone printable page for a data protection authority.
 *
 * Fields documented as HTML are the banner's own strings, taken from buildBannerConfig: already
 * escaped or sanitised, exactly as the visitor's browser rendered them. Every other string is
 * plain text.
 */

/** A stored consent record (consent_record). */
export type EvidenceRecord = {
  consentId: string;
  receivedAt: string;
  choice: 'all' | 'necessary' | 'custom';
  categories: string[];
  services: string[];
  /** The content hash of the configuration the banner showed. */
  revision: string;
  locale: string;
  origin: string;
  path: string;
  address: string;
  /** Whether the page is on the domain's site or a consent-sharing domain; null: not checked (stored before the check). */
  originMatches: boolean | null;
  /** The browser's privacy signal the choice came from (Global Privacy Control, Do Not Track); null: the visitor chose. */
  signal: 'gpc' | 'dnt' | null;
  /** Whether the banner had the theme's `manipulationPrevention` on. */
  manipulationPrevention: boolean;
  /** The IAB strings the banner wrote with the choice (TCF 2.2, Google's Additional Consent, GPP); null: none. */
  tcString: string | null;
  acString: string | null;
  gppString: string | null;
};

/** The configuration revision the record names; `keyName`: the API key (or command line) whose write made it, null if none is recorded. */
export type EvidenceRevision = { number: number; hash: string; createdAt: string; legal: boolean; keyName: string | null };

export type EvidenceStorageItem = {
  /** The cookie or storage key; with `dynamic` a pattern such as `_ga_*`. */
  name: string;
  dynamic: boolean;
  storageType: StorageType;
  /** In the shown locale when the asset has a translation, placeholders filled in. */
  lifetime: string;
  description: string;
};

export type EvidenceService = {
  /** The embedding's id, as the record's `services` name it. */
  id: string;
  /** HTML: the label the banner showed in the locale. */
  name: string;
  vendor: string;
  /** The privacy policy the banner linked in the locale; null: none. */
  privacyPolicyUrl: string | null;
  accepted: boolean;
  storage: EvidenceStorageItem[];
};

export type EvidenceCategory = {
  key: CategoryKey;
  purpose: PurposeId;
  /** HTML: the category's title in the settings. */
  title: string;
  accepted: boolean;
  services: EvidenceService[];
};

/** What the banner said in the shown locale, all HTML. A button the domain does not show is null. */
export type EvidenceTexts = {
  consentModal: {
    title: string;
    description: string;
    acceptAllButton: string | null;
    acceptNecessaryButton: string | null;
    preferencesButton: string | null;
    /** The close icon (it declines), when the theme shows one. */
    closeIconLabel: string | null;
    footer: string | null;
  };
  preferencesModal: {
    title: string;
    acceptAllButton: string | null;
    acceptNecessaryButton: string | null;
    saveButton: string;
    closeIconLabel: string;
    sections: { title: string | null; description: string | null; category: string | null }[];
  };
};

export type ConsentEvidence = {
  record: EvidenceRecord;
  revision: EvidenceRevision & {
    /** The configuration handed in hashes to the revision's hash: the texts below are what that revision published. */
    configurationVerified: boolean;
  };
  domain: { id: string; name: string; url: string };
  /** `recorded`: the record's locale; `shown`: it, if the revision has it active, else the revision's first locale (`fellBack`). */
  locale: { recorded: string; shown: string; fellBack: boolean };
  texts: EvidenceTexts;
  /** The revision's categories (necessary first), each with its services. */
  categories: EvidenceCategory[];
  /** Ids in the record's `services` that the revision has no service for (should not happen). */
  unknownServices: string[];
  /** Keys in the record's `categories` that the revision has no category for (should not happen). */
  unknownCategories: string[];
  /** The record's IAB strings, decoded. */
  privacyStrings: DecodedPrivacyStrings;
  /**
   * Every record of the consent id, oldest first, `record` among them: a later record (anyone who
   * knows the id can send one) adds to the history and never hides what came before.
   */
  history: ConsentRecord[];
};

export function consentEvidence(
  record: EvidenceRecord,
  revision: EvidenceRevision,
  published: PublishedConfiguration,
  history: ConsentRecord[],
): ConsentEvidence {
  if (record.revision !== revision.hash) {
    throw new Error(`consent ${record.consentId} names revision ${record.revision}, not ${revision.hash}`);
  }
  const active = published.locales.map((locale) => locale.name);
  const shown = active.includes(record.locale) ? record.locale : active[0];
  if (shown === undefined) throw new Error(`revision ${revision.number} of domain ${published.domain.id} has no active locale`);
  const config = buildBannerConfig(published, shown);
  const { translation } = config.texts[shown]!;
  const fill = placeholderFiller(new Map(published.placeholders.map((placeholder) => [placeholder.name, placeholder.value])));
  const embeddings = new Map(published.embeddings.map((embedding) => [embedding.id, embedding]));
  const acceptedServices = new Set(record.services);

  const categories = config.categories.map((category): EvidenceCategory => {
    const necessary = category.key === 'necessary';
    const section = translation.preferencesModal.sections.find((candidate) => candidate.linkedCategory === category.key);
    return {
      key: category.key,
      purpose: category.purpose,
      title: section?.title ?? escapeHtml(category.key),
      accepted: necessary || record.choice === 'all' || record.categories.includes(category.key),
      services: category.services.map((service): EvidenceService => {
        const embedding = embeddings.get(service.id)!;
        const own = embedding.translations[shown] ?? {};
        return {
          id: service.id,
          name: service.label[shown]!,
          vendor: fill(embedding.vendor),
          privacyPolicyUrl: linkTarget(fill, own.privacyPolicyUrl || embedding.privacyPolicyUrl),
          accepted: necessary || record.choice === 'all' || acceptedServices.has(service.id),
          storage: embedding.assets.map((asset) => {
            const ownAsset = asset.translations[shown] ?? {};
            return {
              name: asset.name,
              dynamic: asset.dynamic,
              storageType: asset.storageType,
              lifetime: fill(ownAsset.lifetime || asset.lifetime),
              description: fill(ownAsset.description || asset.description),
            };
          }),
        };
      }),
    };
  });
  const knownServices = new Set(categories.flatMap((category) => category.services.map((service) => service.id)));
  const knownCategories = new Set<string>(categories.map((category) => category.key));

  const { consentModal, preferencesModal } = translation;
  return {
    record: { ...record },
    revision: { ...revision, configurationVerified: config.contentRevision === revision.hash },
    domain: { id: published.domain.id, name: published.domain.name, url: published.domain.url },
    locale: { recorded: record.locale, shown, fellBack: shown !== record.locale },
    texts: {
      // What the runtime shows of the first layer (runtime/cookieconsent-config.ts drops the buttons the domain hides).
      consentModal: {
        title: consentModal.title,
        description: consentModal.description,
        acceptAllButton: config.showAcceptButton ? (consentModal.acceptAllBtn ?? null) : null,
        acceptNecessaryButton: config.showDeclineButton ? (consentModal.acceptNecessaryBtn ?? null) : null,
        preferencesButton: config.showSettingsButton ? (consentModal.showPreferencesBtn ?? null) : null,
        closeIconLabel: consentModal.closeIconLabel ?? null,
        footer: consentModal.footer || null,
      },
      preferencesModal: {
        title: preferencesModal.title,
        acceptAllButton: preferencesModal.acceptAllBtn ?? null,
        acceptNecessaryButton: preferencesModal.acceptNecessaryBtn ?? null,
        saveButton: preferencesModal.savePreferencesBtn,
        closeIconLabel: preferencesModal.closeIconLabel,
        sections: preferencesModal.sections.map((section) => ({
          title: section.title ?? null,
          description: section.description ?? null,
          category: section.linkedCategory ?? null,
        })),
      },
    },
    categories,
    unknownServices: record.services.filter((id) => !knownServices.has(id)),
    unknownCategories: record.categories.filter((key) => !knownCategories.has(key)),
    privacyStrings: decodedPrivacyStringsOf(record),
    history: history.map((entry) => ({ ...entry })),
  };
}

const CHOICES: Record<EvidenceRecord['choice'], string> = {
  all: 'Accept all',
  necessary: 'Only necessary (all optional categories rejected)',
  custom: 'Custom selection',
};

const STORAGE_TYPES: Record<StorageType, string> = {
  cookie: 'Cookie',
  localStorage: 'Local storage',
  sessionStorage: 'Session storage',
  indexedDb: 'IndexedDB',
  webSql: 'Web SQL',
  other: 'Other',
};

const SIGNALS: Record<NonNullable<EvidenceRecord['signal']>, string> = { gpc: 'Global Privacy Control', dnt: 'Do Not Track' };

/** What `originMatches` says, in words (keyed by its text: `true`, `false`, `null`). */
const ORIGIN_MATCHES: Record<string, string> = {
  true: "on the domain's site",
  false: "<strong>not on the domain's site nor a consent-sharing domain</strong>",
  null: 'not checked: recorded before the service checked pages',
};

/** Words and a sign, so the answer does not hang on colour (or on a colour printer). */
const acceptance = (accepted: boolean) =>
  accepted
    ? '<span class="yes"><span aria-hidden="true">✓</span> Accepted</span>'
    : '<span class="no"><span aria-hidden="true">✗</span> Not accepted</span>';

/** `de_DE` → `de-DE` (a BCP 47 tag, as `lang` wants it). */
const languageTag = (locale: string) => escapeHtml(locale.replace('_', '-'));

const STYLE = `
*{box-sizing:border-box}
body{font:11pt/1.45 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;color:#111;margin:2rem auto;max-width:60rem;padding:0 1rem}
h1{font-size:1.6em;margin:0 0 .5em}
h2{font-size:1.25em;margin:1.6em 0 .5em;border-bottom:1px solid #999;padding-bottom:.2em}
h3{font-size:1.05em;margin:1.2em 0 .4em}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.2em 1em;margin:0}
dl.facts dt{font-weight:600}
dl.facts dd{margin:0}
code,.hash{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.9em;overflow-wrap:anywhere}
.shown{border:1px solid #bbb;border-radius:4px;padding:.6em .9em;margin:.4em 0 1em}
.shown .label{font-size:.8em;text-transform:uppercase;letter-spacing:.04em;color:#555;margin:0}
.buttons{display:flex;flex-wrap:wrap;gap:.5em;list-style:none;padding:0}
.buttons li{border:1px solid #555;border-radius:3px;padding:.15em .6em}
.warning{border:2px solid #000;padding:.5em .8em;font-weight:600}
table{border-collapse:collapse;width:100%;margin:.4em 0 1.2em}
caption{text-align:left;font-weight:600;padding:.3em 0}
th,td{border:1px solid #999;padding:.3em .45em;text-align:left;vertical-align:top;overflow-wrap:anywhere}
th{background:#eee;overflow-wrap:normal}
.label code{text-transform:none}
table.storage{margin:0;font-size:.9em}
.yes,.no{white-space:nowrap;font-weight:600}
.no{font-style:italic}
footer{margin-top:2em;font-size:.85em;color:#444}
table.history{font-size:.85em}
tr.detailed td{font-weight:600}
@page{size:A4;margin:15mm 12mm}
@media print{
  body{margin:0;max-width:none;padding:0;font-size:9.5pt}
  a{color:inherit;text-decoration:underline}
  th{background:none}
  thead{display:table-header-group}
  tr,.service,.shown section{break-inside:avoid;page-break-inside:avoid}
  h2,h3,caption{break-after:avoid;page-break-after:avoid}
}
`;

/** The evidence as a standalone printable HTML page: no scripts, no external resources. */
export function consentEvidenceHtml(evidence: ConsentEvidence): string {
  const { record, revision, domain, locale, texts } = evidence;
  const visitorLang = languageTag(locale.shown);
  const fact = (term: string, value: string) => `<dt>${term}</dt><dd>${value}</dd>`;
  const code = (value: string) => `<code>${escapeHtml(value)}</code>`;
  const list = (values: string[]) => (values.length ? values.map(code).join(', ') : '<em>none</em>');
  const shownText = (label: string, html: string | null) => (html === null ? '' : `<p class="label">${label}</p><div lang="${visitorLang}">${html}</div>`);
  const buttons = (labelled: [string, string | null][]) => {
    const shown = labelled.filter((entry): entry is [string, string] => entry[1] !== null);
    return shown.length
      ? `<p class="label">Buttons</p><ul class="buttons">${shown.map(([role, label]) => `<li lang="${visitorLang}" title="${role}">${label}</li>`).join('')}</ul>`
      : '';
  };

  const header = `<header>
<h1>Proof of consent</h1>
<dl class="facts">
${fact('Consent id', code(record.consentId))}
${fact('Received at', escapeHtml(record.receivedAt))}
${fact('Domain', `${escapeHtml(domain.name)} (${escapeHtml(domain.url)}), id ${code(domain.id)}`)}
${fact('Page', `${escapeHtml(record.origin + record.path)} (${ORIGIN_MATCHES[String(record.originMatches)]})`)}
${fact('Address', `${escapeHtml(record.address)} (truncated)`)}
${fact('Choice', `${escapeHtml(CHOICES[record.choice])} (${code(record.choice)})`)}
${record.signal ? fact('Made by', `the browser's privacy signal, not a click: ${SIGNALS[record.signal]} (${code(record.signal)})`) : ''}
${fact('Manipulation prevention', record.manipulationPrevention ? 'on: clicks a script simulated could not consent' : 'off (or not told by the banner)')}
${fact('Categories recorded', list(record.categories))}
${fact('Services recorded', list(record.services))}
${fact(
  'Configuration',
  `revision ${revision.number}, <span class="hash">${escapeHtml(revision.hash)}</span>, made ${escapeHtml(revision.createdAt)} ` +
    `${revision.keyName === null ? '(no API key recorded)' : `by “${escapeHtml(revision.keyName)}”`}; ` +
    (revision.legal ? 'a legally relevant change' : 'a cosmetic change (wording or look only)'),
)}
${fact(
  'Language shown',
  `${code(locale.shown)}${locale.fellBack ? ` (the record names ${code(locale.recorded)}, which this revision does not offer: its first language is shown)` : ''}`,
)}
</dl>
${revision.configurationVerified ? '' : '<p class="warning">The configuration this page was made from does not hash to the revision above: the texts below may not be what the visitor saw.</p>'}
${record.originMatches === false ? `<p class="warning">The page is on neither the domain's site nor one of its consent-sharing domains: ${escapeHtml(record.origin)}.</p>` : ''}
${evidence.history.length > 1 ? `<p class="warning">This consent has ${evidence.history.length} records: see its history below.</p>` : ''}
</header>`;

  const { consentModal, preferencesModal } = texts;
  const shown = `<section>
<h2>What the visitor was shown</h2>
<h3>First layer (consent banner)</h3>
<div class="shown"><section>
${shownText('Title', consentModal.title)}
${shownText('Text', consentModal.description)}
${buttons([
  ['Accept all', consentModal.acceptAllButton],
  ['Accept only necessary', consentModal.acceptNecessaryButton],
  ['Open settings', consentModal.preferencesButton],
  ['Close (declines)', consentModal.closeIconLabel],
])}
${shownText('Footer', consentModal.footer)}
</section></div>
<h3>Second layer (settings)</h3>
<div class="shown">
<section>${shownText('Title', preferencesModal.title)}</section>
${preferencesModal.sections
  .map(
    (section) =>
      `<section>${section.category ? `<p class="label">Category ${code(section.category)}</p>` : ''}` +
      `${section.title === null ? '' : `<h4 lang="${visitorLang}">${section.title}</h4>`}` +
      `${section.description === null ? '' : `<div lang="${visitorLang}">${section.description}</div>`}</section>`,
  )
  .join('\n')}
<section>${buttons([
  ['Accept all', preferencesModal.acceptAllButton],
  ['Accept only necessary', preferencesModal.acceptNecessaryButton],
  ['Save settings', preferencesModal.saveButton],
  ['Close', preferencesModal.closeIconLabel],
])}</section>
</div>
</section>`;

  const storageTable = (storage: EvidenceStorageItem[]) =>
    storage.length === 0
      ? '<em>none declared</em>'
      : `<table class="storage"><thead><tr><th scope="col">Name</th><th scope="col">Kept in</th><th scope="col">Lifetime</th><th scope="col">Description</th></tr></thead><tbody>${storage
          .map(
            (item) =>
              `<tr><td>${code(item.name)}${item.dynamic ? ' (pattern)' : ''}</td><td>${STORAGE_TYPES[item.storageType]}</td>` +
              `<td lang="${visitorLang}">${escapeHtml(item.lifetime)}</td><td lang="${visitorLang}">${escapeHtml(item.description)}</td></tr>`,
          )
          .join('')}</tbody></table>`;
  const serviceRow = (service: EvidenceService) =>
    `<tr class="service"><td><strong lang="${visitorLang}">${service.name}</strong><br>` +
    `Vendor: ${service.vendor ? escapeHtml(service.vendor) : '<em>not named</em>'}<br>` +
    `Privacy policy: ${service.privacyPolicyUrl ? `<span class="hash">${escapeHtml(service.privacyPolicyUrl)}</span>` : '<em>none</em>'}<br>` +
    `Id: ${code(service.id)}</td><td>${acceptance(service.accepted)}</td><td>${storageTable(service.storage)}</td></tr>`;
  const categoryTables = `<section>
<h2>Categories, services and what they store</h2>
${evidence.categories.length === 0 ? '<p>The configuration had no services.</p>' : ''}
${evidence.categories
  .map(
    (category) =>
      `<h3><span lang="${visitorLang}">${category.title}</span> (${code(category.key)}, purpose ${code(category.purpose)}): ${acceptance(category.accepted)}</h3>` +
      `<table><thead><tr><th scope="col" style="width:34%">Service</th><th scope="col" style="width:12%">Consent</th><th scope="col">Cookies and storage</th></tr></thead>` +
      `<tbody>${category.services.map(serviceRow).join('')}</tbody></table>`,
  )
  .join('\n')}
</section>`;

  const historyRow = (entry: ConsentRecord) =>
    // The record this page details, in bold.
    `<tr${entry.receivedAt === record.receivedAt ? ' class="detailed"' : ''}>` +
    `<td>${escapeHtml(entry.receivedAt)}</td><td>${code(entry.choice)}</td><td>${list(entry.categories)}</td><td>${list(entry.services)}</td>` +
    `<td><span class="hash">${escapeHtml(entry.revision)}</span></td><td>${escapeHtml(entry.origin + entry.path)}<br>${ORIGIN_MATCHES[String(entry.originMatches)]}</td>` +
    `<td>${escapeHtml(entry.address)}</td></tr>`;
  const history = `<section>
<h2>History of this consent</h2>
<p>Every record the service holds for consent id ${code(record.consentId)}, oldest first. A record is sent by the visitor's browser without credentials: anyone who knows a consent id can add one, so each record stands with its page and network.</p>
<table class="history"><thead><tr><th scope="col">Received at</th><th scope="col">Choice</th><th scope="col">Categories</th><th scope="col">Services</th><th scope="col">Revision</th><th scope="col">Page</th><th scope="col">Network</th></tr></thead>
<tbody>${evidence.history.map(historyRow).join('')}</tbody></table>
</section>`;

  const unknown =
    evidence.unknownServices.length || evidence.unknownCategories.length
      ? `<section><h2>Recorded but not in this configuration</h2><p class="warning">The record names what this revision does not have.</p><dl class="facts">` +
        `${evidence.unknownServices.length ? fact('Services', list(evidence.unknownServices)) : ''}` +
        `${evidence.unknownCategories.length ? fact('Categories', list(evidence.unknownCategories)) : ''}</dl></section>`
      : '';

  // The document is in the visitor's language; the frame around their texts is English and says so.
  return `<!doctype html>
<html lang="${visitorLang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Proof of consent ${escapeHtml(record.consentId)} – ${escapeHtml(domain.name)}</title>
<style>${STYLE}</style>
</head>
<body lang="en">
${header}
${shown}
${categoryTables}
${privacyStringsHtml(record, evidence.privacyStrings)}
${unknown}
${history}
<footer>The texts under “What the visitor was shown” are those the consent banner rendered for configuration revision ${revision.number} in ${code(locale.shown)}. A service counts as accepted when the record names it or the choice was “Accept all”; those of the necessary category always count as accepted.</footer>
</body>
</html>
`;
}
