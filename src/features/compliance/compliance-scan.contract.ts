import { z } from 'zod';
import { purposeId } from '../../kernel/contract/fields.ts';
import { SCAN_JOB_STATUSES, scanJobError } from '../scan-jobs/scan-job.contract.ts';

/**
 * Compliance scans (REST, GraphQL and the webhook's payload): what a fresh visitor's browser holds
 * and contacts before consent, after "reject all" and after "accept all", and what of it is a
 * violation.
 */

/** What asked for it: started on demand, or with the permanent scan. */
export const COMPLIANCE_TRIGGERS = ['job', 'schedule'] as const;
export const COMPLIANCE_VERDICTS = ['clean', 'violations'] as const;
export const COMPLIANCE_STATES = ['beforeConsent', 'afterReject', 'afterAcceptAll'] as const;
/** The states in which anything that needs consent is a violation. */
export const VIOLATION_STATES = ['beforeConsent', 'afterReject'] as const;
export const COMPLIANCE_FINDING_KINDS = ['cookie', 'storage', 'request', 'no-banner'] as const;
/** Whom something belongs to. */
export const OWNERS = ['embedding', 'catalog', 'banner', 'unknown'] as const;
export const SERVICE_STATUSES = ['ran', 'held-back', 'not-seen'] as const;

export type ComplianceTrigger = (typeof COMPLIANCE_TRIGGERS)[number];
export type ComplianceVerdict = (typeof COMPLIANCE_VERDICTS)[number];
export type ComplianceStateName = (typeof COMPLIANCE_STATES)[number];

/** Whom an observation belongs to, and whether it needs the visitor's consent. */
const ownerFields = {
  owner: z.enum(OWNERS).meta({
    description:
      'embedding: an active embedding of the tested configuration declares it (an asset, a script or iframe marker) or is named after the catalog service it belongs to; catalog: a catalog service recognised it; banner: the consent banner itself (its consent cookie); unknown: nobody.',
  }),
  embeddingId: z.uuid().nullable(),
  embeddingName: z.string().nullable(),
  presetId: z.int().nullable().meta({ description: 'The catalog service (preset) it belongs to, if one recognised it.' }),
  presetName: z.string().nullable(),
  purpose: purposeId.nullable().meta({ description: "The purpose of its embedding, else of its catalog service; null: nobody's." }),
  declared: z.boolean().meta({ description: 'An active embedding declares it: an asset names it (a cookie or key), or a marker matches it (a request, a held element).' }),
  needsConsent: z.boolean().meta({
    description:
      'It may be there only with consent: it belongs to an embedding or catalog service whose purpose is not technically necessary, or (a cookie or storage key) no necessary embedding declares it. Requests to hosts nobody claims do not.',
  }),
};

const compliancePage = z
  .strictObject({
    url: z.string(),
    status: z.int().nullable(),
    landedUrl: z.string().nullable(),
    error: z.string().nullable().meta({ description: 'Why it could not be opened; null: it was.' }),
    bannerShown: z.boolean().meta({ description: "The banner's first layer showed on it." }),
  })
  .meta({ id: 'CompliancePage' });

const complianceCookie = z
  .strictObject({
    name: z.string(),
    domain: z.string(),
    path: z.string(),
    expires: z.string().nullable().meta({ description: 'ISO time; null for a session cookie.' }),
    httpOnly: z.boolean(),
    secure: z.boolean(),
    sameSite: z.string().nullable(),
    party: z.enum(['first', 'third']),
    page: z.string().meta({ description: 'The page after whose visit it was first seen.' }),
    ...ownerFields,
  })
  .meta({ id: 'ComplianceCookie' });

const storageType = z.enum(['localStorage', 'sessionStorage']);

const complianceStorageKey = z
  .strictObject({ storageType, name: z.string(), origin: z.string(), page: z.string(), ...ownerFields })
  .meta({ id: 'ComplianceStorageKey' });

const complianceRequest = z
  .strictObject({
    host: z.string(),
    path: z.string().meta({ description: 'Without the query.' }),
    resourceType: z.string().meta({ description: "Chromium's resource type: script, document (a frame), image, xhr, fetch, ping, stylesheet, font, …" }),
    page: z.string().meta({ description: 'The page the visitor was on when it was first made.' }),
    times: z.int().meta({ description: 'How often it was made in this state.' }),
    heldBack: z.boolean().meta({
      description: "The element that made it is held back by the banner (a `<script src>` the browser's preload scanner fetched, an `<iframe src>` in the HTML): the host was contacted, the code never ran.",
    }),
    ...ownerFields,
  })
  .meta({ id: 'ComplianceRequest' });

const complianceHeldElement = z
  .strictObject({
    element: z.enum(['script', 'iframe', 'image']),
    src: z.string().nullable().meta({ description: 'What it would load; null: an inline script.' }),
    page: z.string(),
    ...ownerFields,
  })
  .meta({ id: 'ComplianceHeldElement' });

const complianceService = z
  .strictObject({
    owner: z.enum(['embedding', 'catalog']),
    embeddingId: z.uuid().nullable(),
    embeddingName: z.string().nullable(),
    presetId: z.int().nullable(),
    presetName: z.string().nullable(),
    purpose: purposeId.nullable(),
    needsConsent: z.boolean(),
    status: z.enum(SERVICE_STATUSES).meta({
      description: 'ran: its cookies, keys or requests were seen; held-back: the banner holds its scripts, iframes or images and nothing of it ran; not-seen: neither.',
    }),
  })
  .meta({ id: 'ComplianceService' });

