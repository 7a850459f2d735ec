import { z } from 'zod';
import { domainArgs } from '../../graphql/args.ts';
import { builder } from '../../graphql/builder.ts';
import { DomainType, scopeOf } from '../domains/domain.graphql.ts';
import { ScanJobErrorType } from '../scan-jobs/scan-job.graphql.ts';
import type {
  ComplianceCookie,
  ComplianceFinding,
  ComplianceHeldElement,
  CompliancePage,
  ComplianceRequest,
  ComplianceScan,
  ComplianceScanSummary,
  ComplianceService,
  ComplianceState,
  ComplianceStorageKey,
} from './compliance-scan.contract.ts';
import { getComplianceScan, listComplianceScansOf, startComplianceScan } from './compliance-scan.operations.ts';

type Owned = Pick<ComplianceFinding, 'owner' | 'embeddingId' | 'embeddingName' | 'presetId' | 'presetName' | 'purpose' | 'declared' | 'needsConsent'>;

/** The fields that say whom something belongs to and whether it needs consent, on each type that has them. */
const withOwner = <T extends Owned>(name: string, description: string) => {
  const ref = builder.objectRef<T>(name).implement({ description });
  builder.objectFields(ref as unknown as ReturnType<typeof builder.objectRef<Owned>>, (t) => ({
    owner: t.exposeString('owner', { description: 'embedding, catalog, banner (the consent banner itself) or unknown.' }),
    embeddingId: t.exposeID('embeddingId', { nullable: true }),
    embeddingName: t.exposeString('embeddingName', { nullable: true }),
    presetId: t.exposeInt('presetId', { nullable: true, description: 'The catalog service it belongs to.' }),
    presetName: t.exposeString('presetName', { nullable: true }),
    purpose: t.exposeString('purpose', { nullable: true }),
    declared: t.exposeBoolean('declared', { description: 'An active embedding declares it (an asset, a marker).' }),
    needsConsent: t.exposeBoolean('needsConsent', { description: 'It may be there only with the visitor’s consent.' }),
  }));
  return ref;
};

const ComplianceCookieType = withOwner<ComplianceCookie>('ComplianceCookie', 'A cookie the visitor’s browser held.');
builder.objectFields(ComplianceCookieType, (t) => ({
  name: t.exposeString('name'),
  domain: t.exposeString('domain'),
  path: t.exposeString('path'),
  expires: t.exposeString('expires', { nullable: true, description: 'ISO time; null for a session cookie.' }),
  httpOnly: t.exposeBoolean('httpOnly'),
  secure: t.exposeBoolean('secure'),
  sameSite: t.exposeString('sameSite', { nullable: true }),
  party: t.exposeString('party', { description: 'first or third.' }),
  page: t.exposeString('page', { description: 'The page after whose visit it was first seen.' }),
}));

const ComplianceStorageKeyType = withOwner<ComplianceStorageKey>('ComplianceStorageKey', 'A localStorage or sessionStorage key of a frame.');
builder.objectFields(ComplianceStorageKeyType, (t) => ({
  storageType: t.exposeString('storageType', { description: 'localStorage or sessionStorage.' }),
  name: t.exposeString('name'),
  origin: t.exposeString('origin'),
  page: t.exposeString('page'),
}));

const ComplianceRequestType = withOwner<ComplianceRequest>('ComplianceRequest', 'A request to another site.');
builder.objectFields(ComplianceRequestType, (t) => ({
  host: t.exposeString('host'),
  path: t.exposeString('path', { description: 'Without the query.' }),
  resourceType: t.exposeString('resourceType'),
  page: t.exposeString('page'),
  times: t.exposeInt('times'),
  heldBack: t.exposeBoolean('heldBack', { description: 'Its element is held back by the banner: the host was asked, the code never ran.' }),
}));

const ComplianceHeldElementType = withOwner<ComplianceHeldElement>('ComplianceHeldElement', 'A script, iframe or image the banner holds back until consent.');
builder.objectFields(ComplianceHeldElementType, (t) => ({
  element: t.exposeString('element', { description: 'script, iframe or image.' }),
  src: t.exposeString('src', { nullable: true, description: 'What it would load; null: an inline script.' }),
  page: t.exposeString('page'),
}));

const ComplianceFindingType = withOwner<ComplianceFinding>('ComplianceFinding', 'Something that needs consent and was there before consent or after "reject all", or a page without a banner.');
builder.objectFields(ComplianceFindingType, (t) => ({
  state: t.exposeString('state', { description: 'beforeConsent or afterReject.' }),
  kind: t.exposeString('kind', { description: 'cookie, storage, request or no-banner.' }),
  name: t.exposeString('name', { nullable: true }),
  host: t.exposeString('host', { nullable: true }),
  path: t.exposeString('path', { nullable: true }),
  resourceType: t.exposeString('resourceType', { nullable: true }),
  storageType: t.exposeString('storageType', { nullable: true }),
  page: t.exposeString('page'),
  heldBack: t.exposeBoolean('heldBack'),
  detail: t.exposeString('detail'),
}));

const CompliancePageType = builder.objectRef<CompliancePage>('CompliancePage').implement({
  fields: (t) => ({
    url: t.exposeString('url'),
    status: t.exposeInt('status', { nullable: true }),
    landedUrl: t.exposeString('landedUrl', { nullable: true }),
    error: t.exposeString('error', { nullable: true }),
    bannerShown: t.exposeBoolean('bannerShown'),
  }),
});

