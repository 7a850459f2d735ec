import type { AvailablePreset, PresetWhy } from './onboarding.contract.ts';
import { type Attribution, type Catalog, type CatalogEntry, type FoundKey, registrableDomain, type UrlKind } from '../catalog/catalog.ts';
import type { ScanFindings } from '../../scanner/scan.ts';
import { unblockableOnSite } from './advice.ts';

type Evidence = AvailablePreset['evidence'][number];

/** Each list of URLs a scan reports: the evidence kind it gives, the kind `why` names it by, and the signals it is matched against. */
const URL_EVIDENCE: readonly ['scripts' | 'iframes' | 'stylesheets' | 'fonts', Evidence['kind'], 'script' | 'frame' | 'stylesheet' | 'font', UrlKind][] = [
  ['scripts', 'script', 'script', 'scripts'],
  ['iframes', 'iframe', 'frame', 'iframes'],
  ['stylesheets', 'stylesheet', 'stylesheet', 'resources'],
  ['fonts', 'font', 'font', 'resources'],
];

type Found = { evidence: Evidence; why: PresetWhy };
type FoundStorage = FoundKey & { kind: 'cookie' | 'localStorage' | 'sessionStorage'; domain: string };

/**
 * Whether a cookie or storage key the catalog gives to a service is that service's own evidence:
 * set on the service's own domain (or by the domain rule, which is that), or set where the service's
 * own script, frame, stylesheet or font is found, or first party (Catalog.attribute has given a
 * first-party name to a service found on the site that is known to set it, before the one that
 * lists it). A name on a third party's domain that is not the service's says nothing of it.
 */
function isOwnEvidence(catalog: Catalog, owner: Attribution, key: FoundStorage, site: string | null, shownByUrl: ReadonlySet<number>): boolean {
  if (owner.rule === 'domain' || shownByUrl.has(owner.entry.id)) return true;
  if (site !== null && registrableDomain(key.domain) === site) return true;
  return catalog.isOwnDomain(owner.entry, key.domain) ?? true;
}

/**
 * The catalog services a scan's findings reveal, by id, each suggested from its own evidence and
 * saying what it is (`why`, and the older `evidence`): scripts, frames, stylesheets and fonts by
 * their source address; cookies and storage keys by name and by the domain they were set on (a
 * cookie's domain, a storage key's origin), as `Catalog.attribute` decides, counted only where
 * `isOwnEvidence` holds. A cookie that belongs to a service by its domain is evidence of that
 * service, whatever its name (`fr` on `.facebook.com` once Meta Pixel is found); a cookie that a
 * service found on the site is known to set (`alsoSetBy`: Google Tag Manager's `_gcl_au`,
 * YouTube's `IDE` on doubleclick.net) is evidence of that service and suggests no other. Each says
 * whether the banner can hold it back there (`blockable`, with a `note` when not).
 */
export function recogniseServices(catalog: Catalog, findings: ScanFindings): AvailablePreset[] {
  const found = new Map<number, { entry: CatalogEntry; items: Found[] }>();
  const note = (entry: CatalogEntry, item: Found) => {
    const record = found.get(entry.id) ?? { entry, items: [] };
    if (!record.items.some(({ evidence }) => evidence.kind === item.evidence.kind && evidence.value === item.evidence.value)) record.items.push(item);
    found.set(entry.id, record);
  };

  const byUrl: [CatalogEntry, Found][] = URL_EVIDENCE.flatMap(([field, kind, whyKind, signals]) =>
    findings[field].flatMap((source) =>
      catalog.matchUrl(source, signals).map((entry): [CatalogEntry, Found] => [entry, { evidence: { kind, value: source }, why: { kind: whyKind, url: source } }]),
    ),
  );
  const shownByUrl = new Set(byUrl.map(([entry]) => entry.id));

  const keys: FoundStorage[] = [
    ...findings.cookies.map((cookie) => ({ kind: 'cookie' as const, name: cookie.name, storageType: 'cookie' as const, domain: cookie.domain })),
    ...(['localStorage', 'sessionStorage'] as const).flatMap((kind) =>
      findings[kind].map((key) => ({ kind, name: key.name, storageType: kind, domain: key.origin })),
    ),
  ];
  const owners = catalog.attribute(
    keys,
    byUrl.map(([entry]) => entry),
  );
  const site = registrableDomain(findings.url);
  keys.forEach((key, index) => {
    const owner = owners[index];
    if (!owner || !isOwnEvidence(catalog, owner, key, site, shownByUrl)) return;
    const why: PresetWhy = key.kind === 'cookie' ? { kind: 'cookie', name: key.name, domain: key.domain } : { kind: key.kind, name: key.name, origin: key.domain };
    note(owner.entry, { evidence: { kind: key.kind, value: key.name }, why });
  });
  for (const [entry, item] of byUrl) note(entry, item);

  return [...found.values()]
    .sort((a, b) => a.entry.id - b.entry.id)
    .map(({ entry, items }) => {
      const evidence = items.map((item) => item.evidence);
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
        why: items.map((item) => item.why),
      };
    });
}
