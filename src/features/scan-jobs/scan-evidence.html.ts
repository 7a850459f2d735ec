import { PURPOSES } from '../../kernel/contract/fields.ts';
import { escapeHtml } from '../../kernel/html.ts';
import type { FoundCookie, VisitedPage } from '../../scanner/scan.ts';
import type { AvailablePreset, OnboardingScanResult, ScanAdvice, ScanVerdict } from '../onboarding/onboarding.contract.ts';
import type { ScanJob } from './scan-job.contract.ts';

/**
 * One ended scan job as a standalone printable page, for an operator to file: what the scan saw
 * (pages, hosts, cookies, storage, beacons), what it suggests (services, with why) and what it
 * found about the operator (legal pages, address). No scripts, no external resources; every value
 * of the scan is escaped text.
 */

/**
 * When a cookie or key was first seen (before any consent, or only after the scan accepted the
 * site's own banner), and the script that set it.
 */
type Phased = { phase?: string; setBy?: string | null };
type StorageKey = { name: string; origin: string } & Phased;

type Service = { id: number; name: string };

/** A third-party host the scan's pages contacted, with its evidence. */
type ThirdPartyHost = {
  host: string;
  site?: string;
  services?: Service[];
  trackerList?: { name: string; company?: string; category?: string } | null;
  kinds?: string[];
  pages?: string[];
  initiators?: string[];
  beacons?: { url: string; why: string }[];
  cookies?: string[];
  phases?: string[];
  recognised?: string | null;
};

/**
 * The result as this page reads it. `thirdParties`, `verdicts`, `existingBanner` and the phases
 * are newer than many stored results (and than this page): each is read only when it is there.
 */
type EvidenceResult = Omit<OnboardingScanResult, 'storage' | 'thirdParties' | 'verdicts' | 'existingBanner'> & {
  storage: {
    cookies: (FoundCookie & Phased)[];
    localStorage: StorageKey[];
    sessionStorage: StorageKey[];
    indexedDB?: StorageKey[];
    cacheStorage?: StorageKey[];
  };
  thirdParties?: ThirdPartyHost[];
  verdicts?: ScanVerdict[];
  existingBanner?: { cmp?: string | null; accepted?: boolean; error?: string } | null;
};

const evidenceOf = (result: OnboardingScanResult): EvidenceResult => result as unknown as EvidenceResult;

const PHASES: Record<string, string> = { 'before-consent': 'before consent', 'after-accept': 'after accepting the banner' };
const RECOGNISED: Record<string, string> = { catalog: 'service catalog', 'tracker-list': 'tracker list' };
const BEACON_REASONS: Record<string, string> = {
  catalog: "a catalog service's tracking endpoint",
  'tracker-list': 'a host the tracker list files under ad, analytics, social or marketing',
  sendBeacon: 'navigator.sendBeacon (or a link ping) to another site',
  pixel: 'a 1×1 image whose address carries an identifier',
};
const STORAGE_KINDS = [
  ['localStorage', 'Local storage'],
  ['sessionStorage', 'Session storage'],
  ['indexedDB', 'IndexedDB database'],
  ['cacheStorage', 'Cache Storage cache'],
] as const;
const ADVICE_KINDS: Record<string, string> = {
  'iframe-src': 'Frame in the HTML',
  'third-party-stylesheet': 'Stylesheet of another site',
  'third-party-font': 'Font of another site',
};

const text = escapeHtml;
/** The words for a value the scan recorded, else the value itself (as text: stored results may hold values newer than this page). */
const wordFor = (words: Readonly<Record<string, string>>, value: string) => text(Object.hasOwn(words, value) ? words[value]! : value);
const code = (value: string) => `<code>${escapeHtml(value)}</code>`;
const none = '<em>none</em>';
const list = (values: readonly string[] | undefined, show: (value: string) => string = code) =>
  values?.length ? values.map(show).join(', ') : none;
const lines = (values: readonly string[] | undefined, show: (value: string) => string = code) =>
  values?.length ? values.map(show).join('<br>') : none;
