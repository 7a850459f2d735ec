import type { MikroORM } from '@mikro-orm/postgresql';
import type { ChangeFeed } from '../db/change-feed.ts';
import { createBannerDelivery } from '../features/banner/banner-delivery.ts';
import { withClientFeatures } from '../features/banner/client-features.ts';
import { createDisplayCounter } from '../features/banner/display-counter.ts';
import { countryDatabase } from '../features/banner/region/country-database.ts';
import { visitorRegion } from '../features/banner/region/visitor-region.ts';
import { createConsentMaintenance } from '../features/consents/consent-maintenance.ts';
import { createRevisionRecorder, lockReachedDomains, noteDueRevisions } from '../features/revisions/revision-recorder.ts';
import type { AppServices } from '../kernel/context.ts';
import { tcfCmpOf } from '../features/tcf-vendors/tcf-cmp.ts';
import { createKeyRing } from '../features/api-keys/key-ring.ts';
import { syncLocalesOfDomain } from '../features/locales/locale.operations.ts';
import { createScanGate, type ScanOutcome } from '../features/onboarding/scan-gate.ts';
import type { Scanner } from '../scanner/scan.ts';
import type { ScanJobs } from '../features/scan-jobs/scan-jobs.service.ts';
import type { ComplianceScans } from '../features/compliance/compliance-scans.service.ts';

/** What the long-lived services are made of; the server, the command line and the tests differ only in these. */
export type ServiceParts = {
  orm: MikroORM;
  /** Changes of published configurations (the database's `changes`). */
  changes: ChangeFeed;
  /** How often counted banner loads are written (default 2 s). */
  displayCountFlushMs?: number;
  /** The banner counts a visitor once a day: which proxies to believe about their address (TRUST_PROXY; default none). */
  trustProxy?: boolean | number | string;
  /** `enableOnlyInEu`: the trusted CDN header naming the visitor's country (COUNTRY_HEADER); default none (the address decides). */
  countryHeader?: string;
  /** …and the MMDB country database that looks up addresses (COUNTRY_DATABASE); default the shipped one. */
  countryDatabase?: string;
  /** The time the banner's load counter goes by (tests move it to the next day; default Date.now). */
  displayCountClock?: () => number;
  /** Days a consent record is kept (CONSENT_RETENTION_DAYS; default 395). */
  consentRetentionDays?: number;
  /** Where a failed write of banner-load counts, a failed consent maintenance or a failed revision round is reported. */
  onBackgroundError?: (error: unknown) => void;
  /** Its browser starts with the first scan. */
  scanner: Scanner;
  maxConcurrentScans: number;
  /** Scans kept as jobs, on the job queue (app/background.ts `composeScanning`). */
  scanJobs: ScanJobs;
  /** Compliance scans, on the job queue (app/background.ts `composeScanning`). */
  complianceScans: ComplianceScans;
  adminApiKey: string | undefined;
  publicBaseUrl: string;
  /**
   * The CMP the banner's TC strings name (TCF_CMP_ID, TCF_CMP_VERSION) and whether the service runs
   * in production (without an id, TCF cannot be turned on there; elsewhere a placeholder id serves).
   */
  tcfCmp?: { id?: number; version?: number; production?: boolean };
  /** Where scan outcomes are counted (the metrics); default: nowhere. */
  observeScan?: (outcome: ScanOutcome, seconds: number) => void;
};

/** The services every feature declared it needs (kernel/context.ts `AppServices`), built once for the process. */
export function buildServices(parts: ServiceParts): AppServices {
  const revisions = createRevisionRecorder({ orm: parts.orm, services: () => services, changes: parts.changes, onError: parts.onBackgroundError ?? ((error) => console.warn('recording a revision failed (its due rows are kept)', error)) });
  const tcfCmp = tcfCmpOf(parts.tcfCmp);
  const services: AppServices = {
    scanner: parts.scanner,
    scanGate: createScanGate(parts.maxConcurrentScans, parts.observeScan),
    scanJobs: parts.scanJobs,
    complianceScans: parts.complianceScans,
    keys: createKeyRing({ orm: parts.orm, adminApiKey: parts.adminApiKey }),
    publicBaseUrl: parts.publicBaseUrl,
    tcfCmp,
    syncLocalesOfDomain,
    revisions,
    writeTransactions: { begun: lockReachedDomains, committing: noteDueRevisions, committed: (_ctx, domainIds) => revisions.record(domainIds) },
    banner: createBannerDelivery({
      orm: parts.orm,
      services: () => services,
      changes: parts.changes,
      // The banner publishes revisions only: consent records name the revision the visitor saw.
      read: async (domainId) => withClientFeatures(parts.orm, await revisions.published(domainId)),
      recording: (domainId) => revisions.recording(domainId),
      counter: createDisplayCounter(parts.orm, {
        flushEveryMs: parts.displayCountFlushMs,
        onError: parts.onBackgroundError,
        trustProxy: parts.trustProxy,
        now: parts.displayCountClock,
      }),
      publicBaseUrl: parts.publicBaseUrl,
      tcfCmp,
      region: visitorRegion({
        countryHeader: parts.countryHeader,
        lookup: countryDatabase(parts.countryDatabase, parts.onBackgroundError),
        trustProxy: parts.trustProxy,
      }),
    }),
    consents: createConsentMaintenance(parts.orm, { retentionDays: parts.consentRetentionDays ?? 395, onError: parts.onBackgroundError, changes: parts.changes }),
  };
  return services;
}
