import type { PurposeId } from '../../kernel/contract/fields.ts';
import type { ScanFindings, ScanPhase } from '../../scanner/scan.ts';
import type { Catalog, CatalogEntry, FoundKey } from '../catalog/catalog.ts';
import type { ScanVerdict, ThirdParty } from './onboarding.contract.ts';

/**
 * The scan's verdicts, one line each as a regulator's report states them: what was stored or sent
 * that is not strictly necessary, by whom, and in which phase ("`_fbp` set by
 * connect.facebook.net/en_US/fbevents.js before consent (Meta Pixel)"). Counted:
 *
 * - cookies and Web Storage keys of a catalog service whose purpose is not "technically
 *   necessary", and third-party cookies nobody knows (a first-party name nobody knows may be the
 *   site's own session and is not judged);
 * - tracking beacons (third-parties.ts), once per host and phase.
 *
 * Before consent first, then what appeared only after accepting a banner the site runs.
 */

/** Verdicts listed at most; the scan answer's full lists hold the rest. */
export const MAX_VERDICTS = 100;

const NECESSARY: PurposeId = '41ba25c';

export function scanVerdicts(catalog: Catalog, findings: ScanFindings, thirdParties: readonly ThirdParty[]): ScanVerdict[] {
  const verdicts: ScanVerdict[] = [...storedVerdicts(catalog, findings), ...beaconVerdicts(findings, thirdParties)];
  const order: Record<ScanPhase, number> = { 'before-consent': 0, 'after-accept': 1 };
  return verdicts.sort((a, b) => order[a.phase] - order[b.phase]).slice(0, MAX_VERDICTS);
}

const when = (phase: ScanPhase, findings: ScanFindings) =>
  phase === 'before-consent' ? 'before consent' : `only after the site's own banner (${findings.existingBanner?.cmp ?? 'another consent tool'}) was accepted`;

/** An address as a report shows it: host and path, without query or fragment. */
export function shortAddress(address: string): string {
  if (!URL.canParse(address)) return address;
  const url = new URL(address);
  return `${url.host}${url.pathname === '/' ? '' : url.pathname}`;
}

function storedVerdicts(catalog: Catalog, findings: ScanFindings): ScanVerdict[] {
  type Stored = { subject: 'cookie' | 'localStorage' | 'sessionStorage'; name: string; phase: ScanPhase; setBy: string | null; where: string; thirdParty: boolean };
  const stored: Stored[] = [
    ...findings.cookies.map((cookie) => ({
      subject: 'cookie' as const,
      name: cookie.name,
      phase: cookie.phase,
      setBy: cookie.setBy,
      where: cookie.domain.replace(/^\./, ''),
      thirdParty: cookie.party === 'third',
    })),
    ...(['localStorage', 'sessionStorage'] as const).flatMap((subject) =>
      findings[subject].map((key) => ({ subject, name: key.name, phase: key.phase, setBy: key.setBy, where: key.origin, thirdParty: false })),
    ),
  ];
  const keys: FoundKey[] = stored.map((item) => ({ name: item.name, storageType: item.subject, domain: item.where }));
  const owners = catalog.attribute(keys, []);
  return stored.flatMap((item, index): ScanVerdict[] => {
    const owner: CatalogEntry | undefined = owners[index]?.entry;
    if (owner ? owner.purpose === NECESSARY : !item.thirdParty) return [];
    const what = item.subject === 'cookie' ? 'cookie' : `${item.subject} key`;
    const by = item.setBy ? `set by ${shortAddress(item.setBy)}` : `set on ${item.where}`;
    const who = owner ? owner.name : 'unrecognised third party';
    return [{ phase: item.phase, subject: item.subject, text: `${what} \`${item.name}\` ${by} ${when(item.phase, findings)} (${who})` }];
  });
}

function beaconVerdicts(findings: ScanFindings, thirdParties: readonly ThirdParty[]): ScanVerdict[] {
  const phasesOf = new Map<string, Set<ScanPhase>>();
  for (const request of findings.requests) phasesOf.set(request.url, (phasesOf.get(request.url) ?? new Set()).add(request.phase));
  return thirdParties.flatMap((party) => {
    const who = party.services.map((service) => service.name).join(', ') || party.trackerList?.name || 'unrecognised third party';
    const byPhase = new Map<ScanPhase, string[]>();
    for (const beacon of party.beacons) {
      for (const phase of phasesOf.get(beacon.url) ?? []) byPhase.set(phase, [...(byPhase.get(phase) ?? []), shortAddress(beacon.url)]);
    }
    return [...byPhase].map(([phase, addresses]): ScanVerdict => {
      const distinct = [...new Set(addresses)];
      const more = distinct.length > 1 ? ` and ${distinct.length - 1} more address${distinct.length > 2 ? 'es' : ''}` : '';
      return {
        phase,
        subject: 'beacon',
        text: `tracking beacon sent to ${distinct[0]}${more} ${when(phase, findings)} (${who})`,
      };
    });
  });
}