const fact = (term: string, value: string) => `<dt>${term}</dt><dd>${value}</dd>`;
const phaseOf = (phase: string | undefined) => (phase === undefined ? '<em>not recorded</em>' : wordFor(PHASES, phase));
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const unrecognised = (host: ThirdPartyHost) => (host.recognised === undefined ? !host.services?.length && !host.trackerList : host.recognised === null);
const head = (...names: string[]) => `<thead><tr>${names.map((name) => `<th scope="col">${name}</th>`).join('')}</tr></thead>`;
const table = (className: string, columns: string[], rows: string[]) =>
  `<table class="${className}">${head(...columns)}<tbody>${rows.join('')}</tbody></table>`;
const row = (...cells: string[]) => `<tr>${cells.map((cell) => `<td>${cell}</td>`).join('')}</tr>`;
const section = (title: string, body: string) => `<section>\n<h2>${title}</h2>\n${body}\n</section>`;

function pagesTable(pages: readonly VisitedPage[]): string {
  if (pages.length === 0) return '<p>No page was visited.</p>';
  return table(
    'pages',
    ['#', 'Address', 'Landed at', 'Status', 'Notes'],
    pages.map((page, index) =>
      row(
        String(index + 1),
        code(page.url),
        page.landedUrl && page.landedUrl !== page.url ? code(page.landedUrl) : page.landedUrl ? 'the same address' : '<em>did not load</em>',
        page.status === null ? '<em>no answer</em>' : String(page.status),
        [page.slow ? 'slow: requests still open when read' : '', page.error ? `<strong>error:</strong> ${text(page.error)}` : '']
          .filter(Boolean)
          .join('<br>'),
      ),
    ),
  );
}

function thirdPartiesSection(result: EvidenceResult): string {
  const title = 'Third-party hosts contacted';
  if (!result.thirdParties) return section(title, '<p>Not recorded: this scan was made before the service recorded the hosts its pages contacted.</p>');
  if (result.thirdParties.length === 0) return section(title, '<p>The pages contacted no host of another site.</p>');
  return section(
    title,
    `<p>Hosts of another site than the scanned one that the visited pages made requests to, with the kinds of request, the pages that made them and what started them.</p>` +
      table(
        'hosts',
        ['Host', 'Service', 'Request kinds', 'Pages', 'Started by', 'Cookies', 'Phases'],
        result.thirdParties.map((host) =>
          row(
            `${code(host.host)}${host.site && host.site !== host.host ? `<br>site ${code(host.site)}` : ''}`,
            whoIs(host),
            list(host.kinds, text),
            lines(host.pages),
            lines(host.initiators),
            list(host.cookies),
            list(host.phases, (phase) => wordFor(PHASES, phase)),
          ),
        ),
      ),
  );
}

/** Who a host is: the catalog's services, else the tracker list's entity, else nobody. */
function whoIs(host: ThirdPartyHost): string {
  const services = host.services ?? [];
  const by = host.recognised ? `<br>by the ${wordFor(RECOGNISED, host.recognised)}` : '';
  if (services.length) return `${services.map((service) => `${text(service.name)} (preset ${service.id})`).join('<br>')}${by}`;
  const entity = host.trackerList;
  if (entity) {
    const details = [entity.company && entity.company !== entity.name ? text(entity.company) : '', entity.category ? text(entity.category) : ''].filter(Boolean);
    return `${text(entity.name)}${details.length ? ` (${details.join(', ')})` : ''}${by}`;
  }
  return unrecognised(host) ? '<strong>unrecognised third party</strong>' : `<em>not named</em>${by}`;
}

function beaconsSection(result: EvidenceResult): string {
  const title = 'Beacons';
  if (!result.thirdParties) return section(title, '<p>Not recorded: this scan was made before the service recorded beacons.</p>');
  const beacons = result.thirdParties.flatMap((host) => (host.beacons ?? []).map((beacon) => ({ host: host.host, ...beacon })));
  if (beacons.length === 0) return section(title, '<p>No request was recognised as a tracking beacon.</p>');
  return section(
    title,
    '<p>Requests recognised as tracking hits (measurement endpoints, pixels, <code>sendBeacon</code> to another site), with why.</p>' +
      table('beacons', ['Host', 'Address', 'Why'], beacons.map((beacon) => row(code(beacon.host), code(beacon.url), wordFor(BEACON_REASONS, beacon.why)))),
  );
}

