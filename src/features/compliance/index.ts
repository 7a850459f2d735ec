import type { Feature } from '../feature.ts';
import './compliance-scan.graphql.ts';
import { ComplianceScanEntity } from './compliance-scan.entity.ts';
import { COMPLIANCE_TAG, complianceScanRoutes } from './compliance-scan.routes.ts';
import type { ComplianceScans } from './compliance-scans.service.ts';

declare module '../../kernel/context.ts' {
  interface AppServices {
    complianceScans: ComplianceScans;
  }
}

/** Compliance scans: a fresh visitor before consent, after "reject all" and after "accept all", and what of it is a violation. */
export const complianceFeature: Feature = {
  name: 'compliance',
  entities: [ComplianceScanEntity],
  routes: complianceScanRoutes,
  tags: [COMPLIANCE_TAG],
  parameters: { complianceScanId: 'The id of a compliance scan of the domain.' },
};
