import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { timestamps } from '../../db/timestamps.ts';
import { ClientEntity } from '../clients/client.entity.ts';

export const DomainEntity = defineEntity({
  name: 'Domain',
  tableName: 'domain',
  properties: {
    id: p.uuid().primary(),
    client: () => p.manyToOne(ClientEntity).deleteRule('cascade').index(),
    scheme: p.enum(['http', 'https'] as const),
    host: p.text(),
    port: p.integer().nullable(),
    path: p.text(),
    country: p.text().nullable(),
    locales: p.json<string[]>(),
    consentStorage: p.enum(['cookie', 'localStorage', 'sessionStorage'] as const),
    ...timestamps(),
  },
});

export type DomainRow = InferEntity<typeof DomainEntity>;
/** A domain as the read paths load it: its stored fields, without relations. */
export type DomainRecord = Omit<DomainRow, 'client' | 'createdAt' | 'updatedAt'>;
