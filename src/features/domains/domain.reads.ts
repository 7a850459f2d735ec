import DataLoader from 'dataloader';
import { type EntityManager, type RawQueryFragment, sql } from '@mikro-orm/postgresql';
import type { Owned } from '../../kernel/access.ts';
import { perRequest, type RequestContext } from '../../kernel/context.ts';
import { anyOf, fieldsOf, groupByOwner, ownersWithItems, preparedRead, uuidList } from '../../db/read-model.ts';
import { ClientEntity } from '../clients/client.entity.ts';
import { DomainEntity, type DomainRecord } from './domain.entity.ts';

/** A domain with the client it belongs to. */
export type OwnedDomainRecord = DomainRecord & { clientId: string };

/** Items of an owner, as `ownersWithItems` reads them. */
type OwnedRow<T> = T & { ownerId: string; ownerOf: string };

const domainsById = preparedRead<{ ids: string }, OwnedDomainRecord>((em, { ids }) =>
  em
    .qb(DomainEntity, 'd')
    .select([...fieldsOf(em, DomainEntity, 'd'), 'd.client as clientId'])
    .where({ 'd.id': anyOf(ids) }),
);

/** A domain and its client, cached for the request (domains change rarely mid-request; writes clear it). */
export const domainLoader = perRequest(
  ({ em }) =>
    new DataLoader<string, OwnedDomainRecord | null>(async (ids) => {
      const rows = await domainsById(em, { ids: uuidList(em, ids) });
      const byId = new Map(rows.map((row) => [row.id, row]));
      return ids.map((id) => byId.get(id) ?? null);
    }),
);

const ownersOfDomains = preparedRead<{ ids: string }, { id: string; clientId: string }>((em, { ids }) =>
  em.qb(DomainEntity, 'd').select(['d.id', 'd.client as clientId']).where({ 'd.id': anyOf(ids) }),
);

/** Whose each domain is, for the operations that need no more of it (cached for the request; writes clear it). */
export const domainOwnerLoader = perRequest(
  ({ em }) =>
    new DataLoader<string, string | null>(async (ids) => {
      const rows = await ownersOfDomains(em, { ids: uuidList(em, ids) });
      const byId = new Map(rows.map((row) => [row.id, row.clientId]));
      return ids.map((id) => byId.get(id) ?? null);
    }),
);

/** Forgets what this request has read of a domain, after a write to it. */
export function forgetDomain(ctx: RequestContext, domainId: string): void {
  domainLoader(ctx).clear(domainId);
  domainOwnerLoader(ctx).clear(domainId);
}

const domainsOfClients = preparedRead<{ ids: string }, OwnedRow<DomainRecord>>((em, { ids }) =>
  ownersWithItems(
    em,
    ClientEntity,
    'c',
    'c.id',
    em
      .qb(DomainEntity, 'd')
      .select(fieldsOf(em, DomainEntity, 'd'))
      .where({ 'd.client': sql.ref('c.id') }),
    ids,
  ),
);

/** The domains of each client asked for in one tick, in one statement that also tells whether the client exists. */
export const domainsOfClientLoader = perRequest(
  ({ em }) =>
    new DataLoader<string, Owned<DomainRecord> | null>(
      async (ids) => groupByOwner<DomainRecord>(ids, await domainsOfClients(em, { ids: uuidList(em, ids) })),
      { cache: false },
    ),
);

/**
 * Items of each domain asked for in one tick — the domains `d`, each left-joined to its items —
 * in one statement per kind, which also tells whether each domain exists and whose it is. `items`
 * selects the fields of one domain's items, correlated to `d` (`{ 'p.domain': sql.ref('d.id') }`).
 * Lists are not cached across ticks, so a write is always followed by fresh reads.
 */
export const itemsOfDomainsLoader = <T extends { id: string | null }>(items: (em: EntityManager) => { toRaw(): RawQueryFragment }) => {
  const read = preparedRead<{ ids: string }, OwnedRow<T>>((em, { ids }) => ownersWithItems(em, DomainEntity, 'd', 'd.client', items(em), ids));
  return perRequest(
    ({ em }) =>
      new DataLoader<string, Owned<T> | null>(async (ids) => groupByOwner<T>(ids, await read(em, { ids: uuidList(em, ids) })), {
        cache: false,
      }),
  );
};
