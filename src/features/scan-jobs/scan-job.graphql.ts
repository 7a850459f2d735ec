import { z } from 'zod';
import { domainArgs } from '../../graphql/args.ts';
import { builder } from '../../graphql/builder.ts';
import { DomainType, scopeOf } from '../domains/domain.graphql.ts';
import { ScanCookieType, ScanPageType, ScanResultType } from '../onboarding/onboarding.graphql.ts';
import type { ScanComparison, ScanJob, ScanJobSummary } from './scan-job.contract.ts';
import { compareScans, getScan, listScans, startScan } from './scan-job.operations.ts';

export const ScanJobErrorType = builder.objectRef<NonNullable<ScanJob['error']>>('ScanJobError').implement({
  fields: (t) => ({
    kind: t.exposeString('kind', { description: 'site, refused, crawl or interrupted.' }),
    message: t.exposeString('message'),
  }),
});

const ScanJobSummaryType = builder.objectRef<ScanJobSummary>('ScanJobSummary').implement({
  description: 'A scan of the domain, without its pages and result.',
});

export const ScanJobType = builder.objectRef<ScanJob>('ScanJob').implement({
  description: "A scan of the domain's website: its progress page by page while it runs, then its result or why it failed.",
  fields: (t) => ({
    pages: t.expose('pages', { type: [ScanPageType] }),
    result: t.expose('result', { type: ScanResultType, nullable: true }),
  }),
});

// The fields a scan has in a list and on its own.
for (const ref of [ScanJobSummaryType, ScanJobType] as const) {
  builder.objectFields(ref as typeof ScanJobSummaryType, (t) => ({
    id: t.exposeID('id'),
    domainId: t.exposeID('domainId'),
    trigger: t.exposeString('trigger', { description: 'request (the synchronous onboarding scan), job (started to run on its own) or schedule (the permanent scan).' }),
    status: t.exposeString('status', { description: 'queued, running, succeeded or failed.' }),
    url: t.exposeString('url'),
    requestedAt: t.exposeString('requestedAt'),
    startedAt: t.exposeString('startedAt', { nullable: true }),
    finishedAt: t.exposeString('finishedAt', { nullable: true }),
    pageLimit: t.exposeInt('pageLimit'),
    pagesVisited: t.exposeInt('pagesVisited', { description: 'The progress while it runs.' }),
    attempts: t.exposeInt('attempts'),
    worker: t.exposeString('worker', { nullable: true, description: 'The process that ran it last (`host:pid`).' }),
    error: t.field({ type: ScanJobErrorType, nullable: true, resolve: (job) => job.error }),
  }));
}

const ScanJobPageType = builder.objectRef<{ scans: ScanJobSummary[]; nextCursor: string | null }>('ScanJobPage').implement({
  fields: (t) => ({
    scans: t.expose('scans', { type: [ScanJobSummaryType] }),
    nextCursor: t.exposeString('nextCursor', { nullable: true, description: 'Pass as `before` for the next page.' }),
  }),
});

type StorageFound = ScanComparison['storage']['added'][number];
const ScanStorageFoundType = builder.objectRef<StorageFound>('ScanStorageFound').implement({
  fields: (t) => ({
    storageType: t.exposeString('storageType', { description: 'localStorage, sessionStorage, indexedDB or cacheStorage.' }),
    name: t.exposeString('name'),
    origin: t.exposeString('origin'),
  }),
});
const ScanServiceFoundType = builder.objectRef<ScanComparison['services']['added'][number]>('ScanServiceFound').implement({
  fields: (t) => ({ id: t.exposeInt('id', { description: 'The preset id.' }), name: t.exposeString('name') }),
});

type Changes<T> = { added: T[]; removed: T[] };
const described = { added: 'Found by the newer scan, not by the older.', removed: 'Found by the older scan, not by the newer.' };

const ScanCookieChangesType = builder.objectRef<Changes<ScanComparison['cookies']['added'][number]>>('ScanCookieChanges').implement({
  fields: (t) => ({
    added: t.expose('added', { type: [ScanCookieType], description: described.added }),
    removed: t.expose('removed', { type: [ScanCookieType], description: described.removed }),
  }),
});
const ScanStorageChangesType = builder.objectRef<Changes<StorageFound>>('ScanStorageChanges').implement({
  fields: (t) => ({
    added: t.expose('added', { type: [ScanStorageFoundType], description: described.added }),
    removed: t.expose('removed', { type: [ScanStorageFoundType], description: described.removed }),
  }),
});
const ScanServiceChangesType = builder.objectRef<Changes<ScanComparison['services']['added'][number]>>('ScanServiceChanges').implement({
  fields: (t) => ({
    added: t.expose('added', { type: [ScanServiceFoundType], description: described.added }),
    removed: t.expose('removed', { type: [ScanServiceFoundType], description: described.removed }),
  }),
});

const ScanComparisonType = builder.objectRef<ScanComparison>('ScanComparison').implement({
  description: 'How the site changed between two scans.',
  fields: (t) => ({
    scanId: t.exposeID('scanId', { description: 'The newer scan.' }),
    againstId: t.exposeID('againstId', { description: 'The older scan.' }),
    cookies: t.expose('cookies', { type: ScanCookieChangesType, description: 'Cookies by name and domain.' }),
    storage: t.expose('storage', { type: ScanStorageChangesType, description: 'Storage keys, IndexedDB databases and caches by kind, name and origin.' }),
    services: t.expose('services', { type: ScanServiceChangesType, description: 'Recognised services by preset id.' }),
  }),
});

const scanId = z.uuid('must be the id of a scan');

builder.objectFields(DomainType, (t) => ({
  scans: t.field({
    type: ScanJobPageType,
    description: "The domain's scans, newest first.",
    args: {
      before: t.arg.id({ required: false, description: 'Only scans requested before this one (`nextCursor`).' }).validate(scanId.nullish()),
      limit: t.arg.int({ required: false, description: '1–100, default 20.' }).validate(z.int().min(1).max(100).nullish()),
    },
    resolve: (domain, { before, limit }, ctx) => listScans(ctx, scopeOf(domain), { before: before ?? undefined, limit: limit ?? undefined }),
  }),
  scan: t.field({
    type: ScanJobType,
    args: { id: t.arg.id({ required: true }) },
    resolve: (domain, { id }, ctx) => getScan(ctx, scopeOf(domain), id),
  }),
  scanComparison: t.field({
    type: ScanComparisonType,
    description: 'How the site changed between two succeeded scans (`against` defaults to the succeeded scan before `id`).',
    args: { id: t.arg.id({ required: true }), against: t.arg.id({ required: false }).validate(scanId.nullish()) },
    resolve: (domain, { id, against }, ctx) => compareScans(ctx, scopeOf(domain), id, against ?? undefined),
  }),
}));

builder.mutationFields((t) => ({
  startScan: t.field({
    type: ScanJobType,
    description: 'Starts a scan of the domain’s website without waiting for it; read its progress with `domain { scan(id) }`.',
    args: domainArgs(t),
    resolve: (_, scope, ctx) => startScan(ctx, scope),
  }),
}));
