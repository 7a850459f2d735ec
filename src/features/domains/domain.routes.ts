import { z } from 'zod';
import { CLIENT_PATH, CLIENTS_PATH, DOMAIN_PATH, route } from '../feature.ts';
import { domainCreate, domainResponse, domainUpdate } from './domain.contract.ts';
import * as domains from './domain.operations.ts';

export const DOMAINS_TAG = { name: 'Domains', description: 'The websites of a client. Deleting one deletes everything it holds.' };
const TAG = DOMAINS_TAG.name;

export const domainRoutes = [
  route({ tag: TAG, method: 'POST', path: `${CLIENT_PATH}/domain`, summary: 'Create domain', body: domainCreate,
    response: domainResponse,
    operation: (ctx, p, body) => domains.createDomain(ctx, p, body), status: 201, errors: [400, 404, 409],
    location: (p, domain) => `${CLIENTS_PATH}/${p.clientId}/domain/${domain.id}` }),
  route({ tag: TAG, method: 'GET', path: `${CLIENT_PATH}/domain`, summary: 'Read all domains',
    response: z.array(domainResponse),
    operation: (ctx, p) => domains.listDomains(ctx, p), status: 200, errors: [404] }),
  route({ tag: TAG, method: 'GET', path: DOMAIN_PATH, summary: 'Read domain',
    response: domainResponse,
    operation: (ctx, p) => domains.getDomain(ctx, p), status: 200, errors: [404] }),
  route({ tag: TAG, method: 'PUT', path: DOMAIN_PATH, summary: 'Update domain', body: domainUpdate,
    response: domainResponse,
    operation: (ctx, p, body) => domains.updateDomain(ctx, p, body), status: 200, errors: [400, 404, 409] }),
  route({ tag: TAG, method: 'DELETE', path: DOMAIN_PATH, summary: 'Delete domain and everything it holds',
    operation: (ctx, p) => domains.deleteDomain(ctx, p), status: 204, errors: [404] }),
];
