import { type EntityManager, sql } from '@mikro-orm/postgresql';
import type { DomainScope } from '../../kernel/access.ts';
import { anyOf, fieldsOf, jsonArrayOf, preparedRead, uuidList } from '../../db/read-model.ts';
import { recordColumns, tableOf } from '../../db/set-writes.ts';
import { itemsOfDomainsLoader } from '../domains/domain.reads.ts';
import { EmbeddingAssetEntity, type EmbeddingAssetRecord, EmbeddingEntity, type EmbeddingRecord } from './embedding.entity.ts';

export type EmbeddingWithAssets = EmbeddingRecord & { assets: EmbeddingAssetRecord[] };

/** The fields of the embeddings `e` with their assets, in order, as a JSON array of plain records under `assets`. */
export function embeddingsWithAssets(em: EntityManager) {
  const assets = em
    .qb(EmbeddingAssetEntity, 'a')
    .select(fieldsOf(em, EmbeddingAssetEntity, 'a'))
    .where({ 'a.embedding': sql.ref('e.id') });
  return em.qb(EmbeddingEntity, 'e').select([...fieldsOf(em, EmbeddingEntity, 'e'), jsonArrayOf(assets, 'position').as('assets')]);
}

/** The embeddings of each domain asked for in one tick, with their assets (see domain.reads.ts). */
export const embeddingsOfDomainLoader = itemsOfDomainsLoader<EmbeddingWithAssets>((em) =>
  embeddingsWithAssets(em).where({ 'e.domain': sql.ref('d.id') }),
);

const embeddingById = preparedRead<DomainScope & { embeddingId: string }, EmbeddingWithAssets>((em, { clientId, domainId, embeddingId }) =>
  embeddingsWithAssets(em)
    .join('e.domain', 'd')
    .where({ 'e.id': embeddingId, 'd.id': domainId, 'd.client': clientId }),
  { rowsAsJson: true },
);

/**
 * The embedding `embeddingId` (checked to be a UUID) of the domain with its assets, if the domain
 * is the client's: one statement, the domain and client checked in it too. `undefined` tells
 * nothing about which is missing.
 */
export async function embeddingRecord(
  em: EntityManager,
  scope: DomainScope & { embeddingId: string },
): Promise<EmbeddingWithAssets | undefined> {
  const [row] = await embeddingById(em, { clientId: scope.clientId, domainId: scope.domainId, embeddingId: scope.embeddingId });
  return row;
}

const embeddingsByIds = preparedRead<{ domainId: string; ids: string }, EmbeddingWithAssets>((em, { domainId, ids }) =>
  embeddingsWithAssets(em).where({ 'e.domain': domainId, 'e.id': anyOf(ids) }),
);

/** The embeddings of `ids` that belong to the domain, with their assets, in one statement (the others: absent). */
export function embeddingsOfIds(em: EntityManager, domainId: string, ids: readonly string[]): Promise<EmbeddingWithAssets[]> {
  return embeddingsByIds(em, { domainId, ids: uuidList(em, ids) });
}

/**
 * `select to_json("changed") as "embedding", <its assets> as "assets" from "changed"`: the
 * embedding a write of the same statement returned as the common table expression "changed"
 * (`returning ${embeddingReturning(em)}`), with its assets, which that statement did not change,
 * as plain records.
 */
export const changedEmbeddingWithAssets = (em: EntityManager): string =>
  `select to_json("changed") as "embedding", coalesce((select json_agg(x order by x."position") from (` +
  `select ${recordColumns(em, EmbeddingAssetEntity, 'a')} from ${tableOf(em, EmbeddingAssetEntity)} as "a" where "a"."embedding_id" = "changed"."id"` +
  `) as x), '[]'::json) as "assets" from "changed"`;

/** `"id" as "id", "script_html_code" as "scriptHtmlCode", …`: a written embedding as the read model names it. */
export const embeddingReturning = (em: EntityManager): string => recordColumns(em, EmbeddingEntity);
