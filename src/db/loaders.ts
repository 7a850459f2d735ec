import type { EntityManager } from '@mikro-orm/postgresql';
import DataLoader from 'dataloader';
import { DomainEntity, type DomainRow } from '../features/domains/domain.entity.ts';
import { EmbeddingEntity, type EmbeddingRow } from '../features/embeddings/embedding.entity.ts';
import { PlaceholderEntity, type PlaceholderRow } from '../features/placeholders/placeholder.entity.ts';
import { ThemeEntity, type ThemeRow } from '../features/themes/theme.entity.ts';

/**
 * Request-scoped batching: the lists of many parents asked for in one tick (a GraphQL query of a
 * client's domains with their placeholders, embeddings and themes) load in one query per kind
 * instead of one per parent. No caching across ticks, so a write is always followed by fresh reads.
 */
export type Loaders = {
  domainsOfClient: DataLoader<string, DomainRow[]>;
  placeholdersOfDomain: DataLoader<string, PlaceholderRow[]>;
  embeddingsOfDomain: DataLoader<string, EmbeddingRow[]>;
  themesOfDomain: DataLoader<string, ThemeRow[]>;
};

/** Rows grouped by parent id, in the order the keys came, each group in creation order. */
const byParent = <T>(keys: readonly string[], rows: T[], parentOf: (row: T) => string): T[][] => {
  const groups = Map.groupBy(rows, parentOf);
  return keys.map((key) => groups.get(key) ?? []);
};

export function createLoaders(em: EntityManager): Loaders {
  const loader = <T>(load: (keys: readonly string[]) => Promise<T[][]>) => new DataLoader<string, T[]>(load, { cache: false });
  return {
    domainsOfClient: loader(async (ids) =>
      byParent(ids, await em.find(DomainEntity, { client: { $in: [...ids] } }, { orderBy: { id: 'asc' } }), (row) => row.client.id),
    ),
    placeholdersOfDomain: loader(async (ids) =>
      byParent(ids, await em.find(PlaceholderEntity, { domain: { $in: [...ids] } }, { orderBy: { id: 'asc' } }), (row) => row.domain.id),
    ),
    embeddingsOfDomain: loader(async (ids) =>
      byParent(
        ids,
        await em.find(EmbeddingEntity, { domain: { $in: [...ids] } }, { populate: ['assets'], orderBy: { id: 'asc' } }),
        (row) => row.domain.id,
      ),
    ),
    themesOfDomain: loader(async (ids) =>
      byParent(ids, await em.find(ThemeEntity, { domain: { $in: [...ids] } }, { orderBy: { id: 'asc' } }), (row) => row.domain.id),
    ),
  };
}
