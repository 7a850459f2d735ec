import { z } from 'zod';
import { CLIENT_PATH, CLIENTS_PATH, route } from '../feature.ts';
import { clientCreate, clientListItem, clientResponse, clientUpdate } from './client.contract.ts';
import * as clients from './client.operations.ts';

export const CLIENTS_TAG = { name: 'Clients', description: 'Customer accounts (administrator key for creating and listing all).' };
const TAG = CLIENTS_TAG.name;

/** CCM19's client search: an exact username, or else an e-mail address in any case. */
const CLIENT_SEARCH_PATH = '/hosting/api/clientgetid/:searchTerm';

export const clientRoutes = [
  // Not `createClient`: generated clients import a function of that name (openapi-fetch,
  // @hey-api/openapi-ts), and an operation named so would clash with it.
  route({ tag: TAG, method: 'POST', path: CLIENTS_PATH, summary: 'Create client', body: clientCreate, operationId: 'addClient',
    response: clientResponse,
    operation: (ctx, _, body) => clients.createClient(ctx, body), status: 201, errors: [400, 404, 409],
    location: (_, client) => `${CLIENTS_PATH}/${client.id}` }),
  route({ tag: TAG, method: 'GET', path: CLIENTS_PATH, summary: 'Read all clients',
    response: z.array(clientListItem),
    operation: (ctx) => clients.listClients(ctx), status: 200, errors: [] }),
  route({ tag: TAG, method: 'GET', path: CLIENT_SEARCH_PATH, summary: 'Find client by username or e-mail address', operationId: 'findClient',
    response: clientResponse,
    operation: (ctx, p) => clients.findClient(ctx, p.searchTerm), status: 200, errors: [404] }),
  route({ tag: TAG, method: 'GET', path: CLIENT_PATH, summary: 'Read client',
    response: clientResponse,
    operation: (ctx, p) => clients.getClient(ctx, p.clientId), status: 200, errors: [404] }),
  route({ tag: TAG, method: 'PUT', path: CLIENT_PATH, summary: 'Update client', body: clientUpdate,
    response: clientResponse,
    operation: (ctx, p, body) => clients.updateClient(ctx, p.clientId, body), status: 200, errors: [400, 403, 404, 409] }),
  route({ tag: TAG, method: 'DELETE', path: CLIENT_PATH, summary: 'Delete client and everything beneath it (administrator only)',
    operation: (ctx, p) => clients.deleteClient(ctx, p.clientId), status: 204, errors: [403, 404] }),
];
