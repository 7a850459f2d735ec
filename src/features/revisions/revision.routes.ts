import { notFound } from '../../kernel/errors.ts';
import { DOMAIN_PATH, domainAddress, route } from '../feature.ts';
import {
  revisionDetailResponse,
  revisionDiffQuery,
  revisionDiffResponse,
  revisionListQuery,
  revisionNumberText,
  revisionPageResponse,
  revisionResponse,
} from './revision.contract.ts';
import * as revisions from './revision.operations.ts';

export const REVISIONS_TAG = {
  name: 'Revisions',
  description: "The history of a domain's published configuration: every change kept as a revision, read, compared and restored.",
};
const TAG = REVISIONS_TAG.name;

/** A revision number in the address; anything else is a revision that does not exist. */
const numberOf = (text: string) => {
  const parsed = revisionNumberText.safeParse(text);
  if (!parsed.success) throw notFound(`revision ${text}`);
  return parsed.data;
};

export const revisionRoutes = [
  route({ tag: TAG, method: 'GET', path: `${DOMAIN_PATH}/revision`, summary: 'List revisions (newest first, paged)', query: revisionListQuery,
    response: revisionPageResponse,
    operation: (ctx, p, _body, query) => revisions.listRevisions(ctx, p, query), status: 200, errors: [400, 404] }),
  route({ tag: TAG, method: 'GET', path: `${DOMAIN_PATH}/revision/:revisionId`, summary: 'Read revision (with its configuration)',
    response: revisionDetailResponse,
    operation: (ctx, p) => revisions.getRevision(ctx, p, numberOf(p.revisionId)), status: 200, errors: [404] }),
  route({ tag: TAG, method: 'GET', path: `${DOMAIN_PATH}/revision/:revisionId/diff`, summary: 'Compare revisions (JSON Patch and a summary per change)',
    query: revisionDiffQuery, response: revisionDiffResponse,
    operation: (ctx, p, _body, query) => revisions.diffRevisions(ctx, p, numberOf(p.revisionId), query.against), status: 200, errors: [400, 404] }),
  route({ tag: TAG, method: 'POST', path: `${DOMAIN_PATH}/revision/:revisionId/restore`,
    summary: 'Restore revision (makes a new revision equal to it; the answer is the newest revision)',
    response: revisionResponse,
    operation: (ctx, p) => revisions.restoreRevision(ctx, p, numberOf(p.revisionId)), status: 201, errors: [403, 404, 409],
    location: (p, revision) => `${domainAddress(p)}/revision/${revision.number}` }),
];
