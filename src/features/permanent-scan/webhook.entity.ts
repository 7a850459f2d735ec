import { defineEntity, p } from '@mikro-orm/core';
import { timestamps } from '../../db/timestamps.ts';
import { ClientEntity } from '../clients/client.entity.ts';

/** Where a client wants to hear about what the permanent scan finds, and the secret its deliveries are signed with. */
export const WebhookEntity = defineEntity({
  name: 'Webhook',
  tableName: 'webhook',
  properties: {
    client: () => p.manyToOne(ClientEntity).primary().deleteRule('cascade'),
    url: p.text(),
    /** `whsec_` and the base64 of 32 random bytes (Standard Webhooks). */
    secret: p.text(),
    ...timestamps(),
  },
});
