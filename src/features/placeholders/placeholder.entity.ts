import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { timestamps } from '../../db/timestamps.ts';
import { DomainEntity } from '../domains/domain.entity.ts';

export const PlaceholderEntity = defineEntity({
  name: 'Placeholder',
  tableName: 'placeholder',
  uniques: [{ properties: ['domain', 'name'] }],
  properties: {
    id: p.uuid().primary(),
    domain: () => p.manyToOne(DomainEntity).deleteRule('cascade'),
    name: p.text(),
    value: p.text(),
    ...timestamps(),
  },
});

export type PlaceholderRow = InferEntity<typeof PlaceholderEntity>;
export type PlaceholderRecord = Omit<PlaceholderRow, 'domain' | 'createdAt' | 'updatedAt'>;
