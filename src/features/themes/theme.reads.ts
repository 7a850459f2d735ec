import { columnsOf } from '../../db/read-model.ts';
import { itemsOfDomainsLoader } from '../domains/domain.reads.ts';
import { ThemeEntity, type ThemeRecord } from './theme.entity.ts';

/** The themes of each domain asked for in one tick (see domain.reads.ts). */
export const themesOfDomainLoader = itemsOfDomainsLoader<ThemeRecord>('theme', 't', (em) => columnsOf(em, ThemeEntity, 't'));
