import { DOMAIN_PATH, route } from '../feature.ts';
import { consentEvidenceQuery, consentEvidenceResponse } from './consent-evidence.contract.ts';
import { getConsentEvidence, getConsentEvidencePage } from './consent-evidence.operations.ts';
import { CONSENTS_TAG } from './consent-log.routes.ts';

const TAG = CONSENTS_TAG.name;

export const consentEvidenceRoutes = [
  route({ tag: TAG, method: 'GET', path: `${DOMAIN_PATH}/consent/:consentId/evidence`,
    summary: "Proof of consent (the record and the configuration revision it names, in the visitor's locale: texts, services, cookies, purposes, what was accepted; the consent's whole history, oldest first)",
    query: consentEvidenceQuery, response: consentEvidenceResponse,
    operation: (ctx, p, _, query) => getConsentEvidence(ctx, p, p.consentId, query.record), status: 200, errors: [400, 404] }),
  route({ tag: TAG, method: 'GET', path: `${DOMAIN_PATH}/consent/:consentId/evidence.html`,
    summary: 'Proof of consent as a printable page (the same evidence, for a data protection authority; print it or save it as PDF)',
    query: consentEvidenceQuery, produces: 'text/html',
    operation: (ctx, p, _, query) => getConsentEvidencePage(ctx, p, p.consentId, query.record), status: 200, errors: [400, 404] }),
];