/** What the cookie and storage tables show beyond the scan's oldest fields, when the result records it. */
type Recorded = { phase: boolean; setBy: boolean };
const recordedCells = (recorded: Recorded, item: Phased) => [
  ...(recorded.phase ? [phaseOf(item.phase)] : []),
  ...(recorded.setBy ? [item.setBy ? code(item.setBy) : item.setBy === null ? '<em>not seen</em>' : '<em>not recorded</em>'] : []),
];
const recordedColumns = (recorded: Recorded) => [...(recorded.phase ? ['Phase'] : []), ...(recorded.setBy ? ['Set by'] : [])];

function cookiesSection(cookies: readonly (FoundCookie & Phased)[], recorded: Recorded): string {
  if (cookies.length === 0) return section('Cookies', '<p>The browser held no cookie at the end of the scan.</p>');
  const flags = (cookie: FoundCookie) =>
    [cookie.httpOnly ? 'HttpOnly' : '', cookie.secure ? 'Secure' : '', cookie.sameSite ? `SameSite=${text(cookie.sameSite)}` : ''].filter(Boolean).join(' ');
  return section(
    'Cookies',
    table(
      'cookies',
      ['Name', 'Domain', 'Party', 'Expires', 'Flags', ...recordedColumns(recorded)],
      cookies.map((cookie) =>
        row(
          code(cookie.name),
          `${code(cookie.domain)}${cookie.path === '/' ? '' : ` path ${code(cookie.path)}`}`,
          cookie.party === 'first' ? 'first party' : '<strong>third party</strong>',
          cookie.expires === null ? 'end of session' : text(cookie.expires),
          flags(cookie),
          ...recordedCells(recorded, cookie),
        ),
      ),
    ),
  );
}

function storageSection(storage: EvidenceResult['storage'], recorded: Recorded): string {
  const keys = STORAGE_KINDS.flatMap(([kind, label]) => (storage[kind] ?? []).map((key) => ({ label, ...key })));
  const title = 'Web storage, IndexedDB and Cache Storage';
  if (keys.length === 0) return section(title, '<p>No key, database or cache was found.</p>');
  return section(
    title,
    table(
      'storage',
      ['Kind', 'Name', 'Origin', ...recordedColumns(recorded)],
      keys.map((key) => row(key.label, code(key.name), code(key.origin), ...recordedCells(recorded, key))),
    ),
  );
}

/** Why a service is suggested, one line per piece of its own evidence (older results: what revealed it). */
function whyOf(preset: AvailablePreset): string[] {
  if (!preset.why) return preset.evidence.map((evidence) => `${text(evidence.kind)} ${code(evidence.value)}`);
  return preset.why.map((why) => {
    switch (why.kind) {
      case 'cookie':
        return `cookie ${code(why.name)} on ${code(why.domain)}`;
      case 'localStorage':
      case 'sessionStorage':
        return `${why.kind === 'localStorage' ? 'local storage' : 'session storage'} key ${code(why.name)} of ${code(why.origin)}`;
      case 'script':
      case 'frame':
      case 'stylesheet':
      case 'font':
        return `${why.kind} ${code(why.url)}`;
      default: {
        // A kind of evidence newer than this page: its kind and whatever names it.
        const other = why as Record<string, unknown>;
        const named = ['url', 'name', 'host', 'domain', 'origin'].map((key) => other[key]).filter((value): value is string => typeof value === 'string');
        return `${text(String(other.kind))} ${named.map(code).join(' ')}`;
      }
    }
  });
}