const ComplianceServiceType = builder.objectRef<ComplianceService>('ComplianceService').implement({
  description: 'An active embedding, or a catalog service something belonged to, and what it did in one state.',
  fields: (t) => ({
    owner: t.exposeString('owner', { description: 'embedding or catalog.' }),
    embeddingId: t.exposeID('embeddingId', { nullable: true }),
    embeddingName: t.exposeString('embeddingName', { nullable: true }),
    presetId: t.exposeInt('presetId', { nullable: true }),
    presetName: t.exposeString('presetName', { nullable: true }),
    purpose: t.exposeString('purpose', { nullable: true }),
    needsConsent: t.exposeBoolean('needsConsent'),
    status: t.exposeString('status', { description: 'ran, held-back or not-seen.' }),
  }),
});

const ComplianceStateType = builder.objectRef<ComplianceState>('ComplianceState').implement({
  description: 'What one fresh visitor saw: before consent, after "reject all" or after "accept all".',
  fields: (t) => ({
    choice: t.exposeString('choice', { nullable: true, description: 'necessary ("reject all") or all; null before consent.' }),
    clicked: t.exposeBoolean('clicked'),
    bannerShown: t.exposeBoolean('bannerShown'),
    revision: t.exposeString('revision', { nullable: true, description: 'The configuration revision the banner reported.' }),
    pages: t.expose('pages', { type: [CompliancePageType] }),
    cookies: t.expose('cookies', { type: [ComplianceCookieType] }),
    storage: t.expose('storage', { type: [ComplianceStorageKeyType] }),
    requests: t.expose('requests', { type: [ComplianceRequestType] }),
    heldBack: t.expose('heldBack', { type: [ComplianceHeldElementType] }),
    services: t.expose('services', { type: [ComplianceServiceType] }),
  }),
});

const ComplianceStatesType = builder.objectRef<NonNullable<ComplianceScan['states']>>('ComplianceStates').implement({
  fields: (t) => ({
    beforeConsent: t.expose('beforeConsent', { type: ComplianceStateType }),
    afterReject: t.expose('afterReject', { type: ComplianceStateType }),
    afterAcceptAll: t.expose('afterAcceptAll', { type: ComplianceStateType }),
  }),
});

const ComplianceScanSummaryType = builder.objectRef<ComplianceScanSummary>('ComplianceScanSummary').implement({
  description: 'A compliance scan of the domain, without what it saw.',
});

const ComplianceScanType = builder.objectRef<ComplianceScan>('ComplianceScan').implement({
  description:
    'The check a regulator runs: the site visited as a fresh visitor before consent, after "reject all" and after "accept all" in its banner; what needs consent and was there before consent or after rejecting is a finding.',
  fields: (t) => ({
    site: t.exposeString('site', { nullable: true }),
    bannerOrigin: t.exposeString('bannerOrigin', { nullable: true }),
    durationMs: t.exposeInt('durationMs', { nullable: true }),
    findings: t.expose('findings', { type: [ComplianceFindingType] }),
    states: t.expose('states', { type: ComplianceStatesType, nullable: true }),
  }),
});

for (const ref of [ComplianceScanSummaryType, ComplianceScanType] as const) {
  builder.objectFields(ref as typeof ComplianceScanSummaryType, (t) => ({
    id: t.exposeID('id'),
    domainId: t.exposeID('domainId'),
    trigger: t.exposeString('trigger', { description: 'job (started on demand) or schedule (with the permanent scan).' }),
    status: t.exposeString('status', { description: 'queued, running, succeeded or failed.' }),
    url: t.exposeString('url'),
    requestedAt: t.exposeString('requestedAt'),
    startedAt: t.exposeString('startedAt', { nullable: true }),
    finishedAt: t.exposeString('finishedAt', { nullable: true }),
    attempts: t.exposeInt('attempts'),
    worker: t.exposeString('worker', { nullable: true }),
    error: t.field({ type: ScanJobErrorType, nullable: true, resolve: (scan) => scan.error }),
    revision: t.exposeString('revision', { nullable: true, description: 'The content hash of the configuration revision tested.' }),
    revisionNumber: t.exposeInt('revisionNumber', { nullable: true }),
    verdict: t.exposeString('verdict', { nullable: true, description: 'clean or violations; null until it succeeded.' }),
    findingCount: t.exposeInt('findingCount'),
  }));
}

const ComplianceScanPageType = builder.objectRef<{ scans: ComplianceScanSummary[]; nextCursor: string | null }>('ComplianceScanPage').implement({
  fields: (t) => ({
    scans: t.expose('scans', { type: [ComplianceScanSummaryType] }),
    nextCursor: t.exposeString('nextCursor', { nullable: true, description: 'Pass as `before` for the next page.' }),
  }),
});

const scanId = z.uuid('must be the id of a compliance scan');

builder.objectFields(DomainType, (t) => ({
  complianceScans: t.field({
    type: ComplianceScanPageType,
    description: "The domain's compliance scans, newest first.",
    args: {
      before: t.arg.id({ required: false, description: 'Only scans requested before this one (`nextCursor`).' }).validate(scanId.nullish()),
      limit: t.arg.int({ required: false, description: '1–100, default 20.' }).validate(z.int().min(1).max(100).nullish()),
    },
    resolve: (domain, { before, limit }, ctx) => listComplianceScansOf(ctx, scopeOf(domain), { before: before ?? undefined, limit: limit ?? undefined }),
  }),
  complianceScan: t.field({
    type: ComplianceScanType,
    args: { id: t.arg.id({ required: true }) },
    resolve: (domain, { id }, ctx) => getComplianceScan(ctx, scopeOf(domain), id),
  }),
}));

builder.mutationFields((t) => ({
  startComplianceScan: t.field({
    type: ComplianceScanType,
    description: 'Starts a compliance scan of the domain’s website without waiting for it; read it with `domain { complianceScan(id) }`.',
    args: domainArgs(t),
    resolve: (_, scope, ctx) => startComplianceScan(ctx, scope),
  }),
}));
