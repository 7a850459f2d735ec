import { DOMAIN_PATH, domainAddress, route } from '../feature.ts';
import { scanJobListQuery } from '../scan-jobs/scan-job.contract.ts';
import { complianceScanPageResponse, complianceScanResponse } from './compliance-scan.contract.ts';
import * as compliance from './compliance-scan.operations.ts';

export const COMPLIANCE_TAG = {
  name: 'Compliance scans',
  description:
    'The check a regulator runs: the site visited as a fresh visitor before consent, after "reject all" and after "accept all" in its real banner; what needs consent and was there before consent or after rejecting is a finding. This service’s own, not CCM19’s.',
};
const TAG = COMPLIANCE_TAG.name;

export const complianceScanRoutes = [
  route({ tag: TAG, method: 'POST', path: `${DOMAIN_PATH}/complianceScan`, operationId: 'startComplianceScan', summary: 'Start a compliance scan (answers at once; it runs on a worker)',
    response: complianceScanResponse,
    operation: (ctx, p) => compliance.startComplianceScan(ctx, p), status: 201, errors: [404, 409, 503],
    location: (p, scan) => `${domainAddress(p)}/complianceScan/${scan.id}` }),
  route({ tag: TAG, method: 'GET', path: `${DOMAIN_PATH}/complianceScan`, summary: 'List compliance scans (newest first, paged)', query: scanJobListQuery,
    response: complianceScanPageResponse,
    operation: (ctx, p, _body, query) => compliance.listComplianceScansOf(ctx, p, query), status: 200, errors: [400, 404] }),
  route({ tag: TAG, method: 'GET', path: `${DOMAIN_PATH}/complianceScan/:complianceScanId`, summary: 'Read a compliance scan (its findings and what each visitor saw)',
    response: complianceScanResponse,
    operation: (ctx, p) => compliance.getComplianceScan(ctx, p, p.complianceScanId), status: 200, errors: [404] }),
];
