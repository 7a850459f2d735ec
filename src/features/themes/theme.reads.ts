import { type EntityManager, sql } from '@mikro-orm/postgresql';
import type { DomainScope } from '../../kernel/access.ts';
import { fieldsOf, preparedRead } from '../../db/read-model.ts';
import { itemsOfDomainsLoader } from '../domains/domain.reads.ts';
import { ThemeEntity, type ThemeRecord } from './theme.entity.ts';

/** The themes of each domain asked for in one tick (see domain.reads.ts). */
export const themesOfDomainLoader = itemsOfDomainsLoader<ThemeRecord>((em) =>
  em
    .qb(ThemeEntity, 't')
    .select(fieldsOf(em, ThemeEntity, 't'))
    .where({ 't.domain': sql.ref('d.id') }),
);

const themeById = preparedRead<DomainScope & { themeId: string }, ThemeRecord>((em, { clientId, domainId, themeId }) =>
  em
    .qb(ThemeEntity, 't')
    .select(fieldsOf(em, ThemeEntity, 't'))
    .join('t.domain', 'd')
    .where({ 't.id': themeId, 'd.id': domainId, 'd.client': clientId }),
  { rowsAsJson: true },
);

/**
 * The theme `themeId` (checked to be a UUID) of the domain, if the domain is the client's: one
 * statement, the domain and client checked in it too. `undefined` tells nothing about which is missing.
 */
export async function themeRecord(em: EntityManager, scope: DomainScope & { themeId: string }): Promise<ThemeRecord | undefined> {
  const [row] = await themeById(em, { clientId: scope.clientId, domainId: scope.domainId, themeId: scope.themeId });
  return row;
}
