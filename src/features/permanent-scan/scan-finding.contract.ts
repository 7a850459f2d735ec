import { z } from 'zod';
import { onboardingScanResult } from '../onboarding/onboarding.contract.ts';

/** What the permanent scan found that no embedding declares (REST, GraphQL and the webhook's payload). */

export const FINDING_KINDS = ['cookie', 'storage', 'service'] as const;

const foundCookie = onboardingScanResult.shape.storage.shape.cookies.element;

const findingDetail = z
  .union([
    z.strictObject({ cookie: foundCookie }),
    z.strictObject({ storageType: z.enum(['localStorage', 'sessionStorage']), name: z.string(), origin: z.string() }),
    z.strictObject({ presetId: z.int(), name: z.string(), vendor: z.string() }),
  ])
  .meta({ description: 'cookie: the cookie as found; storage: the key, its kind and origin; service: the catalog preset recognised.' });

export type FindingDetail = z.output<typeof findingDetail>;

export const scanFindingResponse = z
  .strictObject({
    id: z.uuid(),
    domainId: z.uuid(),
    kind: z.enum(FINDING_KINDS).meta({ description: 'cookie, storage (a localStorage or sessionStorage key) or service (a recognised catalog service).' }),
    name: z.string().meta({ description: 'The cookie or key name, or the service’s name.' }),
    detail: findingDetail,
    firstScanId: z.uuid().meta({ description: 'The scan that found it first.' }),
    lastScanId: z.uuid().meta({ description: 'The latest scan that found it.' }),
    firstSeenAt: z.string(),
    lastSeenAt: z.string(),
    timesSeen: z.int().meta({ description: 'Scans that found it.' }),
  })
  .meta({ id: 'ScanFinding' });

export type ScanFinding = z.output<typeof scanFindingResponse>;

export const scanFindingListResponse = z.array(scanFindingResponse).meta({ description: 'Newest first (by when they were first seen).' });
