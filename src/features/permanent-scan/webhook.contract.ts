import { z } from 'zod';
import { isHttpUrl, text } from '../../kernel/contract/fields.ts';

/** A client's webhook: where the permanent scan's findings are delivered, signed (Standard Webhooks). */

export const webhookInput = z
  .strictObject({
    url: text()
      .max(2048, 'must be at most 2048 characters')
      .refine(isHttpUrl, { message: 'must be an absolute http(s) URL' })
      .meta({ description: 'Where deliveries are POSTed (JSON). A public address: loopback and private networks are refused when delivering.' }),
    rotateSecret: z.boolean().optional().meta({ description: 'Make a new signing secret (answered once); the old one stops signing at once.' }),
  })
  .meta({ id: 'WebhookInput', examples: [{ url: 'https://hooks.example.org/consent-findings' }] });

export type WebhookInput = z.output<typeof webhookInput>;

export const webhookResponse = z
  .strictObject({
    url: z.string(),
    secret: z
      .string()
      .optional()
      .meta({ description: 'The signing secret (`whsec_…`): answered only when it is made (the first time, or with rotateSecret). Keep it.' }),
    secretHint: z.string().meta({ description: 'The first characters of the secret, to tell secrets apart.' }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Webhook' });

export type Webhook = z.output<typeof webhookResponse>;
