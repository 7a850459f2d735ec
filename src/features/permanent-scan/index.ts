import type { Feature } from '../feature.ts';
import './permanent-scan.graphql.ts';
import { PERMANENT_SCAN_TAG, permanentScanRoutes } from './permanent-scan.routes.ts';
import { ScanFindingEntity } from './scan-finding.entity.ts';
import { WebhookEntity } from './webhook.entity.ts';

/** The permanent scan: scheduled scans of watching domains, their findings, and the webhook that hears of them. */
export const permanentScanFeature: Feature = {
  name: 'permanent-scan',
  entities: [ScanFindingEntity, WebhookEntity],
  routes: permanentScanRoutes,
  tags: [PERMANENT_SCAN_TAG],
  parameters: { findingId: 'The id of a finding of the domain.' },
};
