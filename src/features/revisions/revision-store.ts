import type { EntityManager } from '@mikro-orm/postgresql';
import { executePrepared, executeWithParameters } from '../../db/prepared-statements.ts';
import { applyBucketDelta, type BucketDelta, type Manifest, type ManifestEmbedding, type Part } from '../banner/configuration-manifest.ts';
import type { PublishedConfiguration } from '../banner/published-configuration.ts';
import type { PublishedTcf } from '../tcf-vendors/published-tcf.ts';

/**
 * How revisions are stored (Migration20261123230000_revisions): a revision is a manifest of part
 * hashes (banner/configuration-manifest.ts); each part — the domain's settings, one embedding with
 * its assets, the placeholders, the theme, one locale — is stored once per domain and content. A
 * write that changes one embedding adds that embedding's part and a manifest, however large the
 * rest is. A large domain's embedding bucket is stored as its change against the bucket it was made
 * from (`BucketDelta`, the `base` column), a whole copy after every BUCKET_DELTAS changes: see
 * `bucketsOf`.
 */

/** Changes stored one after another on a bucket before it is stored whole again (a read follows at most so many). */
export const BUCKET_DELTAS = 15;

/** A revision without its configuration. */
export type RevisionMeta = {
  number: number;
  /** The content hash (`contentRevision` of the banner; what consent records name). */
  hash: string;
  /** The hash of what is legally relevant. */
  legalHash: string;
  /** Whether it changed what is legally relevant (the first revision does). */
  legal: boolean;
  createdAt: string;
  /** The API key whose write made it (never the key itself); null for a write no key made. */
  key: { id: string | null; name: string } | null;
  /** The revision it restored, if a restore made it. */
  restoredFrom: number | null;
};

/** The buckets a manifest names (none while its embeddings are inline). */
export const bucketHashesOf = (manifest: Manifest): string[] =>
  'inline' in manifest.embeddings ? [] : manifest.embeddings.buckets.flatMap((bucket) => (bucket ? [bucket[0]] : []));

/** Every part hash a manifest names itself (a bucketed one: its buckets', not the embeddings' inside them). */
export const hashesOf = (manifest: Manifest): string[] => [
  manifest.domain,
  ...('inline' in manifest.embeddings
    ? manifest.embeddings.inline.map(([, part]) => part)
    : manifest.embeddings.buckets.flatMap((bucket) => (bucket ? [bucket[0]] : []))),
  manifest.placeholders,
  ...(manifest.theme === null ? [] : [manifest.theme]),
  ...manifest.locales,
  ...(manifest.tcf ? [manifest.tcf[0]] : []),
];

/**
 * Parts by hash, as stored (JSON text parsed), in one prepared statement. Each hash is looked up by
 * the part's key on its own: a plan that reads the domain's parts and filters them — what
 * PostgreSQL keeps for the prepared statement when it first plans it for a domain of few parts —
 * reads thousands of parts for two.
 */
export async function partsByHash(em: EntityManager, domainId: string, hashes: readonly string[]): Promise<Map<string, unknown>> {
  if (hashes.length === 0) return new Map();
  const rows = await executePrepared<{ hash: string; body: unknown }>(
    em,
    `select "hash", "body" from (
       select h."hash", (select p."body" from "configuration_part" p where p."domain_id" = ? and p."hash" = h."hash") as "body"
       from unnest(?::text[]) as h("hash")
     ) as "found" where "body" is not null`,
    [domainId, `{${[...new Set(hashes)].join(',')}}`],
  );
  return new Map(rows.map((part) => [part.hash, typeof part.body === 'string' ? JSON.parse(part.body) : part.body]));
}

/** A bucket as stored: its entries, and the changes it is stored as since its last whole copy (0: stored whole). */
export type StoredBucket = { entries: readonly ManifestEmbedding[]; depth: number };

/**
 * Buckets by hash, each made whole from its chain — the bucket's change, the change before, down
 * to a whole copy — read in one statement that follows the `base` column.
 */
