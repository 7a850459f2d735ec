import { z } from 'zod';
import { apiKeyCreate, apiKeyResponse, createdApiKeyResponse } from '../src/features/api-keys/api-key.contract.ts';
import { clientCreate, clientResponse, clientUpdate } from '../src/features/clients/client.contract.ts';
import { domainCreate, domainResponse, domainUpdate } from '../src/features/domains/domain.contract.ts';
import { assetCreate, assetResponse, assetUpdate } from '../src/features/embeddings/embedding-asset.contract.ts';
import { embeddingCreate, embeddingResponse, embeddingUpdate } from '../src/features/embeddings/embedding.contract.ts';
import {
  onboardingCookieList,
  onboardingEmbedCodeSnippets,
  onboardingPresetList,
  onboardingPresetResult,
  onboardingScanResult,
} from '../src/features/onboarding/onboarding.contract.ts';
import { placeholderCreate, placeholderReplaceAll, placeholderResponse, placeholderUpdate } from '../src/features/placeholders/placeholder.contract.ts';
import { themeCreate, themeResponse, themeUpdate } from '../src/features/themes/theme.contract.ts';
import type { RequestContext } from '../src/kernel/context.ts';
import * as apiKeys from '../src/features/api-keys/api-key.operations.ts';
import * as clients from '../src/features/clients/client.operations.ts';
import * as domains from '../src/features/domains/domain.operations.ts';
import * as assets from '../src/features/embeddings/embedding-asset.operations.ts';
import * as embeddings from '../src/features/embeddings/embedding.operations.ts';
import * as placeholders from '../src/features/placeholders/placeholder.operations.ts';
import * as themes from '../src/features/themes/theme.operations.ts';
import { createEmbeddingsFromCookies } from '../src/features/onboarding/cookies.operation.ts';
import { importPresets } from '../src/features/onboarding/presets.operation.ts';
import { scanDomain } from '../src/features/onboarding/scan.operation.ts';
import { embedCodeSnippets } from '../src/features/onboarding/snippets.operation.ts';

/**
 * The REST compatibility layer, one row per route: method, path, the operation it reaches
 * (the same one GraphQL resolvers call), the contract schema of its body, the success status
 * and the error statuses it documents. Paths and codes are those of SERVICE.md §3.
 */

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** `/a/:x/b/:y` → 'x' | 'y' */
type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;
type Params<P extends string> = { [K in ParamNames<P>]: string };

export type RestRoute = {
  method: Method;
  path: string;
  summary: string;
  /** The body's contract schema; routes without one take no body. */
  body?: z.ZodType;
  /** The contract schema of what a 200/201 sends; 204 routes have none. */
  response?: z.ZodType;
  operation: (ctx: RequestContext, params: Record<string, string>, body: unknown) => Promise<unknown>;
  /** 200/201 send the result as JSON; 204 sends nothing. */
  status: 200 | 201 | 204;
  errors: number[];
  /** For a 201 that made one resource: its address, sent as `Location`. */
  location?: (params: Record<string, string>, created: unknown) => string;
  /** The answer carries a secret (a new API key): `Cache-Control: no-store`. */
  secret?: true;
  /** false: HEAD is refused (405) instead of running the whole GET (a scan) for its headers. */
  head?: false;
};

function route<P extends string, S extends z.ZodType | undefined = undefined, R extends z.ZodType | undefined = undefined>(row: {
  method: Method;
  path: P;
  summary: string;
  body?: S;
  response?: R;
  operation: (
    ctx: RequestContext,
    params: Params<P>,
    body: S extends z.ZodType ? z.output<S> : undefined,
  ) => Promise<R extends z.ZodType ? z.output<R> : unknown>;
  status: 200 | 201 | 204;
  errors: number[];
  location?: (params: Params<P>, created: R extends z.ZodType ? z.output<R> : never) => string;
  secret?: true;
  head?: false;
}): RestRoute {
  return row as unknown as RestRoute;
}

