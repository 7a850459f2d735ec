import { type Catalog, type CatalogEntry, registrableDomain } from '../catalog/catalog.ts';
import type { FoundCookie } from '../../scanner/site-visit.ts';
import { REQUEST_KINDS, SCAN_PHASES, type ThirdPartyRequest } from '../../scanner/traffic.ts';
import { MAX_BEACONS_PER_HOST, MAX_INITIATORS_PER_HOST, type ThirdParty, type ThirdPartyBeacon } from './onboarding.contract.ts';
import { listedThirdParty, type ListedThirdParty, TRACKING_CATEGORIES } from './tracker-list.ts';

/**
 * The third parties a scan's pages contacted, one entry per host, each said who it is: a catalog
 * service (by the addresses its signals name, else by its domain when one service alone owns
 * it), else the tracker list's entity (tracker-list.ts), else nobody. Tracking beacons among its
 * requests are marked with why: a catalog service's beacon endpoint, a hit sent to a host the
 * list files under ad, analytics, social or marketing, `sendBeacon` (or `<a ping>`) to the
 * host, a tracking pixel. An unknown host that sets cookies or receives beacons is an
 * "unrecognised third party" (`recognised` null, with its evidence in `cookies` and `beacons`).
 */

/** Request kinds that send a hit rather than fetch code, a document or a font. */
const HIT_KINDS: ReadonlySet<ThirdPartyRequest['kind']> = new Set(['image', 'beacon', 'xhr', 'fetch', 'other']);

export type ThirdPartyFindings = {
  /** Absent in findings of a scanner that does not record requests yet. */
  requests?: readonly ThirdPartyRequest[] | undefined;
  cookies: readonly FoundCookie[];
};

export function thirdPartiesOf(catalog: Catalog, findings: ThirdPartyFindings): ThirdParty[] {
  const byHost = new Map<string, ThirdPartyRequest[]>();
  for (const request of findings.requests ?? []) byHost.set(request.host, [...(byHost.get(request.host) ?? []), request]);
  const thirdPartyCookies = findings.cookies.filter((cookie) => cookie.party === 'third');

  return [...byHost.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([host, requests]) => {
      const listed = listedThirdParty(host) ?? null;
      const services = servicesOf(catalog, host, requests);
      const cookies = [
        ...requests.flatMap((request) => request.setsCookies ?? []),
        ...thirdPartyCookies.filter((cookie) => isCookieOf(cookie.domain, host)).map((cookie) => cookie.name),
      ];
      return {
        host,
        site: registrableDomain(host) ?? host,
        services: services.map((entry) => ({ id: entry.id, name: entry.name })),
        trackerList: listed,
        kinds: REQUEST_KINDS.filter((kind) => requests.some((request) => request.kind === kind)),
        pages: sortedUnique(requests.map((request) => request.page)),
        initiators: sortedUnique(requests.flatMap((request) => (request.initiator ? [request.initiator] : []))).slice(0, MAX_INITIATORS_PER_HOST),
        beacons: beaconsOf(catalog, listed, requests),
        cookies: sortedUnique(cookies),
        phases: SCAN_PHASES.filter((phase) => requests.some((request) => request.phase === phase)),
        recognised: services.length > 0 ? 'catalog' : listed ? 'tracker-list' : null,
      };
    });
}

/**
 * The catalog services a host is: those whose script, frame, resource or beacon signals match one
 * of its requests' addresses; failing that, the one service that owns the host's domain (a domain
 * several services own, such as doubleclick.net, names none of them).
 */
function servicesOf(catalog: Catalog, host: string, requests: readonly ThirdPartyRequest[]): CatalogEntry[] {
  const found = new Map<number, CatalogEntry>();
  for (const { url } of requests) {
    const matches = [...catalog.matchUrl(url, 'scripts'), ...catalog.matchUrl(url, 'iframes'), ...catalog.matchUrl(url, 'resources'), ...catalog.matchBeacon(url)];
    for (const entry of matches) found.set(entry.id, entry);
  }
  if (found.size === 0) {
    const owners = catalog.entries.filter((entry) => catalog.isOwnDomain(entry, host) === true);
    if (owners.length === 1) found.set(owners[0]!.id, owners[0]!);
  }
  return [...found.values()].sort((a, b) => a.id - b.id);
}

/** The tracking beacons among a host's requests, once per address, with the surest reason. */
function beaconsOf(catalog: Catalog, listed: ListedThirdParty | null, requests: readonly ThirdPartyRequest[]): ThirdPartyBeacon[] {
  const beacons = new Map<string, ThirdPartyBeacon>();
  for (const request of requests) {
    if (beacons.size >= MAX_BEACONS_PER_HOST) break;
    if (beacons.has(request.url)) continue;
    const why = beaconReason(catalog, listed, request);
    if (why) beacons.set(request.url, { url: request.url, why });
  }
  return [...beacons.values()];
}

function beaconReason(catalog: Catalog, listed: ListedThirdParty | null, request: ThirdPartyRequest): ThirdPartyBeacon['why'] | undefined {
  if (catalog.matchBeacon(request.url).length > 0) return 'catalog';
  if (listed && TRACKING_CATEGORIES.has(listed.category) && HIT_KINDS.has(request.kind)) return 'tracker-list';
  if (request.kind === 'beacon') return 'sendBeacon';
  if (request.pixel) return 'pixel';
  return undefined;
}

/** Whether a cookie on `domain` (`.adnetz.test`, or a host for a host-only cookie) is sent to `host`. */
function isCookieOf(domain: string, host: string): boolean {
  const bare = domain.replace(/^\./, '').toLowerCase();
  return host === bare || host.endsWith(`.${bare}`);
}

const sortedUnique = (values: readonly string[]) => [...new Set(values)].sort();
