import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { timestamps } from '../../db/timestamps.ts';

export const ClientEntity = defineEntity({
  name: 'Client',
  tableName: 'client',
  properties: {
    id: p.uuid().primary(),
    username: p.text().unique(),
    emailAddress: p.text(),
    firstName: p.text(),
    lastName: p.text(),
    company: p.text(),
    active: p.boolean(),
    ...timestamps(),
  },
});

export type ClientRow = InferEntity<typeof ClientEntity>;
