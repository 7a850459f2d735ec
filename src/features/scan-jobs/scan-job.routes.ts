import { DOMAIN_PATH, domainAddress, route } from '../feature.ts';
import {
  scanComparisonQuery,
  scanComparisonResponse,
  scanJobListQuery,
  scanJobPageResponse,
  scanJobResponse,
} from './scan-job.contract.ts';
import * as scans from './scan-job.operations.ts';
import { getScanEvidencePage } from './scan-evidence.operations.ts';

export const SCANS_TAG = {
  name: 'Scans',
  description: "Scans of a domain's website kept as jobs: started without waiting, watched page by page, read back and compared.",
};
const TAG = SCANS_TAG.name;

export const scanJobRoutes = [
  route({ tag: TAG, method: 'POST', path: `${DOMAIN_PATH}/scan`, operationId: 'startScan', summary: 'Start a scan (answers at once; the scan runs on a worker)',
    response: scanJobResponse,
    operation: (ctx, p) => scans.startScan(ctx, p), status: 201, errors: [404, 409, 503],
    location: (p, job) => `${domainAddress(p)}/scan/${job.id}` }),
  route({ tag: TAG, method: 'GET', path: `${DOMAIN_PATH}/scan`, summary: 'List scans (newest first, paged)', query: scanJobListQuery,
    response: scanJobPageResponse,
    operation: (ctx, p, _body, query) => scans.listScans(ctx, p, query), status: 200, errors: [400, 404] }),
  route({ tag: TAG, method: 'GET', path: `${DOMAIN_PATH}/scan/:scanId`, summary: 'Read a scan (its progress while it runs, then its result)',
    response: scanJobResponse,
    operation: (ctx, p) => scans.getScan(ctx, p, p.scanId), status: 200, errors: [404] }),
  route({ tag: TAG, method: 'GET', path: `${DOMAIN_PATH}/scan/:scanId/evidence.html`,
    summary: 'A scan as a printable page (pages, hosts, cookies and storage with their phase, beacons, services, legal pages; print it or save it as PDF). A failed scan: why, and the pages it visited; a queued or running one: 409',
    produces: 'text/html',
    operation: (ctx, p) => getScanEvidencePage(ctx, p, p.scanId), status: 200, errors: [404, 409] }),
  route({ tag: TAG, method: 'GET', path: `${DOMAIN_PATH}/scan/:scanId/comparison`, operationId: 'compareScans',
    summary: 'Compare a scan with an earlier one (new and gone cookies, storage and services)',
    query: scanComparisonQuery, response: scanComparisonResponse,
    operation: (ctx, p, _body, query) => scans.compareScans(ctx, p, p.scanId, query.against), status: 200, errors: [400, 404, 409] }),
];
