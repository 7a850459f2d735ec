import DataLoader from 'dataloader';
import type { Owned } from '../../kernel/access.ts';
import { perRequest, type RequestContext } from '../../kernel/context.ts';
import { columnsOf, groupByOwner, selectByIds } from '../../db/read-model.ts';
import { DomainEntity, type DomainRecord } from './domain.entity.ts';

/** A domain with the client it belongs to. */
export type OwnedDomainRecord = DomainRecord & { clientId: string };

/** A domain and its client, cached for the request (domains change rarely mid-request; writes clear it). */
export const domainLoader = perRequest(
  ({ em }) =>
    new DataLoader<string, OwnedDomainRecord | null>(async (ids) => {
      const rows = await selectByIds<OwnedDomainRecord>(
        em,
        `select ${columnsOf(em, DomainEntity, 'd')}, d.client_id as "clientId" from domain d where d.id = any(?::uuid[])`,
        ids,
      );
      const byId = new Map(rows.map((row) => [row.id, row]));
      return ids.map((id) => byId.get(id) ?? null);
    }),
);

/** The domains of each client asked for in one tick, in one statement that also tells whether the client exists. */
export const domainsOfClientLoader = perRequest(
  ({ em }) =>
    new DataLoader<string, Owned<DomainRecord> | null>(
      async (ids) =>
        groupByOwner<DomainRecord>(
          ids,
          await selectByIds(
            em,
            `select c.id as "ownerId", c.id as "ownerOf", ${columnsOf(em, DomainEntity, 'd')} from client c ` +
              `left join domain d on d.client_id = c.id where c.id = any(?::uuid[]) order by d.id`,
            ids,
          ),
        ),
      { cache: false },
    ),
);

/**
 * Items of each domain asked for in one tick — `select … from domain d left join <table> …` — in
 * one statement per kind, which also tells whether each domain exists and whose it is. Lists are
 * not cached across ticks, so a write is always followed by fresh reads.
 */
export const itemsOfDomainsLoader = <T extends { id: string | null }>(table: string, alias: string, columns: (em: RequestContextEm) => string) =>
  perRequest(
    ({ em }) =>
      new DataLoader<string, Owned<T> | null>(
        async (ids) =>
          groupByOwner<T>(
            ids,
            await selectByIds(
              em,
              `select d.id as "ownerId", d.client_id as "ownerOf", ${columns(em)} from domain d ` +
                `left join ${table} ${alias} on ${alias}.domain_id = d.id where d.id = any(?::uuid[]) order by ${alias}.id`,
              ids,
            ),
          ),
        { cache: false },
      ),
  );

type RequestContextEm = RequestContext['em'];
