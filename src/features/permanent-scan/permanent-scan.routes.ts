import { CLIENT_PATH, DOMAIN_PATH, route } from '../feature.ts';
import { scanFindingListResponse } from './scan-finding.contract.ts';
import { webhookInput, webhookResponse } from './webhook.contract.ts';
import * as watch from './permanent-scan.operations.ts';

export const PERMANENT_SCAN_TAG = {
  name: 'Permanent scan',
  description:
    'What the permanent scan (`permanentScanEnabled`) finds on a site that no embedding declares, and the webhook a client hears it on (signed as Standard Webhooks).',
};
const TAG = PERMANENT_SCAN_TAG.name;

export const permanentScanRoutes = [
  route({ tag: TAG, method: 'GET', path: `${DOMAIN_PATH}/finding`, summary: 'List findings (cookies, storage keys and services no embedding declares)',
    response: scanFindingListResponse,
    operation: (ctx, p) => watch.listFindings(ctx, p), status: 200, errors: [404] }),
  route({ tag: TAG, method: 'DELETE', path: `${DOMAIN_PATH}/finding/:findingId`, operationId: 'dismissFinding', summary: 'Dismiss a finding (found again, it is recorded anew)',
    operation: (ctx, p) => watch.dismissScanFinding(ctx, p, p.findingId), status: 204, errors: [404] }),
  route({ tag: TAG, method: 'GET', path: `${CLIENT_PATH}/webhook`, operationId: 'getWebhook', summary: 'Read the webhook (without its secret)',
    response: webhookResponse,
    operation: (ctx, p) => watch.getWebhook(ctx, p), status: 200, errors: [404] }),
  route({ tag: TAG, method: 'PUT', path: `${CLIENT_PATH}/webhook`, operationId: 'setWebhook', summary: 'Set the webhook (a new one, or rotateSecret, answers its secret once)',
    body: webhookInput, response: webhookResponse,
    operation: (ctx, p, body) => watch.setWebhook(ctx, p, body), status: 200, errors: [400, 404], secret: true }),
  route({ tag: TAG, method: 'DELETE', path: `${CLIENT_PATH}/webhook`, operationId: 'deleteWebhook', summary: 'Remove the webhook',
    operation: (ctx, p) => watch.deleteWebhook(ctx, p), status: 204, errors: [404] }),
];
