import type { PurposeId } from '../../kernel/contract/fields.ts';
import type {
  ConsentCheck,
  HeldElement,
  ObservedCookie,
  ObservedRequest,
  ObservedStorageKey,
  StateObservations,
} from '../../scanner/compliance.ts';
import type { Catalog, CatalogEntry, UrlKind } from '../catalog/catalog.ts';
import type { Embedding } from '../embeddings/embedding.contract.ts';
import {
  COMPLIANCE_STATES,
  type ComplianceFinding,
  type ComplianceResult,
  type ComplianceService,
  type ComplianceState,
  type ComplianceStateName,
  VIOLATION_STATES,
} from './compliance-scan.contract.ts';

/**
 * What a compliance scan's observations mean against the configuration it tested: whom each
 * cookie, key, request and held element belongs to, whether it needs consent, and what of it is a
 * violation. Before consent and after "reject all" everything that needs consent is one — whether
 * an embedding declares it or not (a declared `_ga` set before consent is a violation all the
 * same); after "accept all" nothing is.
 *
 * Needs consent:
 * - a cookie or storage key no active necessary embedding declares: one a non-necessary embedding
 *   declares, one a catalog service that is not necessary sets, and one nobody accounts for;
 * - a request to an address an active embedding's script or iframe markers claim, and no
 *   necessary one (the banner holds such a script back until its embedding is accepted), or that
 *   a catalog service that is not necessary shows itself by; a request made inside such a frame.
 *   Requests nobody claims (a CDN, the site's other domains) are listed, not findings.
 * The banner's own consent cookie (and iframemanager's `im_<embedding>` cookies) are the banner's.
 */

const NECESSARY: PurposeId = '41ba25c';

type Owner = Pick<
  ComplianceFinding,
  'owner' | 'embeddingId' | 'embeddingName' | 'presetId' | 'presetName' | 'purpose' | 'declared' | 'needsConsent'
>;

const nobody = (needsConsent: boolean): Owner => ({
  owner: 'unknown',
  embeddingId: null,
  embeddingName: null,
  presetId: null,
  presetName: null,
  purpose: null,
  declared: false,
  needsConsent,
});

const theBanner: Owner = { ...nobody(false), owner: 'banner', purpose: NECESSARY };

