import { type EntityManager, sql } from '@mikro-orm/postgresql';
import type { DomainScope } from '../../kernel/access.ts';
import { fieldsOf, preparedRead } from '../../db/read-model.ts';
import { itemsOfDomainsLoader } from '../domains/domain.reads.ts';
import { PlaceholderEntity, type PlaceholderRecord } from './placeholder.entity.ts';

/** The placeholders of each domain asked for in one tick (see domain.reads.ts). */
export const placeholdersOfDomainLoader = itemsOfDomainsLoader<PlaceholderRecord>((em) =>
  em
    .qb(PlaceholderEntity, 'p')
    .select(fieldsOf(em, PlaceholderEntity, 'p'))
    .where({ 'p.domain': sql.ref('d.id') }),
);

const placeholderByName = preparedRead<DomainScope & { name: string }, PlaceholderRecord>((em, { clientId, domainId, name }) =>
  em
    .qb(PlaceholderEntity, 'p')
    .select(fieldsOf(em, PlaceholderEntity, 'p'))
    .join('p.domain', 'd')
    .where({ 'd.id': domainId, 'd.client': clientId, 'p.name': name }),
);

/**
 * The placeholder called `name` of the domain, if the domain is the client's: one statement, the
 * domain and client checked in it too. `undefined` tells nothing about which is missing.
 */
export async function placeholderRecord(em: EntityManager, scope: DomainScope, name: string): Promise<PlaceholderRecord | undefined> {
  const [row] = await placeholderByName(em, { clientId: scope.clientId, domainId: scope.domainId, name });
  return row;
}
