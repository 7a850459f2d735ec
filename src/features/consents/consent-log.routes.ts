import { z } from 'zod';
import { DOMAIN_PATH, route } from '../feature.ts';
import {
  consentCountQuery,
  consentDayCounts,
  consentExportQuery,
  consentListQuery,
  consentRecord,
  consentRecordPage,
  MAX_COUNT_DAYS,
} from './consent-log.contract.ts';
import * as consents from './consent-log.operations.ts';
import { MAX_HISTORY } from './consent-log.ts';

export const CONSENTS_TAG = {
  name: 'Consents',
  description: "The consent log of a domain: every choice its banner's visitors made, to list, count per day and export as CSV.",
};
const TAG = CONSENTS_TAG.name;

// The fixed paths come before `…/consent/:consentId`, which would take them otherwise.
export const consentLogRoutes = [
  route({ tag: TAG, method: 'GET', path: `${DOMAIN_PATH}/consent`,
    summary: 'List consent records (newest first, a page at a time: pass nextCursor as after for the next; from inclusive, to exclusive, default the last 30 days)',
    query: consentListQuery, response: consentRecordPage,
    operation: (ctx, p, _, query) => consents.listConsents(ctx, p, query), status: 200, errors: [400, 404] }),
  route({ tag: TAG, method: 'GET', path: `${DOMAIN_PATH}/consent/counts`,
    summary: `Count consent records per day (every UTC day of the range, oldest first, with zeros; at most ${MAX_COUNT_DAYS} days)`,
    query: consentCountQuery, response: consentDayCounts,
    operation: (ctx, p, _, query) => consents.countConsents(ctx, p, query), status: 200, errors: [400, 404] }),
  route({ tag: TAG, method: 'GET', path: `${DOMAIN_PATH}/consent/export`, operationId: 'exportConsents',
    summary: 'Export consent records as CSV (newest first, streamed as an attachment; cells that a spreadsheet would read as a formula start with an apostrophe)',
    query: consentExportQuery, produces: 'text/csv', head: false,
    operation: (ctx, p, _, query) => consents.exportConsents(ctx, p, query), status: 200, errors: [400, 404] }),
  route({ tag: TAG, method: 'GET', path: `${DOMAIN_PATH}/consent/:consentId`,
    summary: `Read the history of one consent (every record of the consent id, newest first, at most ${MAX_HISTORY}: the newest and always the first; 404 if it has none)`,
    response: z.array(consentRecord),
    operation: (ctx, p) => consents.getConsent(ctx, p, p.consentId), status: 200, errors: [404] }),
];
