import type { Feature } from '../feature.ts';
import type { ConsentMaintenance } from './consent-maintenance.ts';

declare module '../../kernel/context.ts' {
  interface AppServices {
    /** The consent records' monthly partitions and retention. */
    consents: ConsentMaintenance;
  }
}

/** Consent records: what each visitor chose, against the configuration revision the banner showed. */
export const consentsFeature: Feature = { name: 'consents' };
