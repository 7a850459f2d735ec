import { apiKeysFeature } from './api-keys/index.ts';
import { bannerFeature } from './banner/index.ts';
import { bannerCheckFeature } from './banner-check/index.ts';
import { catalogFeature } from './catalog/index.ts';
import { clientsFeature } from './clients/index.ts';
import { complianceFeature } from './compliance/index.ts';
import { consentsFeature } from './consents/index.ts';
import { domainsFeature } from './domains/index.ts';
import { embeddingsFeature } from './embeddings/index.ts';
import { localesFeature } from './locales/index.ts';
import type { Feature } from './feature.ts';
import { onboardingFeature } from './onboarding/index.ts';
import { placeholdersFeature } from './placeholders/index.ts';
import { revisionsFeature } from './revisions/index.ts';
import { scanJobsFeature } from './scan-jobs/index.ts';
import { permanentScanFeature } from './permanent-scan/index.ts';
import { scriptFindingsFeature } from './script-findings/index.ts';
import { tcfVendorsFeature } from './tcf-vendors/index.ts';
import { themesFeature } from './themes/index.ts';

/**
 * Every feature, once. A new resource is a folder under src/features/ with an index.ts that
 * exports its Feature, and one line here (docs/ARCHITECTURE.md has the checklist).
 */
export const features: readonly Feature[] = [
  clientsFeature,
  apiKeysFeature,
  domainsFeature,
  placeholdersFeature,
  embeddingsFeature,
  themesFeature,
  localesFeature,
  catalogFeature,
  tcfVendorsFeature,
  onboardingFeature,
  bannerFeature,
  bannerCheckFeature,
  consentsFeature,
  revisionsFeature,
  scanJobsFeature,
  permanentScanFeature,
  complianceFeature,
  scriptFindingsFeature,
];

/** Every stored entity, for the ORM. */
export const entities = features.flatMap((feature) => feature.entities ?? []);