export async function bucketsOf(em: EntityManager, domainId: string, hashes: readonly string[]): Promise<Map<string, StoredBucket>> {
  if (hashes.length === 0) return new Map();
  const rows = await executePrepared<{ hash: string; base: string | null; body: ManifestEmbedding[] | BucketDelta | string }>(
    em,
    `with recursive "chain" ("hash", "base", "body", "steps") as (
       select p."hash", p."base", p."body", 0 from unnest(?::text[]) as h("hash"),
         lateral (select p."hash", p."base", p."body" from "configuration_part" p where p."domain_id" = ? and p."hash" = h."hash") as p
       union all
       select p."hash", p."base", p."body", c."steps" + 1 from "chain" c
         join "configuration_part" p on p."domain_id" = ? and p."hash" = c."base"
         where c."steps" < 1000
     )
     select "hash", "base", "body" from "chain"`,
    [`{${[...new Set(hashes)].join(',')}}`, domainId, domainId],
  );
  const stored = new Map(rows.map((row) => [row.hash, { base: row.base, body: typeof row.body === 'string' ? JSON.parse(row.body) : row.body }]));
  const whole = new Map<string, StoredBucket>();
  const resolve = (hash: string): StoredBucket => {
    const known = whole.get(hash);
    if (known) return known;
    const part = stored.get(hash);
    if (!part) throw new Error(`configuration part ${hash} of domain ${domainId} is missing`);
    let bucket: StoredBucket;
    if (part.base === null) bucket = { entries: part.body as ManifestEmbedding[], depth: 0 };
    else {
      const base = resolve(part.base);
      bucket = { entries: applyBucketDelta(base.entries, part.body as BucketDelta), depth: base.depth + 1 };
    }
    whole.set(hash, bucket);
    return bucket;
  };
  return new Map(hashes.map((hash) => [hash, resolve(hash)]));
}

type RevisionRow = {
  number: number;
  hash: string;
  legalHash: string;
  legal: boolean;
  createdAt: Date | string;
  keyId: string | null;
  keyName: string | null;
  restoredFrom: number | null;
  manifest: Manifest | string;
};

const REVISION_COLUMNS = `"number", "hash", "legal_hash" as "legalHash", "legal", "created_at" as "createdAt", "key_id" as "keyId", "key_name" as "keyName", "restored_from" as "restoredFrom"`;

const manifestOf = (row: { manifest: Manifest | string }): Manifest =>
  typeof row.manifest === 'string' ? (JSON.parse(row.manifest) as Manifest) : row.manifest;

const metaOf = (row: RevisionRow): RevisionMeta => ({
  number: row.number,
  hash: row.hash,
  legalHash: row.legalHash,
  legal: row.legal,
  createdAt: new Date(row.createdAt).toISOString(),
  key: row.keyName === null ? null : { id: row.keyId, name: row.keyName },
  restoredFrom: row.restoredFrom,
});

/** The domain's newest revision's number and manifest, or null if it has none yet. */
export async function newestManifest(em: EntityManager, domainId: string): Promise<{ number: number; manifest: Manifest } | null> {
  const [row] = await em.execute<{ number: number; manifest: Manifest | string }[]>(
    `select "number", "manifest" from "configuration_revision" where "domain_id" = ? order by "number" desc limit 1`,
    [domainId],
  );
  return row ? { number: row.number, manifest: manifestOf(row) } : null;
}

/** What a round read before it stores: the due rows it read (ids) and the number of the revision it built on (null: none). */
export type RoundClaim = { due: readonly number[]; base: number | null };

/**
 * The parts as two parameters: their hashes as a text array, and their bodies as one JSON array
 * with each part's text put in as it is (it is JSON already; a part of a large domain, a bucket,
 * is some 10 KB). PostgreSQL parses that array once to check it and once to split it, and
 * `json_array_elements` gives each element's text as it was sent, so the stored body is the part's
 * text. (Pairs of hash and body in one array were parsed twice more: `->` and `->>` on a `json`
 * element read it again from its start.) The bases (for a bucket's change; NULL for a whole part)
 * go as a third array.
 */
