import { z } from 'zod';
import { onboardingScanResult } from '../onboarding/onboarding.contract.ts';

/** Scans kept as jobs: started, watched, read back and compared (REST and GraphQL). */

/** What asked for a scan: the synchronous onboarding scan, a started job, or the permanent scan's schedule. */
export const SCAN_TRIGGERS = ['request', 'job', 'schedule'] as const;
export const SCAN_JOB_STATUSES = ['queued', 'running', 'succeeded', 'failed'] as const;
/** Why a scan failed: the site's answer, a refused address, the crawl, or the job outlived its tries. */
export const SCAN_FAILURES = ['site', 'refused', 'crawl', 'interrupted'] as const;

export type ScanTrigger = (typeof SCAN_TRIGGERS)[number];
export type ScanJobStatus = (typeof SCAN_JOB_STATUSES)[number];

export const scanJobError = z
  .strictObject({
    kind: z.enum(SCAN_FAILURES).meta({
      description: "site: the website's own answer (an error status, an empty page); refused: an address scans may not visit; crawl: the browser or the network failed; interrupted: the workers running it stopped too often.",
    }),
    message: z.string(),
  })
  .meta({ id: 'ScanJobError' });

export type ScanJobError = z.output<typeof scanJobError>;

const visitedPage = onboardingScanResult.shape.pages.element;

const scanJobFields = {
  id: z.uuid(),
  domainId: z.uuid(),
  trigger: z.enum(SCAN_TRIGGERS).meta({ description: 'request: the synchronous onboarding scan; job: started to run on its own; schedule: the permanent scan.' }),
  status: z.enum(SCAN_JOB_STATUSES),
  url: z.string().meta({ description: 'The address scanned.' }),
  requestedAt: z.string().meta({ description: 'ISO 8601.' }),
  startedAt: z.string().nullable().meta({ description: 'When a worker began it (the latest run, if it was taken over); null while queued.' }),
  finishedAt: z.string().nullable(),
  pageLimit: z.int().meta({ description: 'The most pages it visits.' }),
  pagesVisited: z.int().meta({ description: 'Pages visited so far: the progress while it runs.' }),
  attempts: z.int().meta({ description: 'Runs begun; more than 1 when a stopped worker’s scan was taken over.' }),
  worker: z.string().nullable().meta({ description: 'The process that ran it last (`host:pid`); null while queued.' }),
  error: scanJobError.nullable().meta({ description: 'Why it failed; null unless failed.' }),
};

export const scanJobSummaryResponse = z.strictObject(scanJobFields).meta({ id: 'ScanJobSummary' });

export const scanJobResponse = z
  .strictObject({
    ...scanJobFields,
    pages: z.array(visitedPage).meta({ description: 'The pages visited so far, in the order their visits ended.' }),
    result: onboardingScanResult.nullable().meta({ description: 'What the scan found (the onboarding scan’s answer); null until it succeeded.' }),
  })
  .meta({ id: 'ScanJob' });

export type ScanJobSummary = z.output<typeof scanJobSummaryResponse>;
export type ScanJob = z.output<typeof scanJobResponse>;

export const scanJobPageResponse = z
  .strictObject({
    scans: z.array(scanJobSummaryResponse).meta({ description: 'Newest first.' }),
    nextCursor: z.string().nullable().meta({ description: 'Pass as `before` for the next page; null: no older scans.' }),
  })
  .meta({ id: 'ScanJobPage' });

const pageSize = z
  .string()
  .regex(/^\d{1,4}$/, 'must be a number from 1 to 100')
  .transform(Number)
  .pipe(z.int().min(1, 'must be at least 1').max(100, 'must be at most 100'));

export const scanJobListQuery = z
  .strictObject({
    before: z.uuid('must be the id of a scan (`nextCursor`)').optional().meta({ description: 'Only scans requested before this one (the `nextCursor` of the previous page).' }),
    limit: pageSize.optional().meta({ description: 'Scans per page, 1–100 (default 20).' }),
  })
  .meta({ description: 'The query of a scan listing.' });

export const scanComparisonQuery = z
  .strictObject({
    against: z
      .uuid('must be the id of a scan of this domain')
      .optional()
      .meta({ description: 'The earlier scan to compare with (default: the succeeded scan of the domain requested before this one).' }),
  })
  .meta({ description: 'The query of a comparison.' });

const foundCookie = onboardingScanResult.shape.storage.shape.cookies.element;
const storageKey = z.strictObject({
  storageType: z.enum(['localStorage', 'sessionStorage', 'indexedDB', 'cacheStorage']),
  name: z.string(),
  origin: z.string(),
});
const service = z.strictObject({ id: z.int(), name: z.string() });

const addedRemoved = <T extends z.ZodType>(item: T, what: string) =>
  z.strictObject({
    added: z.array(item).meta({ description: `${what} the newer scan found and the older did not.` }),
    removed: z.array(item).meta({ description: `${what} the older scan found and the newer did not.` }),
  });

export const scanComparisonResponse = z
  .strictObject({
    scanId: z.uuid().meta({ description: 'The newer scan.' }),
    againstId: z.uuid().meta({ description: 'The older scan.' }),
    cookies: addedRemoved(foundCookie, 'Cookies (by name and domain)'),
    storage: addedRemoved(storageKey, 'Storage keys, IndexedDB databases and caches (by kind, name and origin)'),
    services: addedRemoved(service, 'Recognised services (catalog presets)'),
  })
  .meta({ id: 'ScanComparison' });

export type ScanComparison = z.output<typeof scanComparisonResponse>;
export type StorageKeyFound = z.output<typeof storageKey>;