function servicesSection(presets: readonly AvailablePreset[]): string {
  if (presets.length === 0) return section('Services suggested', '<p>No service of the catalog was recognised.</p>');
  return section(
    'Services suggested',
    table(
      'services',
      ['Service', 'Purpose', 'Banner can hold it back', 'Why it is suggested'],
      presets.map((preset) =>
        row(
          `<strong>${text(preset.name)}</strong><br>${preset.vendor ? text(preset.vendor) : '<em>vendor not named</em>'}<br>preset ${preset.id}`,
          `${wordFor(PURPOSES, preset.purpose)} (${code(preset.purpose)})`,
          preset.blockable === undefined ? '<em>not recorded</em>' : preset.blockable ? 'yes' : `<strong>no</strong>${preset.note ? `: ${text(preset.note)}` : ''}`,
          lines(whyOf(preset), (line) => line),
        ),
      ),
    ),
  );
}

function adviceSection(advice: readonly ScanAdvice[] | undefined): string {
  if (!advice?.length) return '';
  return section(
    'What no banner can hold back',
    table(
      'advice',
      ['Kind', 'Host', 'Pages', 'Addresses', 'What to change'],
      advice.map((entry) => row(wordFor(ADVICE_KINDS, entry.kind), code(entry.host), lines(entry.pages), lines(entry.sources), text(entry.fix))),
    ),
  );
}

function legalSection(result: EvidenceResult): string {
  const { company, street, zipCode, city } = result.address;
  const place = [zipCode, city].filter((part): part is string => !!part).join(' ');
  const address = [company, street, place].filter((part): part is string => !!part).map(text);
  return section(
    'Legal pages and the operator',
    `<dl class="facts">
${fact('Imprint', result.imprintUrl ? code(result.imprintUrl) : '<strong>not found</strong>')}
${fact('Privacy policy', result.privacyPolicyUrl ? code(result.privacyPolicyUrl) : '<strong>not found</strong>')}
${fact('Address on the imprint', address.length ? address.join('<br>') : '<strong>not found</strong>')}
</dl>`,
  );
}

/** The verdicts the scan gave, and what it counted. */
function glanceSection(result: EvidenceResult, job: ScanJob): string {
  const cookies = result.storage.cookies;
  const thirdPartyCookies = cookies.filter((cookie) => cookie.party === 'third').length;
  const keys = STORAGE_KINDS.reduce((sum, [kind]) => sum + (result.storage[kind]?.length ?? 0), 0);
  const failedPages = result.pages.filter((page) => page.error !== undefined || page.status === null || page.status >= 400).length;
  const verdicts = result.verdicts
    ? result.verdicts.length
      ? `<ul class="verdicts">${result.verdicts.map((verdict) => `<li class="${verdict.phase === 'after-accept' ? 'after-accept' : 'before-consent'}">${text(verdict.text)}</li>`).join('')}</ul>`
      : '<p>The scan gave no verdict: nothing was seen that calls for one.</p>'
    : '<p>Not recorded: this scan was made before the service gave verdicts.</p>';
  return section(
    'At a glance',
    `${verdicts}
<ul class="counts">
<li>${result.pages.length} of at most ${job.pageLimit} pages visited${failedPages ? `, <strong>${failedPages} not read</strong>` : ''}</li>
<li>${cookies.length} cookies, ${thirdPartyCookies} of them third party</li>
<li>${keys} storage keys, databases and caches</li>
${result.thirdParties ? `<li>${result.thirdParties.length} third-party hosts contacted, ${result.thirdParties.filter(unrecognised).length} of them unrecognised</li>` : ''}
<li>${result.availablePresets.length} services suggested</li>
<li>Imprint ${result.imprintUrl ? 'found' : '<strong>not found</strong>'}, privacy policy ${result.privacyPolicyUrl ? 'found' : '<strong>not found</strong>'}</li>
</ul>`,
  );
}

