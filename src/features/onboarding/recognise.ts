import type { AvailablePreset } from './onboarding.contract.ts';
import type { Catalog, CatalogEntry, FoundKey, UrlKind } from '../catalog/catalog.ts';
import type { ScanFindings } from '../../scanner/scan.ts';
import { unblockableOnSite } from './advice.ts';

type Evidence = AvailablePreset['evidence'][number];

/** Each list of URLs a scan reports: the evidence kind it gives and the signals it is matched against. */
const URL_EVIDENCE: readonly ['scripts' | 'iframes' | 'stylesheets' | 'fonts', Evidence['kind'], UrlKind][] = [
  ['scripts', 'script', 'scripts'],
  ['iframes', 'iframe', 'iframes'],
  ['stylesheets', 'stylesheet', 'resources'],
  ['fonts', 'font', 'resources'],
];

/**
 * The catalog services a scan's findings reveal, by id, each with what revealed it: scripts,
 * frames, stylesheets and fonts by their source address; cookies and storage keys by name and by
 * the domain they were set on (a cookie's domain, a storage key's origin), as
 * `Catalog.attribute` decides. A cookie that belongs to a service by its domain is evidence of
 * that service, whatever its name (`fr` on `.facebook.com` once Meta Pixel is found). Each says
 * whether the banner can hold it back there (`blockable`, with a `note` when not).
 */
export function recogniseServices(catalog: Catalog, findings: ScanFindings): AvailablePreset[] {
  const found = new Map<number, { entry: CatalogEntry; evidence: Evidence[] }>();
  const note = (entry: CatalogEntry, evidence: Evidence) => {
    const record = found.get(entry.id) ?? { entry, evidence: [] };
    if (!record.evidence.some((e) => e.kind === evidence.kind && e.value === evidence.value)) record.evidence.push(evidence);
    found.set(entry.id, record);
  };

  const byUrl: [CatalogEntry, Evidence][] = URL_EVIDENCE.flatMap(([field, kind, signals]) =>
    findings[field].flatMap((source) => catalog.matchUrl(source, signals).map((entry): [CatalogEntry, Evidence] => [entry, { kind, value: source }])),
  );

  const keys: (FoundKey & { kind: 'cookie' | 'localStorage' | 'sessionStorage' })[] = [
    ...findings.cookies.map((cookie) => ({ kind: 'cookie' as const, name: cookie.name, storageType: 'cookie' as const, domain: cookie.domain })),
    ...(['localStorage', 'sessionStorage'] as const).flatMap((kind) =>
      findings[kind].map((key) => ({ kind, name: key.name, storageType: kind, domain: key.origin })),
    ),
  ];
  const owners = catalog.attribute(
    keys,
    byUrl.map(([entry]) => entry),
  );
  keys.forEach((key, index) => {
    const owner = owners[index];
    if (owner) note(owner.entry, { kind: key.kind, value: key.name });
  });
  for (const [entry, evidence] of byUrl) note(entry, evidence);

  return [...found.values()]
    .sort((a, b) => a.entry.id - b.entry.id)
    .map(({ entry, evidence }) => {
      const note = unblockableOnSite(entry, evidence);
      return {
        id: entry.id,
        name: entry.name,
        purpose: entry.purpose,
        vendor: entry.vendor,
        translations: entry.translations,
        evidence,
        blockable: note === undefined,
        ...(note === undefined ? {} : { note }),
      };
    });
}