const partsParameters = (parts: readonly Part[]): [hashes: string, bases: string, bodies: string] => [
  `{${parts.map((part) => part.hash).join(',')}}`,
  `{${parts.map((part) => part.base ?? 'NULL').join(',')}}`,
  `[${parts.map((part) => part.text).join(',')}]`,
];

/**
 * Keeps the configuration `manifest` describes as the domain's newest revision, unless it is the
 * newest already (identical content is one revision), in one statement that also deletes the
 * due rows the round read (`claim`): the parts given (those the newest revision lacks), then the
 * revision numbered after the newest. A round holds no lock between its read and this statement,
 * so the number is chosen by `revision_round_next` (Migration20261126190000_revision_round), which
 * fails the statement (SQLSTATE 40001, and nothing is kept) when another round came between:
 * a due row read is gone, or the newest revision is no longer the one built on. Two rounds that
 * store at once collide on the revision's key (23505) instead. When the content is the newest's
 * already, the due rows are deleted without the check: what they changed is published. Returns
 * the revision made, or null.
 *
 * Its commit waits for the disk, like every commit: once another session sees the revision (the
 * banner builds from it, a visitor is shown it, a consent record names its hash), a crash cannot
 * take it back. (With `synchronous_commit` off, a crash lost revisions the banner had served,
 * and the due rows it brought back could be recorded into another revision after a later write.)
 */
export async function storeRevision(
  em: EntityManager,
  domainId: string,
  revision: { manifest: Manifest; parts: Part[]; hash: string; legalHash: string },
  made: { key: { id: string | null; name: string } | null; restoredFrom?: number | null },
  claim: RoundClaim,
): Promise<RevisionMeta | null> {
  const rows = await executeWithParameters<RevisionRow>(
    em,
    `with "latest" as (
       select "number", "hash", "legal_hash" from "configuration_revision" where "domain_id" = ? order by "number" desc limit 1
     ), "taken" as (
       delete from "revision_due" where "id" = any(?::bigint[]) returning "id"
     ), "changed" as (
       select not exists (select 1 from "latest" where "hash" = ?) as "yes"
     ), "parts" as (
       insert into "configuration_part" ("domain_id", "hash", "base", "body")
       select ?, (?::text[])[p."ord"::int], (?::text[])[p."ord"::int], p."body" from json_array_elements(?::json) with ordinality as p("body", "ord")
       where (select "yes" from "changed")
       on conflict do nothing
     )
     insert into "configuration_revision" ("domain_id", "number", "hash", "legal_hash", "legal", "manifest", "key_id", "key_name", "restored_from")
     select ?, "revision_round_next"((select count(*) from "taken"), ?, (select "number" from "latest"), ?), ?, ?,
       (select "legal_hash" from "latest") is distinct from ?, ?::json, ?, ?, ?
     where (select "yes" from "changed")
     returning ${REVISION_COLUMNS}, null as "manifest"`,
    [
      domainId,
      `{${claim.due.join(',')}}`,
      revision.hash,
      domainId,
      ...partsParameters(revision.parts),
      domainId,
      claim.due.length,
      claim.base,
      revision.hash,
      revision.legalHash,
      revision.legalHash,
      JSON.stringify(revision.manifest),
      made.key?.id ?? null,
      made.key?.name ?? null,
      made.restoredFrom ?? null,
    ],
  );
  return rows[0] ? metaOf(rows[0]) : null;
}

/** A page of the domain's revisions, newest first, those numbered below `before` (all if null). */
export async function revisionsOf(em: EntityManager, domainId: string, { before, limit }: { before: number | null; limit: number }): Promise<RevisionMeta[]> {
  const rows = await em.execute<RevisionRow[]>(
    `select ${REVISION_COLUMNS}, null as "manifest" from "configuration_revision"
     where "domain_id" = ? and "number" < ? order by "number" desc limit ?`,
    [domainId, before ?? 2_147_483_647, limit],
  );
  return rows.map(metaOf);
}

