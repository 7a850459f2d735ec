import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { timestamps } from '../../db/timestamps.ts';
import { ClientEntity } from '../clients/client.entity.ts';

/**
 * An API key, stored as the SHA-256 of the key (the key itself is shown once, when created).
 * `client` null: an administrator key (the one the service generates at first start).
 */
export const ApiKeyEntity = defineEntity({
  name: 'ApiKey',
  tableName: 'api_key',
  properties: {
    id: p.uuid().primary(),
    client: () => p.manyToOne(ClientEntity).nullable().deleteRule('cascade').index(),
    name: p.text(),
    /** The key's first characters, for telling keys apart in lists and finding one quickly. */
    prefix: p.text().index(),
    hash: p.text(),
    /**
     * The key that created this one, when a client key did (null: the administrator or the
     * command line). A client key may revoke only the keys it created, and itself.
     */
    createdBy: p.uuid().nullable(),
    ...timestamps(),
  },
});

export type ApiKeyRow = InferEntity<typeof ApiKeyEntity>;
