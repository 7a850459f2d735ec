import { type EntityManager, sql } from '@mikro-orm/postgresql';
import type { DomainScope } from '../../kernel/access.ts';
import { fieldsOf, preparedRead } from '../../db/read-model.ts';
import { itemsOfDomainsLoader } from '../domains/domain.reads.ts';
import { LocaleEntity, type LocaleRecord } from './locale.entity.ts';

/** The locales of each domain asked for in one tick (see domain.reads.ts). */
export const localesOfDomainLoader = itemsOfDomainsLoader<LocaleRecord>((em) =>
  em
    .qb(LocaleEntity, 'l')
    .select(fieldsOf(em, LocaleEntity, 'l'))
    .where({ 'l.domain': sql.ref('d.id') }),
);

const localeByName = preparedRead<DomainScope & { name: string }, LocaleRecord>((em, { clientId, domainId, name }) =>
  em
    .qb(LocaleEntity, 'l')
    .select(fieldsOf(em, LocaleEntity, 'l'))
    .join('l.domain', 'd')
    .where({ 'd.id': domainId, 'd.client': clientId, 'l.name': name }),
);

/**
 * The locale called `name` of the domain, if the domain is the client's: one statement, the
 * domain and client checked in it too. `undefined` tells nothing about which is missing.
 */
export async function localeRecord(em: EntityManager, scope: DomainScope, name: string): Promise<LocaleRecord | undefined> {
  const [row] = await localeByName(em, { clientId: scope.clientId, domainId: scope.domainId, name });
  return row;
}
