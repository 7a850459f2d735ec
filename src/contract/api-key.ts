import { z } from 'zod';
import { nameText } from './fields.ts';

/** API keys of a client (our extension of the real API; SERVICE.md §3). */

export const apiKeyCreate = z.strictObject({ name: nameText(100) });

export type ApiKeyCreate = z.infer<typeof apiKeyCreate>;

/** As listed: the key itself is never shown again after it was created. */
export type ApiKey = { id: string; name: string; prefix: string; createdAt: string };

/** As created: the only time `key` is shown. */
export type CreatedApiKey = ApiKey & { key: string };
