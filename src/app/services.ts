import type { MikroORM } from '@mikro-orm/postgresql';
import type { AppServices } from '../kernel/context.ts';
import { createKeyRing } from '../features/api-keys/key-ring.ts';
import { syncLocalesOfDomain } from '../features/locales/locale.operations.ts';
import { createScanGate, type ScanOutcome } from '../features/onboarding/scan-gate.ts';
import type { Scanner } from '../scanner/scan.ts';

/** What the long-lived services are made of; the server, the command line and the tests differ only in these. */
export type ServiceParts = {
  orm: MikroORM;
  /** Its browser starts with the first scan. */
  scanner: Scanner;
  maxConcurrentScans: number;
  adminApiKey: string | undefined;
  publicBaseUrl: string;
  /** Where scan outcomes are counted (the metrics); default: nowhere. */
  observeScan?: (outcome: ScanOutcome, seconds: number) => void;
};

/** The services every feature declared it needs (kernel/context.ts `AppServices`), built once for the process. */
export function buildServices(parts: ServiceParts): AppServices {
  return {
    scanner: parts.scanner,
    scanGate: createScanGate(parts.maxConcurrentScans, parts.observeScan),
    keys: createKeyRing({ orm: parts.orm, adminApiKey: parts.adminApiKey }),
    publicBaseUrl: parts.publicBaseUrl,
    syncLocalesOfDomain,
  };
}
