import { viewOf } from '../../kernel/contract/field-view.ts';
import { type ApiKey, apiKeyFields } from './api-key.contract.ts';
import type { ApiKeyRow } from './api-key.entity.ts';

const apiKeyView = viewOf(apiKeyFields, { createdAt: (row: { createdAt: Date }) => row.createdAt.toISOString() });

/** A stored API key → its payload (never the key itself: only its hash is stored). */
export const toApiKey = (row: ApiKeyRow): ApiKey => apiKeyView(row);