const complianceState = z
  .strictObject({
    choice: z.enum(['necessary', 'all']).nullable().meta({ description: 'The choice clicked in the banner (necessary: "reject all"); null before consent.' }),
    clicked: z.boolean().meta({ description: 'The choice was clicked (false before consent, or when no banner showed).' }),
    bannerShown: z.boolean().meta({ description: "The banner's first layer showed on the start page." }),
    revision: z.string().nullable().meta({ description: 'The configuration revision the banner reported (`contentRevision`); null: no banner.' }),
    pages: z.array(compliancePage).meta({ description: 'The start page, then a second page of the site (what runs on the next page).' }),
    cookies: z.array(complianceCookie).meta({ description: 'Every cookie the browser held, first and third party; after a choice, those there after the click.' }),
    storage: z.array(complianceStorageKey).meta({ description: 'localStorage and sessionStorage keys of every frame.' }),
    requests: z.array(complianceRequest).meta({ description: "Requests to other sites (after a choice: from the click on); the consent service's own are left out." }),
    heldBack: z.array(complianceHeldElement).meta({ description: 'What the banner holds back: scripts, iframes and images waiting for consent.' }),
    services: z.array(complianceService).meta({ description: 'Per active embedding and per catalog service seen: whether it ran, was held back, or was not seen.' }),
  })
  .meta({ id: 'ComplianceState' });

export type ComplianceState = z.output<typeof complianceState>;
export type ComplianceCookie = z.output<typeof complianceCookie>;
export type ComplianceStorageKey = z.output<typeof complianceStorageKey>;
export type ComplianceRequest = z.output<typeof complianceRequest>;
export type ComplianceHeldElement = z.output<typeof complianceHeldElement>;
export type ComplianceService = z.output<typeof complianceService>;
export type CompliancePage = z.output<typeof compliancePage>;

export const complianceFinding = z
  .strictObject({
    state: z.enum(VIOLATION_STATES).meta({ description: 'beforeConsent (no choice made) or afterReject ("reject all" clicked).' }),
    kind: z.enum(COMPLIANCE_FINDING_KINDS).meta({
      description: 'cookie, storage (a localStorage or sessionStorage key), request (to a host of a service that needs consent) or no-banner (the page showed no banner to choose in).',
    }),
    name: z.string().nullable().meta({ description: 'The cookie or key name; null for a request or no-banner.' }),
    host: z.string().nullable().meta({ description: "A request's host, a cookie's domain, a key's origin; null for no-banner." }),
    path: z.string().nullable().meta({ description: "A request's path; null otherwise." }),
    resourceType: z.string().nullable().meta({ description: "A request's resource type; null otherwise." }),
    storageType: storageType.nullable().meta({ description: "A storage key's kind; null otherwise." }),
    page: z.string().meta({ description: 'The page it was seen on.' }),
    heldBack: z.boolean().meta({ description: 'A request whose element the banner holds back: the host was contacted before the banner could act.' }),
    ...ownerFields,
    detail: z.string().meta({ description: 'What was found, in a sentence.' }),
  })
  .meta({ id: 'ComplianceFinding' });

export type ComplianceFinding = z.output<typeof complianceFinding>;

/** What a succeeded compliance scan found (kept as the scan's result). */
export type ComplianceResult = {
  site: string;
  bannerOrigin: string | null;
  states: Record<ComplianceStateName, ComplianceState>;
  findings: ComplianceFinding[];
  durationMs: number;
};

const summaryFields = {
  id: z.uuid(),
  domainId: z.uuid(),
  trigger: z.enum(COMPLIANCE_TRIGGERS).meta({ description: 'job: started on demand; schedule: with the permanent scan.' }),
  status: z.enum(SCAN_JOB_STATUSES),
  url: z.string().meta({ description: 'The address visited.' }),
  requestedAt: z.string().meta({ description: 'ISO 8601.' }),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  attempts: z.int(),
  worker: z.string().nullable().meta({ description: 'The process that ran it last (`host:pid`); null while queued.' }),
  error: scanJobError.nullable().meta({ description: 'Why it failed; null unless failed.' }),
  revision: z.string().nullable().meta({
    description: "The configuration revision tested: the content hash the banner reported (`contentRevision`), else the domain's newest revision's; null until it succeeded.",
  }),
  revisionNumber: z.int().nullable().meta({ description: 'That revision’s number within the domain (`…/revision/{number}`); null if no revision has that hash.' }),
  verdict: z.enum(COMPLIANCE_VERDICTS).nullable().meta({ description: 'clean: no findings; violations: at least one; null until it succeeded.' }),
  findingCount: z.int(),
};

export const complianceScanSummaryResponse = z.strictObject(summaryFields).meta({ id: 'ComplianceScanSummary' });

export const complianceScanResponse = z
  .strictObject({
    ...summaryFields,
    site: z.string().nullable().meta({ description: 'The registrable domain visited (other sites are third parties); null until it succeeded.' }),
    bannerOrigin: z.string().nullable().meta({ description: 'Where the page loaded the banner from; null: it loaded none.' }),
    durationMs: z.int().nullable(),
    findings: z.array(complianceFinding).meta({ description: 'What needs consent and was there before consent or after "reject all". Empty until it succeeded.' }),
    states: z
      .strictObject({ beforeConsent: complianceState, afterReject: complianceState, afterAcceptAll: complianceState })
      .nullable()
      .meta({ description: 'What each visitor saw; null until it succeeded.' }),
  })
  .meta({ id: 'ComplianceScan' });

export type ComplianceScanSummary = z.output<typeof complianceScanSummaryResponse>;
export type ComplianceScan = z.output<typeof complianceScanResponse>;

export const complianceScanPageResponse = z
  .strictObject({
    scans: z.array(complianceScanSummaryResponse).meta({ description: 'Newest first.' }),
    nextCursor: z.string().nullable().meta({ description: 'Pass as `before` for the next page; null: no older scans.' }),
  })
  .meta({ id: 'ComplianceScanPage' });
