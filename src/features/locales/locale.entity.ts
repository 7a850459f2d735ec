import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { timestamps } from '../../db/timestamps.ts';
import { DomainEntity } from '../domains/domain.entity.ts';
import type { LocaleTexts, PurposeTexts } from './locale.contract.ts';

/** The texts a row holds: all of them once written; any may be missing (locale.view.ts fills them in). */
export type StoredTexts = Partial<Omit<LocaleTexts, 'purposeNames' | 'purposeDescriptions'>> & {
  purposeNames?: Partial<PurposeTexts>;
  purposeDescriptions?: Partial<PurposeTexts>;
};

/**
 * A locale of a domain. Its sixty-odd texts are one JSON column, `texts`, beside the columns the
 * service looks at (`name`, `active`): the texts are only ever read and written as a whole
 * locale, never searched, sorted or joined on, and the contract (locale.contract.ts) checks them
 * on the way in. One column keeps the table, its migration and every read short, and a text
 * added later needs no migration: a stored locale without it shows the default text of its
 * language (locale.view.ts).
 */
export const LocaleEntity = defineEntity({
  name: 'Locale',
  tableName: 'locale',
  uniques: [{ properties: ['domain', 'name'] }],
  properties: {
    id: p.uuid().primary(),
    domain: () => p.manyToOne(DomainEntity).deleteRule('cascade'),
    name: p.text(),
    active: p.boolean(),
    /** What the locale says; a text missing here is its language's default (locale.view.ts). */
    texts: p.json<StoredTexts>(),
    ...timestamps(),
  },
});

export type LocaleRow = InferEntity<typeof LocaleEntity>;
export type LocaleRecord = Omit<LocaleRow, 'domain' | 'createdAt' | 'updatedAt'>;