const STYLE = `
*{box-sizing:border-box}
body{font:11pt/1.45 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;color:#111;margin:2rem auto;max-width:66rem;padding:0 1rem}
h1{font-size:1.6em;margin:0 0 .5em}
h2{font-size:1.25em;margin:1.6em 0 .5em;border-bottom:1px solid #999;padding-bottom:.2em}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.2em 1em;margin:0}
dl.facts dt{font-weight:600}
dl.facts dd{margin:0}
code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.9em;overflow-wrap:anywhere}
.warning{border:2px solid #000;padding:.5em .8em;font-weight:600}
ul.verdicts li{font-weight:600}ul.verdicts li.after-accept{font-weight:400}
table{border-collapse:collapse;width:100%;margin:.4em 0 1.2em;font-size:.92em}
th,td{border:1px solid #999;padding:.3em .45em;text-align:left;vertical-align:top;overflow-wrap:anywhere}
th{background:#eee;overflow-wrap:normal}
footer{margin-top:2em;font-size:.85em;color:#444}
@page{size:A4;margin:15mm 12mm}
@media print{
  body{margin:0;max-width:none;padding:0;font-size:9pt}
  th{background:none}
  thead{display:table-header-group}
  tr{break-inside:avoid;page-break-inside:avoid}
  h2{break-after:avoid;page-break-after:avoid}
}
`;

/** An ended scan job (succeeded or failed) as a printable page. */
export function scanEvidenceHtml(job: ScanJob): string {
  const result = job.result === null ? null : evidenceOf(job.result);
  const banner = result?.existingBanner;
  const header = `<header>
<h1>Website scan report</h1>
<dl class="facts">
${fact('Site', code(job.url))}
${result && result.url !== job.url ? fact('Opened at', code(result.url)) : ''}
${fact('Scan', `${code(job.id)}, ${job.trigger === 'schedule' ? 'the permanent scan' : job.trigger === 'request' ? 'the onboarding scan' : 'started on request'}`)}
${fact('Requested at', text(job.requestedAt))}
${fact('Ran', `${job.startedAt ? text(job.startedAt) : '<em>not started</em>'} to ${job.finishedAt ? text(job.finishedAt) : '<em>not finished</em>'}${job.attempts > 1 ? ` (${job.attempts} runs: a stopped worker’s scan was taken over)` : ''}`)}
${result ? fact('Duration', seconds(result.durationMs)) : ''}
${fact('Limits', `at most ${job.pageLimit} pages`)}
${fact('Status', job.status === 'succeeded' ? 'succeeded' : `<strong>${text(job.status)}</strong>`)}
${banner ? fact('Existing consent banner', `${banner.cmp ? text(banner.cmp) : '<em>not named</em>'}; ${banner.accepted ? 'the scan accepted it and looked again' : `the scan could not accept it${banner.error ? ` (${text(banner.error)})` : ''}`}`) : ''}
</dl>
${job.error ? `<p class="warning">The scan failed (${code(job.error.kind)}): ${text(job.error.message)}</p>` : ''}
</header>`;

  const items: Phased[] = result ? [...result.storage.cookies, ...STORAGE_KINDS.flatMap(([kind]) => result.storage[kind] ?? [])] : [];
  const recorded = { phase: items.some((item) => item.phase !== undefined), setBy: items.some((item) => item.setBy !== undefined) };
  const body = result
    ? [
        glanceSection(result, job),
        section('Pages visited', pagesTable(result.pages)),
        thirdPartiesSection(result),
        beaconsSection(result),
        cookiesSection(result.storage.cookies, recorded),
        storageSection(result.storage, recorded),
        servicesSection(result.availablePresets),
        adviceSection(result.advice),
        legalSection(result),
      ].join('\n')
    : section(job.status === 'failed' ? 'Pages visited before it failed' : 'Pages visited', pagesTable(job.pages));

  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Website scan ${escapeHtml(job.id)} – ${escapeHtml(job.url)}</title>
<style>${STYLE}</style>
</head>
<body>
${header}
${body}
<footer>Made by the service from scan ${code(job.id)} as it is stored. The scan opens the site in a fresh browser profile (cookies and storage of no earlier visit), visits its pages and reads what the browser holds at the end.${recorded.phase ? ' Phase “before consent”: seen while no consent had been given; “after accepting the banner”: seen only after the scan accepted the consent banner the site already runs.' : ''}</footer>
</body>
</html>
`;
}
