import { z } from 'zod';
import { CLIENT_PATH, CLIENTS_PATH, route } from '../feature.ts';
import { apiKeyCreate, apiKeyResponse, createdApiKeyResponse, revokedApiKeys } from './api-key.contract.ts';
import * as apiKeys from './api-key.operations.ts';

export const API_KEYS_TAG = { name: 'API keys', description: "A client's API keys: shown once when created, stored only as a hash." };
const TAG = API_KEYS_TAG.name;

/** The key is shown once, on create. */
export const apiKeyRoutes = [
  route({ tag: TAG, method: 'POST', path: `${CLIENT_PATH}/apikey`, summary: 'Create API key (409: the client holds the most keys it may)', body: apiKeyCreate,
    response: createdApiKeyResponse,
    operation: (ctx, p, body) => apiKeys.createApiKey(ctx, p.clientId, body), status: 201, errors: [400, 404, 409],
    location: (p, key) => `${CLIENTS_PATH}/${p.clientId}/apikey/${key.id}`, secret: true }),
  route({ tag: TAG, method: 'GET', path: `${CLIENT_PATH}/apikey`, summary: 'Read all API keys (prefix only)',
    response: z.array(apiKeyResponse),
    operation: (ctx, p) => apiKeys.listApiKeys(ctx, p.clientId), status: 200, errors: [404] }),
  route({ tag: TAG, method: 'DELETE', path: `${CLIENT_PATH}/apikey/:keyId`, operationId: 'revokeApiKey', summary: 'Revoke API key (a client key: only itself and the keys it created)',
    operation: (ctx, p) => apiKeys.revokeApiKey(ctx, p), status: 204, errors: [403, 404] }),
  // Not in CCM19's API (none of these routes is): for a leaked key, every other key revoked at once.
  route({ tag: TAG, method: 'DELETE', path: `${CLIENT_PATH}/apikey`, operationId: 'revokeOtherApiKeys',
    summary: "Revoke every API key of the client but the one asking (extension, after a leak; the administrator: every key; a key made by another key: 403)",
    response: revokedApiKeys,
    operation: (ctx, p) => apiKeys.revokeOtherApiKeys(ctx, p.clientId), status: 200, errors: [403, 404] }),
];
