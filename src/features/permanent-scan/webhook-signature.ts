import { createHmac, randomBytes } from 'node:crypto';

/**
 * Signatures of webhook deliveries as Standard Webhooks defines them (standardwebhooks.com): the
 * secret is `whsec_` and base64 key bytes; a delivery carries `webhook-id` (the same on every
 * try), `webhook-timestamp` (seconds, of this try) and `webhook-signature: v1,<base64 HMAC-SHA256
 * of "id.timestamp.body">`, so any Standard Webhooks library verifies it.
 */

const PREFIX = 'whsec_';

export const newWebhookSecret = (): string => `${PREFIX}${randomBytes(32).toString('base64')}`;

export function signatureHeaders(secret: string, id: string, timestampSeconds: number, body: string): Record<string, string> {
  const key = Buffer.from(secret.slice(PREFIX.length), 'base64');
  const signature = createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': String(timestampSeconds), 'webhook-signature': `v1,${signature}` };
}