/** Revisions by number (or by content hash: the newest revision with it; or the newest), with their configurations. */
export async function readRevisions(
  em: EntityManager,
  domainId: string,
  wanted: { numbers?: number[]; hash?: string; newest?: boolean },
): Promise<(RevisionMeta & { configuration: PublishedConfiguration })[]> {
  const rows = wanted.newest
    ? await em.execute<RevisionRow[]>(
        `select ${REVISION_COLUMNS}, "manifest" from "configuration_revision" where "domain_id" = ? order by "number" desc limit 1`,
        [domainId],
      )
    : wanted.hash
    ? await em.execute<RevisionRow[]>(
        `select ${REVISION_COLUMNS}, "manifest" from "configuration_revision" where "domain_id" = ? and "hash" = ? order by "number" desc limit 1`,
        [domainId, wanted.hash],
      )
    : await em.execute<RevisionRow[]>(
        `select ${REVISION_COLUMNS}, "manifest" from "configuration_revision"
         where "domain_id" = ? and "number" in (select value::int from json_array_elements_text(?::json))`,
        [domainId, JSON.stringify(wanted.numbers ?? [])],
      );
  if (rows.length === 0) return [];
  const manifests = rows.map(manifestOf);
  // A bucketed manifest's embeddings are named inside its buckets: a statement reads those first.
  const buckets = await bucketsOf(em, domainId, [...new Set(manifests.flatMap(bucketHashesOf))]);
  const entriesOf = (manifest: Manifest): readonly ManifestEmbedding[] =>
    'inline' in manifest.embeddings
      ? manifest.embeddings.inline
      : manifest.embeddings.buckets.flatMap((bucket) => (bucket ? buckets.get(bucket[0])!.entries : [])).sort(([a], [b]) => (a < b ? -1 : 1));
  const named = manifests.flatMap((manifest) => [
    ...hashesOf(manifest).filter((hash) => !buckets.has(hash)),
    ...entriesOf(manifest).map(([, part]) => part),
  ]);
  const bodies = await partsByHash(em, domainId, named);
  const body = <T>(hash: string): T => {
    if (!bodies.has(hash)) throw new Error(`configuration part ${hash} of domain ${domainId} is missing`);
    return bodies.get(hash) as T;
  };
  return rows.map((row, i) => {
    const manifest = manifests[i]!;
    // In the order readPublishedConfiguration builds it, so the content hash comes out the same.
    const configuration: PublishedConfiguration = {
      clientId: manifest.clientId,
      domain: body(manifest.domain),
      embeddings: entriesOf(manifest).map(([, part]) => body(part)),
      placeholders: body(manifest.placeholders),
      theme: manifest.theme === null ? null : body(manifest.theme),
      locales: manifest.locales.map((h) => body(h)),
      ...(manifest.tcf ? { tcf: body<PublishedTcf>(manifest.tcf[0]) } : {}),
    };
    return { ...metaOf(row), configuration };
  });
}

/** Bytes the domain's revisions take (manifests and parts as stored), for the benchmark and the docs. */
export async function revisionStorageOf(em: EntityManager, domainId: string): Promise<{ revisions: number; parts: number; bytes: number }> {
  const [row] = await em.execute<{ revisions: string; parts: string; bytes: string }[]>(
    `select (select count(*) from "configuration_revision" where "domain_id" = ?) as "revisions",
            (select count(*) from "configuration_part" where "domain_id" = ?) as "parts",
            coalesce((select sum(pg_column_size(r.*)) from "configuration_revision" r where "domain_id" = ?), 0)
              + coalesce((select sum(pg_column_size(p.*)) from "configuration_part" p where "domain_id" = ?), 0) as "bytes"`,
    [domainId, domainId, domainId, domainId],
  );
  return { revisions: Number(row!.revisions), parts: Number(row!.parts), bytes: Number(row!.bytes) };
}
