import type { AvailablePreset } from './onboarding.contract.ts';
import type { Catalog, CatalogEntry } from '../catalog/catalog.ts';
import type { ScanFindings } from '../../scanner/scan.ts';

type Evidence = AvailablePreset['evidence'][number];

/**
 * The catalog services a scan's findings reveal, by id, each with what revealed it: cookies and
 * storage keys by name (exact or pattern), scripts and frames by their source address.
 */
export function recogniseServices(catalog: Catalog, findings: ScanFindings): AvailablePreset[] {
  const found = new Map<number, { entry: CatalogEntry; evidence: Evidence[] }>();
  const note = (entry: CatalogEntry, evidence: Evidence) => {
    const record = found.get(entry.id) ?? { entry, evidence: [] };
    if (!record.evidence.some((e) => e.kind === evidence.kind && e.value === evidence.value)) record.evidence.push(evidence);
    found.set(entry.id, record);
  };
  for (const cookie of findings.cookies) {
    const match = catalog.matchStorageKey(cookie.name, 'cookie');
    if (match) note(match.entry, { kind: 'cookie', value: cookie.name });
  }
  for (const kind of ['localStorage', 'sessionStorage'] as const) {
    for (const key of findings[kind]) {
      const match = catalog.matchStorageKey(key.name, kind);
      if (match) note(match.entry, { kind, value: key.name });
    }
  }
  for (const [kind, urls] of [['script', findings.scripts], ['iframe', findings.iframes]] as const) {
    for (const source of urls) {
      for (const entry of catalog.matchUrl(source, kind === 'script' ? 'scripts' : 'iframes')) note(entry, { kind, value: source });
    }
  }
  return [...found.values()]
    .sort((a, b) => a.entry.id - b.entry.id)
    .map(({ entry, evidence }) => ({
      id: entry.id,
      name: entry.name,
      purpose: entry.purpose,
      vendor: entry.vendor,
      translations: entry.translations,
      evidence,
    }));
}