const CLIENTS = '/hosting/api/client';
const CLIENT = `${CLIENTS}/:clientId` as const;
const DOMAIN = `${CLIENT}/domain/:domainId` as const;
const EMBEDDING = `${DOMAIN}/embedding/:embeddingId` as const;

/** The address of a domain, for `Location`. */
const domainPath = (p: { clientId: string; domainId: string }) => `${CLIENTS}/${p.clientId}/domain/${p.domainId}`;

export const restRoutes: RestRoute[] = [
  // ── clients ──────────────────────────────────────────────────────────────
  route({ method: 'POST', path: CLIENTS, summary: 'Create client', body: clientCreate,
    response: clientResponse,
    operation: (ctx, _, body) => clients.createClient(ctx, body), status: 201, errors: [400, 404, 409],
    location: (_, client) => `${CLIENTS}/${client.id}` }),
  route({ method: 'GET', path: CLIENTS, summary: 'Read all clients',
    response: z.array(clientResponse),
    operation: (ctx) => clients.listClients(ctx), status: 200, errors: [] }),
  route({ method: 'GET', path: CLIENT, summary: 'Read client',
    response: clientResponse,
    operation: (ctx, p) => clients.getClient(ctx, p.clientId), status: 200, errors: [404] }),
  route({ method: 'PUT', path: CLIENT, summary: 'Update client', body: clientUpdate,
    response: clientResponse,
    operation: (ctx, p, body) => clients.updateClient(ctx, p.clientId, body), status: 200, errors: [400, 403, 404, 409] }),
  route({ method: 'DELETE', path: CLIENT, summary: 'Delete client and everything beneath it (administrator only)',
    operation: (ctx, p) => clients.deleteClient(ctx, p.clientId), status: 204, errors: [403, 404] }),

  // ── API keys of a client (the key is shown once, on create) ──────────────
  route({ method: 'POST', path: `${CLIENT}/apikey`, summary: 'Create API key (409: the client holds the most keys it may)', body: apiKeyCreate,
    response: createdApiKeyResponse,
    operation: (ctx, p, body) => apiKeys.createApiKey(ctx, p.clientId, body), status: 201, errors: [400, 404, 409],
    location: (p, key) => `${CLIENTS}/${p.clientId}/apikey/${key.id}`, secret: true }),
  route({ method: 'GET', path: `${CLIENT}/apikey`, summary: 'Read all API keys (prefix only)',
    response: z.array(apiKeyResponse),
    operation: (ctx, p) => apiKeys.listApiKeys(ctx, p.clientId), status: 200, errors: [404] }),
  route({ method: 'DELETE', path: `${CLIENT}/apikey/:keyId`, summary: 'Revoke API key (a client key: only itself and the keys it created)',
    operation: (ctx, p) => apiKeys.revokeApiKey(ctx, p), status: 204, errors: [403, 404] }),

  // ── domains ──────────────────────────────────────────────────────────────
  route({ method: 'POST', path: `${CLIENT}/domain`, summary: 'Create domain', body: domainCreate,
    response: domainResponse,
    operation: (ctx, p, body) => domains.createDomain(ctx, p, body), status: 201, errors: [400, 404],
    location: (p, domain) => `${CLIENTS}/${p.clientId}/domain/${domain.id}` }),
  route({ method: 'GET', path: `${CLIENT}/domain`, summary: 'Read all domains',
    response: z.array(domainResponse),
    operation: (ctx, p) => domains.listDomains(ctx, p), status: 200, errors: [404] }),
  route({ method: 'GET', path: DOMAIN, summary: 'Read domain',
    response: domainResponse,
    operation: (ctx, p) => domains.getDomain(ctx, p), status: 200, errors: [404] }),
  route({ method: 'PUT', path: DOMAIN, summary: 'Update domain', body: domainUpdate,
    response: domainResponse,
    operation: (ctx, p, body) => domains.updateDomain(ctx, p, body), status: 200, errors: [400, 404] }),
  route({ method: 'DELETE', path: DOMAIN, summary: 'Delete domain and everything it holds',
    operation: (ctx, p) => domains.deleteDomain(ctx, p), status: 204, errors: [404] }),

  // ── placeholders ─────────────────────────────────────────────────────────
  route({ method: 'POST', path: `${DOMAIN}/placeholder`, summary: 'Create placeholder', body: placeholderCreate,
    response: placeholderResponse,
    operation: (ctx, p, body) => placeholders.createPlaceholder(ctx, p, body), status: 201, errors: [400, 404, 409],
    location: (p, placeholder) => `${domainPath(p)}/placeholder/${encodeURIComponent(placeholder.name)}` }),
  route({ method: 'PUT', path: `${DOMAIN}/placeholder`, summary: 'Replace all placeholders', body: placeholderReplaceAll,
    response: z.array(placeholderResponse),
    operation: (ctx, p, body) => placeholders.replacePlaceholders(ctx, p, body), status: 201, errors: [400, 404] }),
  route({ method: 'GET', path: `${DOMAIN}/placeholder`, summary: 'Read all placeholders',
    response: z.array(placeholderResponse),
    operation: (ctx, p) => placeholders.listPlaceholders(ctx, p), status: 200, errors: [404] }),
  route({ method: 'GET', path: `${DOMAIN}/placeholder/:placeholderName`, summary: 'Read placeholder',
    response: placeholderResponse,
    operation: (ctx, p) => placeholders.getPlaceholder(ctx, p, p.placeholderName), status: 200, errors: [404] }),
  route({ method: 'PUT', path: `${DOMAIN}/placeholder/:placeholderName`, summary: 'Update placeholder', body: placeholderUpdate,
    response: placeholderResponse,
    operation: (ctx, p, body) => placeholders.updatePlaceholder(ctx, p, p.placeholderName, body), status: 200, errors: [400, 404] }),
  route({ method: 'DELETE', path: `${DOMAIN}/placeholder/:placeholderName`, summary: 'Delete placeholder',
    operation: (ctx, p) => placeholders.deletePlaceholder(ctx, p, p.placeholderName), status: 204, errors: [404] }),

  // ── embedding assets ("cookies") ─────────────────────────────────────────
  route({ method: 'POST', path: `${EMBEDDING}/asset`, summary: 'Create cookie', body: assetCreate,
    response: assetResponse,
    operation: (ctx, p, body) => assets.createAsset(ctx, p, body), status: 201, errors: [400, 404],
    location: (p, asset) => `${domainPath(p)}/embedding/${p.embeddingId}/asset/${asset.id}` }),
  route({ method: 'GET', path: `${EMBEDDING}/asset`, summary: 'Read all cookies',
    response: z.array(assetResponse),
    operation: (ctx, p) => assets.listAssets(ctx, p), status: 200, errors: [404] }),
  route({ method: 'GET', path: `${EMBEDDING}/asset/:assetId`, summary: 'Read cookie',
    response: assetResponse,
    operation: (ctx, p) => assets.getAsset(ctx, p), status: 200, errors: [404] }),
  route({ method: 'PUT', path: `${EMBEDDING}/asset/:assetId`, summary: 'Update cookie', body: assetUpdate,
    response: assetResponse,
    operation: (ctx, p, body) => assets.updateAsset(ctx, p, body), status: 200, errors: [400, 404] }),
  route({ method: 'DELETE', path: `${EMBEDDING}/asset/:assetId`, summary: 'Delete cookie',
    operation: (ctx, p) => assets.deleteAsset(ctx, p), status: 204, errors: [404] }),

  // ── embeddings ───────────────────────────────────────────────────────────
  route({ method: 'POST', path: `${DOMAIN}/embedding`, summary: 'Create embedding', body: embeddingCreate,
    response: embeddingResponse,
    operation: (ctx, p, body) => embeddings.createEmbedding(ctx, p, body), status: 201, errors: [400, 404],
    location: (p, embedding) => `${domainPath(p)}/embedding/${embedding.id}` }),
  route({ method: 'GET', path: `${DOMAIN}/embedding`, summary: 'Read all embeddings',
    response: z.array(embeddingResponse),
    operation: (ctx, p) => embeddings.listEmbeddings(ctx, p), status: 200, errors: [404] }),
  route({ method: 'GET', path: EMBEDDING, summary: 'Read embedding',
    response: embeddingResponse,
    operation: (ctx, p) => embeddings.getEmbedding(ctx, p), status: 200, errors: [404] }),
  route({ method: 'PUT', path: EMBEDDING, summary: 'Update embedding (assets sent replace all assets)', body: embeddingUpdate,
    response: embeddingResponse,
    operation: (ctx, p, body) => embeddings.updateEmbedding(ctx, p, body), status: 200, errors: [400, 404] }),
  route({ method: 'DELETE', path: EMBEDDING, summary: 'Delete embedding and its assets',
    operation: (ctx, p) => embeddings.deleteEmbedding(ctx, p), status: 204, errors: [404] }),

  // ── themes ───────────────────────────────────────────────────────────────
  route({ method: 'POST', path: `${DOMAIN}/theme`, summary: 'Create theme', body: themeCreate,
    response: themeResponse,
    operation: (ctx, p, body) => themes.createTheme(ctx, p, body), status: 201, errors: [400, 404],
    location: (p, theme) => `${domainPath(p)}/theme/${theme.id}` }),
  route({ method: 'GET', path: `${DOMAIN}/theme`, summary: 'Read all themes',
    response: z.array(themeResponse),
    operation: (ctx, p) => themes.listThemes(ctx, p), status: 200, errors: [404] }),
  route({ method: 'GET', path: `${DOMAIN}/theme/:themeId`, summary: 'Read theme',
    response: themeResponse,
    operation: (ctx, p) => themes.getTheme(ctx, p), status: 200, errors: [404] }),
  route({ method: 'PUT', path: `${DOMAIN}/theme/:themeId`, summary: 'Update theme', body: themeUpdate,
    response: themeResponse,
    operation: (ctx, p, body) => themes.updateTheme(ctx, p, body), status: 200, errors: [400, 404] }),
  route({ method: 'DELETE', path: `${DOMAIN}/theme/:themeId`, summary: 'Delete theme',
    operation: (ctx, p) => themes.deleteTheme(ctx, p), status: 204, errors: [404] }),

  // ── onboarding ───────────────────────────────────────────────────────────
  route({ method: 'GET', path: `${DOMAIN}/onboarding/scan`, summary: 'Scan domain (400: the site answers an error or an empty page, or its address is refused; 500: the crawl failed)',
    response: onboardingScanResult,
    operation: (ctx, p) => scanDomain(ctx, p), status: 200, errors: [400, 404, 409, 429, 500], head: false }),
  route({ method: 'POST', path: `${DOMAIN}/onboarding/presets`, summary: 'Import presets', body: onboardingPresetList,
    response: z.array(onboardingPresetResult),
    operation: (ctx, p, body) => importPresets(ctx, p, body), status: 201, errors: [400, 404] }),
  route({ method: 'POST', path: `${DOMAIN}/onboarding/embeddingsFromCookies`, summary: 'Embeddings from cookies', body: onboardingCookieList,
    response: z.array(embeddingResponse),
    operation: (ctx, p, body) => createEmbeddingsFromCookies(ctx, p, body), status: 201, errors: [400, 404] }),
  route({ method: 'GET', path: `${DOMAIN}/onboarding/embed`, summary: 'Code snippets',
    response: onboardingEmbedCodeSnippets,
    operation: (ctx, p) => embedCodeSnippets(ctx, p), status: 200, errors: [404] }),
];
