import type { EntityManager } from '@mikro-orm/postgresql';
import DataLoader from 'dataloader';
import { type DomainRecord, DomainEntity } from '../features/domains/domain.entity.ts';
import {
  EmbeddingAssetEntity,
  type EmbeddingAssetRecord,
  EmbeddingEntity,
  type EmbeddingRecord,
} from '../features/embeddings/embedding.entity.ts';
import { PlaceholderEntity, type PlaceholderRecord } from '../features/placeholders/placeholder.entity.ts';
import { ThemeEntity, type ThemeRecord } from '../features/themes/theme.entity.ts';
import { columnsOf, groupByOwner, jsonObjectOf, type Owned } from './read-model.ts';

/**
 * Request-scoped batched reads (see read-model.ts): the lists of all parents asked for in one
 * tick — a GraphQL query of a client's domains with their placeholders, embeddings and themes —
 * load in one query per kind. Each list query starts from the parent (a left join), so it also
 * tells whether the parent exists and whose it is: a REST list read is one statement too.
 * Lists are not cached across ticks, so a write is always followed by fresh reads.
 */
export type EmbeddingWithAssets = EmbeddingRecord & { assets: EmbeddingAssetRecord[] };

export type Loaders = {
  /** A domain and the client it belongs to; cached for the request (domains change rarely mid-request; writes clear it). */
  domain: DataLoader<string, (DomainRecord & { clientId: string }) | null>;
  /** `ownerOf`: the client id (a client's domains) or the domain's client id (a domain's lists). */
  domainsOfClient: DataLoader<string, Owned<DomainRecord> | null>;
  placeholdersOfDomain: DataLoader<string, Owned<PlaceholderRecord> | null>;
  embeddingsOfDomain: DataLoader<string, Owned<EmbeddingWithAssets> | null>;
  themesOfDomain: DataLoader<string, Owned<ThemeRecord> | null>;
};

/** The assets of embedding `e`, in order, as a JSON array of plain records. */
export const assetsJson = (em: EntityManager, embeddingAlias: string) =>
  `coalesce((select json_agg(${jsonObjectOf(em, EmbeddingAssetEntity, 'a')} order by a.position) ` +
  `from embedding_asset a where a.embedding_id = ${embeddingAlias}.id), '[]'::json)`;

export function createLoaders(em: EntityManager): Loaders {
  // Keys are ids checked to be UUIDs before they get here; they go in as one array literal.
  const select = <T>(sql: string, keys: readonly string[]) => em.execute<T[]>(sql, [`{${keys.join(',')}}`]);
  /** Items of each domain: `select <columns> from domain d left join <table> x …`. */
  const listOfDomains = <T extends { id: string | null }>(table: string, columns: string, alias: string) =>
    new DataLoader<string, Owned<T> | null>(
      async (ids) =>
        groupByOwner<T>(
          ids,
          await select(
            `select d.id as "ownerId", d.client_id as "ownerOf", ${columns} from domain d ` +
              `left join ${table} ${alias} on ${alias}.domain_id = d.id where d.id = any(?::uuid[]) order by ${alias}.id`,
            ids,
          ),
        ),
      { cache: false },
    );

  return {
    domain: new DataLoader(async (ids) => {
      const rows = await select<DomainRecord & { clientId: string }>(
        `select ${columnsOf(em, DomainEntity, 'd')}, d.client_id as "clientId" from domain d where d.id = any(?::uuid[])`,
        ids,
      );
      const byId = new Map(rows.map((row) => [row.id, row]));
      return ids.map((id) => byId.get(id) ?? null);
    }),
    domainsOfClient: new DataLoader(
      async (ids) =>
        groupByOwner<DomainRecord>(
          ids,
          await select(
            `select c.id as "ownerId", c.id as "ownerOf", ${columnsOf(em, DomainEntity, 'd')} from client c ` +
              `left join domain d on d.client_id = c.id where c.id = any(?::uuid[]) order by d.id`,
            ids,
          ),
        ),
      { cache: false },
    ),
    placeholdersOfDomain: listOfDomains<PlaceholderRecord>('placeholder', columnsOf(em, PlaceholderEntity, 'p'), 'p'),
    themesOfDomain: listOfDomains<ThemeRecord>('theme', columnsOf(em, ThemeEntity, 't'), 't'),
    embeddingsOfDomain: listOfDomains<EmbeddingWithAssets>(
      'embedding',
      `${columnsOf(em, EmbeddingEntity, 'e')}, ${assetsJson(em, 'e')} as "assets"`,
      'e',
    ),
  };
}