const patternOf = (name: string) => new RegExp(`^${name.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
const contains = (text: string, markers: readonly string[]) => markers.some((marker) => marker !== '' && text.includes(marker));
const URL_KINDS: UrlKind[] = ['scripts', 'iframes', 'resources'];

/** Whom things belong to, by the tested configuration's active embeddings and the catalog. */
class Owners {
  readonly #embeddings: readonly Embedding[];
  readonly #catalog: Catalog;
  readonly #consentNames: ReadonlySet<string>;

  constructor(embeddings: readonly Embedding[], catalog: Catalog, consentNames: ReadonlySet<string>) {
    this.#embeddings = embeddings;
    this.#catalog = catalog;
    this.#consentNames = consentNames;
  }

  #ofEmbedding(embedding: Embedding, declared: boolean, entry: CatalogEntry | null = null): Owner {
    return {
      owner: 'embedding',
      embeddingId: embedding.id,
      embeddingName: embedding.name,
      presetId: entry?.id ?? null,
      presetName: entry?.name ?? null,
      purpose: embedding.purpose,
      declared,
      needsConsent: embedding.purpose !== NECESSARY,
    };
  }

  /** A catalog service's, or the embedding's named after it (the operator's purpose counts). */
  ofEntry(entry: CatalogEntry): Owner {
    const named = this.#embeddings.find((embedding) => embedding.name.toLowerCase() === entry.name.toLowerCase());
    if (named) return this.#ofEmbedding(named, false, entry);
    return {
      owner: 'catalog',
      embeddingId: null,
      embeddingName: null,
      presetId: entry.id,
      presetName: entry.name,
      purpose: entry.purpose,
      declared: false,
      needsConsent: entry.purpose !== NECESSARY,
    };
  }

  /** A cookie or storage key: declared by an embedding (a necessary one first), else the catalog's attribution, else nobody's. */
  ofKey(name: string, storageType: 'cookie' | 'localStorage' | 'sessionStorage', attributed: CatalogEntry | null): Owner {
    if (storageType === 'cookie' && (this.#consentNames.has(name) || /^im_/.test(name) && this.#embeddings.some((e) => name === `im_${e.id}`))) return theBanner;
    if (storageType === 'localStorage' && this.#consentNames.has(name)) return theBanner;
    const declaring = this.#embeddings.filter((embedding) =>
      embedding.assets.some((asset) => asset.storageType === storageType && (asset.dynamic ? patternOf(asset.name).test(name) : asset.name === name)),
    );
    const embedding = declaring.find((e) => e.purpose === NECESSARY) ?? declaring[0];
    if (embedding) return this.#ofEmbedding(embedding, true);
    if (attributed) return this.ofEntry(attributed);
    return nobody(true);
  }

  /** The catalog services an address shows (scripts, frames, other resources). */
  entriesOf(url: string): CatalogEntry[] {
    return URL_KINDS.flatMap((kind) => this.#catalog.matchUrl(url, kind));
  }

  /**
   * An address: claimed by an embedding's markers (one that needs consent first, as the banner
   * holds what any refused service claims), else by a catalog service's signals, else it belongs
   * to the frame it was requested in.
   */
  ofUrl(url: string, frameUrl: string | null = null): Owner {
    const claiming = this.#embeddings.filter((embedding) => contains(url, [...embedding.scriptMarkers, ...embedding.iframeMarkers]));
    const embedding = claiming.find((e) => e.purpose !== NECESSARY) ?? claiming[0];
    if (embedding) return this.#ofEmbedding(embedding, true);
    const [entry] = this.entriesOf(url);
    if (entry) return this.ofEntry(entry);
    if (frameUrl) {
      const frame = this.ofUrl(frameUrl);
      if (frame.owner !== 'unknown') return frame;
    }
    return nobody(false);
  }

  ofHeld(held: HeldElement): Owner {
    const embedding = held.serviceId ? this.#embeddings.find((e) => e.id === held.serviceId) : undefined;
    if (embedding) return this.#ofEmbedding(embedding, true);
    return held.src ? this.ofUrl(held.src) : nobody(false);
  }
}

const hostAndPath = (url: string) => {
  if (!URL.canParse(url)) return url;
  const { host, pathname } = new URL(url);
  return `${host}${pathname}`;
};

function stateReport(observed: StateObservations, owners: Owners, catalog: Catalog, embeddings: readonly Embedding[]): ComplianceState {
  const heldAddresses = new Set(observed.heldBack.flatMap((held) => (held.src ? [hostAndPath(held.src)] : [])));
  const requests = observed.requests.map((request: ObservedRequest) => ({
    host: request.host,
    path: request.path,
    resourceType: request.resourceType,
    page: request.page,
    times: request.times,
    heldBack: heldAddresses.has(hostAndPath(request.url)),
    ...owners.ofUrl(request.url, request.frameUrl),
  }));
  // What the requests showed helps to tell whose a cookie on a service's domain is.
  const shown = new Set(observed.requests.flatMap((request) => owners.entriesOf(request.url)));
  const keys = [
    ...observed.cookies.map((cookie) => ({ name: cookie.name, storageType: 'cookie' as const, domain: cookie.domain })),
    ...observed.storage.map((key) => ({ name: key.name, storageType: key.storageType, domain: key.origin })),
  ];
  const attributed = catalog.attribute(keys, shown);
  const cookies = observed.cookies.map((cookie: ObservedCookie, i) => ({ ...cookie, ...owners.ofKey(cookie.name, 'cookie', attributed[i]?.entry ?? null) }));
  const offset = observed.cookies.length;
  const storage = observed.storage.map((key: ObservedStorageKey, i) => ({ ...key, ...owners.ofKey(key.name, key.storageType, attributed[offset + i]?.entry ?? null) }));
  const heldBack = observed.heldBack.map((held) => ({ element: held.element, src: held.src, page: held.page, ...owners.ofHeld(held) }));
  const start = observed.pages[0];
  return {
    choice: observed.choice,
    clicked: observed.clicked,
    bannerShown: start?.bannerShown ?? false,
    revision: observed.banner?.revision ?? null,
    pages: observed.pages.map((page) => ({
      url: page.url,
      status: page.status,
      landedUrl: page.landedUrl ?? null,
      error: page.error ?? null,
      bannerShown: page.bannerShown,
    })),
    cookies,
    storage,
    requests,
    heldBack,
    services: servicesOf(embeddings, { cookies, storage, requests, heldBack }),
  };
}

type Observed = Pick<ComplianceState, 'cookies' | 'storage' | 'requests' | 'heldBack'>;

/** Per active embedding, and per catalog service something belonged to: whether it ran, was held back, or was not seen. */
function servicesOf(embeddings: readonly Embedding[], observed: Observed): ComplianceService[] {
  const ran = [...observed.cookies, ...observed.storage, ...observed.requests.filter((request) => !request.heldBack)];
  const held = [...observed.heldBack, ...observed.requests.filter((request) => request.heldBack)];
  const statusOf = (belongs: (owner: Owner) => boolean): ComplianceService['status'] =>
    ran.some(belongs) ? 'ran' : held.some(belongs) ? 'held-back' : 'not-seen';
  const services: ComplianceService[] = embeddings.map((embedding) => ({
    owner: 'embedding',
    embeddingId: embedding.id,
    embeddingName: embedding.name,
    presetId: null,
    presetName: null,
    purpose: embedding.purpose,
    needsConsent: embedding.purpose !== NECESSARY,
    status: statusOf((owner) => owner.embeddingId === embedding.id),
  }));
  const presets = new Map<number, Owner>();
  for (const owner of [...ran, ...held]) if (owner.owner === 'catalog' && owner.presetId !== null) presets.set(owner.presetId, owner);
  for (const [presetId, owner] of presets) {
    services.push({
      owner: 'catalog',
      embeddingId: null,
      embeddingName: null,
      presetId,
      presetName: owner.presetName,
      purpose: owner.purpose,
      needsConsent: owner.needsConsent,
      status: statusOf((other) => other.owner === 'catalog' && other.presetId === presetId),
    });
  }
  return services;
}

const WHEN: Record<(typeof VIOLATION_STATES)[number], string> = { beforeConsent: 'before consent', afterReject: 'after "reject all"' };

const whose = (owner: Owner) => {
  const name = owner.embeddingName ?? owner.presetName;
  if (!name) return 'nobody the configuration names (an undeclared one needs consent)';
  return `${name} (${owner.declared ? 'declared' : 'not declared'}, purpose ${owner.purpose ?? 'unknown'})`;
};

const finding = (fields: Omit<ComplianceFinding, 'name' | 'host' | 'path' | 'resourceType' | 'storageType' | 'heldBack'> & Partial<ComplianceFinding>): ComplianceFinding => ({
  name: null,
  host: null,
  path: null,
  resourceType: null,
  storageType: null,
  heldBack: false,
  ...fields,
});

/** The violations one state shows: no banner to choose in, and everything there that needs consent. */
function violationsOf(state: (typeof VIOLATION_STATES)[number], report: ComplianceState, bannerExcused: boolean): ComplianceFinding[] {
  const when = WHEN[state];
  const found: ComplianceFinding[] = [];
  if (!bannerExcused) {
    if (state === 'beforeConsent') {
      for (const page of report.pages) {
        if (page.bannerShown || page.error !== null) continue;
        found.push(
          finding({
            state,
            kind: 'no-banner',
            page: page.landedUrl ?? page.url,
            ...theBanner,
            needsConsent: false,
            detail: `${page.landedUrl ?? page.url} showed no consent banner: the snippet is missing from the page, or the consent service did not answer.`,
          }),
        );
      }
    } else if (!report.clicked) {
      const page = report.pages[0];
      found.push(
        finding({
          state,
          kind: 'no-banner',
          page: page?.landedUrl ?? page?.url ?? '',
          ...theBanner,
          detail: report.bannerShown
            ? `"Reject all" could not be chosen on ${page?.landedUrl ?? page?.url}: the banner has no such button, or it did not close the banner.`
            : `"Reject all" could not be chosen on ${page?.landedUrl ?? page?.url}: no banner showed.`,
        }),
      );
    }
  }
  for (const cookie of report.cookies) {
    if (!cookie.needsConsent) continue;
    const { name, domain, page, ...owner } = cookie;
    found.push(finding({ state, kind: 'cookie', name, host: domain, page, ...pickOwner(owner), detail: `Cookie ${name} (${domain}) of ${whose(cookie)} was set ${when} on ${page}.` }));
  }
  for (const key of report.storage) {
    if (!key.needsConsent) continue;
    found.push(
      finding({
        state,
        kind: 'storage',
        name: key.name,
        host: key.origin,
        storageType: key.storageType,
        page: key.page,
        ...pickOwner(key),
        detail: `${key.storageType} key ${key.name} (${key.origin}) of ${whose(key)} was set ${when} on ${key.page}.`,
      }),
    );
  }
  for (const request of report.requests) {
    if (!request.needsConsent) continue;
    found.push(
      finding({
        state,
        kind: 'request',
        host: request.host,
        path: request.path,
        resourceType: request.resourceType,
        page: request.page,
        heldBack: request.heldBack,
        ...pickOwner(request),
        detail:
          `${request.resourceType} request to ${request.host}${request.path} of ${whose(request)} ${when} on ${request.page}` +
          (request.heldBack ? ': the banner held its element back, but only after the browser had asked the host for it.' : '.'),
      }),
    );
  }
  return found;
}

const pickOwner = ({ owner, embeddingId, embeddingName, presetId, presetName, purpose, declared, needsConsent }: Owner): Owner => ({
  owner,
  embeddingId,
  embeddingName,
  presetId,
  presetName,
  purpose,
  declared,
  needsConsent,
});

/**
 * The compliance scan's result from what the three visitors saw, against the active embeddings
 * of the configuration it tested. No banner is no violation only where the page asked for one and
 * nothing in the configuration needs consent (the banner then shows nothing).
 */
export function complianceResultOf(check: ConsentCheck, embeddings: readonly Embedding[], catalog: Catalog): ComplianceResult {
  const consentNames = new Set(COMPLIANCE_STATES.flatMap((state) => check.states[state].banner?.consentName || []));
  const owners = new Owners(embeddings, catalog, consentNames);
  const states = Object.fromEntries(COMPLIANCE_STATES.map((state) => [state, stateReport(check.states[state], owners, catalog, embeddings)])) as Record<
    ComplianceStateName,
    ComplianceState
  >;
  const nothingToAsk = embeddings.every((embedding) => embedding.purpose === NECESSARY);
  const findings = VIOLATION_STATES.flatMap((state) => violationsOf(state, states[state], nothingToAsk && check.states[state].bannerRequested));
  return { site: check.site, bannerOrigin: check.bannerOrigin, states, findings, durationMs: check.durationMs };
}
