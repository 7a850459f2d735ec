import type { Feature } from '../feature.ts';
import type { ConsentMaintenance } from './consent-maintenance.ts';
import './consent-log.graphql.ts';
import './consent-evidence.graphql.ts';
import { consentEvidenceRoutes } from './consent-evidence.routes.ts';
import { CONSENTS_TAG, consentLogRoutes } from './consent-log.routes.ts';

declare module '../../kernel/context.ts' {
  interface AppServices {
    /** The consent records' monthly partitions and retention. */
    consents: ConsentMaintenance;
  }
}

/**
 * Consent records: what each visitor chose, against the configuration revision the banner showed
 * (POST /consent, consent-intake.routes.ts), and the log of them its operators read and export.
 */
export const consentsFeature: Feature = {
  name: 'consents',
  routes: [...consentLogRoutes, ...consentEvidenceRoutes],
  tags: [CONSENTS_TAG],
  parameters: { consentId: 'The id the banner keeps with a choice (a UUID); the same for every later change of it.' },
};
