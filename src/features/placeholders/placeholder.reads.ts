import { columnsOf } from '../../db/read-model.ts';
import { itemsOfDomainsLoader } from '../domains/domain.reads.ts';
import { PlaceholderEntity, type PlaceholderRecord } from './placeholder.entity.ts';

/** The placeholders of each domain asked for in one tick (see domain.reads.ts). */
export const placeholdersOfDomainLoader = itemsOfDomainsLoader<PlaceholderRecord>('placeholder', 'p', (em) => columnsOf(em, PlaceholderEntity, 'p'));
