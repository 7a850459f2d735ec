import { type EntityManager, type MikroORM, sql } from '@mikro-orm/postgresql';
import { type AppServices, domainsReached, perRequest, type RequestContext } from '../../kernel/context.ts';
import {
  type BucketDelta,
  bucketEntriesOf,
  bucketOf,
  changedBucket,
  contentHashOf,
  embeddingEntryOf,
  type EmbeddingsNode,
  embeddingsNodeOf,
  INLINE_EMBEDDINGS,
  legalHashOf,
  type Manifest,
  type ManifestEmbedding,
  manifestOf,
  NO_ENTRIES,
  type Part,
  partOf,
  tcfEntryOf,
} from '../banner/configuration-manifest.ts';
import { type PublishedConfiguration, readContext, readPublishedConfigurationWith, readPublishedRest } from '../banner/published-configuration.ts';
import { fieldsOf, jsonArrayOf, preparedRead } from '../../db/read-model.ts';
import { isBrokenOffForAnother, sqlStateOf, UNIQUE_VIOLATION } from '../../db/sql-state.ts';
import { makerOf } from '../domains/domain-write.ts';
import { DomainEntity } from '../domains/domain.entity.ts';
import { type EmbeddingWithAssets, embeddingsOfIds, embeddingsWithAssets } from '../embeddings/embedding.reads.ts';
import { toEmbedding } from '../embeddings/embedding.view.ts';
import { PlaceholderEntity, type PlaceholderRecord } from '../placeholders/placeholder.entity.ts';
import { toPlaceholder } from '../placeholders/placeholder.view.ts';
import type { ChangeFeed } from '../../db/change-feed.ts';
import { bucketsByHash, forgetBucket, keepBucket, type KeptBucket } from './bucket-cache.ts';
import { startDueSweep } from './due-sweep.ts';
import { BUCKET_DELTAS, hashesOf, newestManifest, readRevisions, storeRevision } from './revision-store.ts';

/** Domains this request restores, with the revision each restores (noted with the restore's due row). */
export const restoresOfRequest = perRequest(() => new Map<string, number>());

/**
 * Runs first in every write transaction: locks the rows of the domains the request reached
 * (`reachDomain`), in id order, before the work locks anything beneath them. Every write of a
 * domain takes its lock first, so the locks of a domain and its objects are always taken in one
 * order, and writers queue instead of deadlocking.
 */
export async function lockReachedDomains(em: EntityManager, ctx: RequestContext): Promise<void> {
  const ids = [...domainsReached(ctx)].sort();
  if (ids.length === 0) return;
  await em.execute(`select "id" from "domain" where "id" = any(?::uuid[]) order by "id" for no key update`, [`{${ids.join(',')}}`]);
}

/**
 * Runs in every write transaction, after its work and before it commits (db/transaction.ts):
 * notes, in one statement, a `revision_due` row for each domain whose published configuration a
 * statement of the transaction touched (the database's triggers note the domains in
 * `app.changed_domains`, the tables in `app.changed_tables`, the embeddings in
 * `app.changed_embeddings`), with the write's maker and the revision it restores; answers their
 * ids. The revisions are recorded just after the commit (`createRevisionRecorder`), off the
 * domains' locks. (A hot write notes its due row in its own statement, `DUE_REVISION`, in no
 * transaction.)
 */
export async function noteDueRevisions(em: EntityManager, ctx: RequestContext): Promise<string[]> {
  const maker = makerOf(ctx.caller);
  const rows = await em.execute<{ domainId: string }[]>(
    `insert into "revision_due" ("domain_id", "key_id", "key_name", "restored_from", "tables", "embeddings")
     select d."id", ?::uuid, ?, (?::jsonb ->> d."id"::text)::int,
       coalesce(string_to_array(nullif(current_setting('app.changed_tables', true), ''), ','), '{}'),
       coalesce(string_to_array(nullif(current_setting('app.changed_embeddings', true), ''), ',')::uuid[], '{}')
     from "domain" d where d."id" = any(string_to_array(nullif(current_setting('app.changed_domains', true), ''), ',')::uuid[])
     returning "domain_id" as "domainId"`,
    [maker.id, maker.name, JSON.stringify(Object.fromEntries(restoresOfRequest(ctx)))],
  );
  return [...new Set(rows.map((row) => row.domainId))];
}

/** The kept revision a round builds on: its number and manifest, and its locales' privacy policies (for the legal hash). */
type RevisionBase = { number: number; manifest: Manifest; privacy: [name: string, privacyPolicyUrl: string][] };

/** A `revision_due` row, as a round reads it. */
type Due = { id: number; keyId: string | null; keyName: string | null; restoredFrom: number | null; tables: string[]; embeddings: string[] };

type DueRow = {
  /** The domain's due rows, oldest first; null: none. */
  due: Due[] | null;
  /** The changed embeddings still there, with their assets, as they now read. */
  embeddings: EmbeddingWithAssets[];
  /** Every placeholder of the domain, when a placeholder changed; otherwise null. */
  placeholders: PlaceholderRecord[] | null;
  base: RevisionBase | null;
};

/**
 * A round's first statement: reads the domain's due rows and, in the same snapshot, what they
 * changed — the changed embeddings as they now read, the placeholders if they changed — and the
 * newest revision to build on. The due rows and the configuration come from one snapshot: every
 * write whose due row is read is in what is read. The store deletes the rows read (`storeRevision`).
 * A named statement, planned once per connection: no part of its plan depends on the domain's size.
 */
const readDue = preparedRead<{ domainId: string }, DueRow>((em, { domainId }) => {
  // Each changed embedding looked up by its key alone: the domain is checked as a filter that no
  // index can serve, so that no plan reads the domain's embeddings instead, as one did while the
  // table's statistics still counted a fast-growing domain's embeddings in tens (6,787 read for 5).
  // (A transaction that changed several domains lists the embeddings of all of them in each due row.)
  const changed = embeddingsWithAssets(em)
    .where({ 'e.id': sql.ref('c.id'), [sql`coalesce("e"."domain_id" = "d"."id", false)`]: [] })
    .limit(1);
  const embeddings = sql`coalesce((select json_agg(x order by x."id")
      from unnest(array(select distinct unnest("due"."embeddings") from "due")) as c("id"), lateral (${changed.toRaw()}) as x), '[]'::json)`;
  const placeholders = em
    .qb(PlaceholderEntity, 'p')
    .select(fieldsOf(em, PlaceholderEntity, 'p'))
    .where({ 'p.domain': sql.ref('d.id') });
  const query = em
    .qb(DomainEntity, 'd')
    .select([
      sql`(select json_agg(json_build_object('id', t."id", 'keyId', t."key_id", 'keyName', t."key_name", 'restoredFrom', t."restored_from",
            'tables', t."tables", 'embeddings', t."embeddings") order by t."id") from "due" t)`.as('due'),
      embeddings.as('embeddings'),
      sql`case when exists (select 1 from "due" where 'placeholder' = any("due"."tables")) then ${jsonArrayOf(placeholders, 'id')} end`.as('placeholders'),
      sql`(select json_build_object(
          'number', r."number",
          'manifest', r."manifest",
          'privacy', (select coalesce(json_agg((select json_build_array(p."body" -> 'name', p."body" -> 'privacyPolicyUrl')
                        from "configuration_part" p where p."domain_id" = r."domain_id" and p."hash" = l."hash") order by l."ord"), '[]'::json)
                      from json_array_elements_text(r."manifest" -> 'locales') with ordinality as l("hash", "ord")))
        from "configuration_revision" r where r."domain_id" = ${sql.ref('d.id')} order by r."number" desc limit 1)`.as('base'),
    ])
    .where({ 'd.id': domainId });
  return {
    toQuery() {
      const compiled = query.toQuery();
      return {
        sql: `with "due" as (select * from "revision_due" where "domain_id" = ?) ${compiled.sql}`,
        params: [domainId, ...compiled.params],
      };
    },
  };
});

/** The domain's due rows, taken (deleted) by a round that holds the domain's row lock. */
async function takeAll(em: EntityManager, domainId: string): Promise<Due[]> {
  return em.execute<Due[]>(
    `with "taken" as (delete from "revision_due" where "domain_id" = ? returning *)
     select "id", "key_id" as "keyId", "key_name" as "keyName", "restored_from" as "restoredFrom", "tables", "embeddings" from "taken" order by "id"`,
    [domainId],
  );
}

/** Tables whose changes a round builds on the previous revision; any other reads everything again. */
const BUILT_ON_PREVIOUS = new Set(['embedding', 'embedding_asset', 'placeholder']);

/** Records revisions just after writes commit: see `createRevisionRecorder`. */
export type RevisionRecorder = {
  /**
   * Has the domains' due revisions recorded (joining a round that is about to start), and resolves
   * once the round has read what it records, before it computes and stores it: a write is answered
   * then, so a write that follows its answer is never in its revision. Readers of what rounds
   * keep catch up first (`settle`, `recording`). Never throws.
   */
  record(domainIds: Iterable<string>): Promise<void>;
  /** Records the domains' due revisions, other processes' writes' included, and resolves once they are kept; never throws. */
  settle(domainIds: Iterable<string>): Promise<void>;
  /** The domain's round in this process, while one runs or is about to (resolves when it ends); undefined when none does. */
  recording(domainId: string): Promise<void> | undefined;
  /** Waits until no round of this process runs (the service stops; retries are cancelled by `close` first). */
  drain(): Promise<void>;
  /** Settles every domain with due rows left (a process that stopped between a commit and its round): at start. */
  settleLeftovers(): Promise<void>;
  /** The domain's newest revision as a published configuration (its first recorded now if it has none); null: no such domain. */
  published(domainId: string): Promise<PublishedConfiguration | null>;
  /** Cancels the retries of failed rounds (the service stops). */
  close(): void;
};

/** The wait before a failed round is tried again: doubled after each failure, up to a minute. */
const ROUND_RETRY_MS = { first: 1000, most: 60_000 };

/**
 * Records the revisions writes left due, just after they commit, off the domains' row locks.
 *
 * A write is answered once the round that records it has read what it records (`taken`), not
 * once that round has stored it: a write that follows the answer commits after that read, so it
 * is never in the answered write's revision, and the writers of a busy domain do not wait for each
 * round's hashing and store. Whoever reads what rounds keep catches up first: the revision
 * operations `settle` the domain (recording due rows of any process), and the banner waits for
 * the domain's round in this process (`recording`), so a reader of this process never sees a
 * configuration older than a write it was answered. A process that stops, or a database that
 * crashes, before the store loses nothing: the due rows stay, and the next start records them
 * (`settleLeftovers`), or, in a process that runs on, the due sweep (`startDueSweep`: after the
 * listening connection is back, and every 30 s).
 *
 * One round at a time per domain in this process: a write that asks while a round runs joins the
 * next one, so a burst of writes becomes one revision. A round is two statements, without a
 * transaction or a lock: one reads the due rows with what they changed and the revision to build
 * on (`readDue`), the other deletes those due rows and stores the revision (`storeRevision`),
 * which fails, keeping nothing, if another round (of another process) came between; the round
 * then reads again (`raced`, at most ROUND_ATTEMPTS times). No due rows left (another round took
 * them, after our commit): our write is in that revision, nothing to do. Changes of the settings,
 * themes or locales, and a domain without a revision yet, take the longer way: a transaction
 * under the domain's row lock (no writer commits while it reads). A failed round is reported and
 * leaves the due rows; the domain's round is tried again after a second, then after twice as long
 * each time it fails again (at most a minute: ROUND_RETRY_MS), so the banner does not go on
 * publishing an older revision until the domain's next write.
 */
export function createRevisionRecorder({
  orm,
  services,
  changes,
  onError,
}: {
  orm: MikroORM;
  services: () => AppServices;
  /** Whose resyncs (the database may have restarted) have every due revision recorded (`startDueSweep`). */
  changes?: ChangeFeed;
  onError: (error: unknown) => void;
}): RevisionRecorder {
  /** A round of a domain: `done` once it has ended, `taken` once it has read the due rows it records (or ended). */
  type Round = { done: Promise<void>; taken: Promise<void> };
  type Lane = { running: Round; next?: Round };
  const lanes = new Map<string, Lane>();
  const retries = new Map<string, { timer?: NodeJS.Timeout; waitMs: number }>();
  let closed = false;

  const retryLater = (domainId: string) => {
    if (closed) return;
    const previous = retries.get(domainId);
    if (previous?.timer) return; // a retry is already set
    const waitMs = previous ? Math.min(previous.waitMs * 2, ROUND_RETRY_MS.most) : ROUND_RETRY_MS.first;
    const timer = setTimeout(() => {
      retries.set(domainId, { waitMs });
      void roundFor(domainId).done;
    }, waitMs);
    timer.unref();
    retries.set(domainId, { timer, waitMs });
  };

  const round = async (domainId: string, taken: () => void) => {
    try {
      await recordRound(orm, services(), domainId, taken);
      const pending = retries.get(domainId);
      if (pending && !pending.timer) retries.delete(domainId);
    } catch (error) {
      onError(error);
      retryLater(domainId);
    } finally {
      taken();
    }
  };

  function begin(domainId: string, taken = Promise.withResolvers<void>()): Round {
    const lane = lanes.get(domainId);
    if (lane) lane.next = undefined;
    const done: Promise<void> = round(domainId, taken.resolve).finally(() => {
      const current = lanes.get(domainId);
      if (current?.running.done === done && !current.next) lanes.delete(domainId);
    });
    const running = { done, taken: taken.promise };
    if (lane) lane.running = running;
    else lanes.set(domainId, { running });
    return running;
  }

  /** The round that records what is due for the domain now: one that begins now, or the one after the running one. */
  function roundFor(domainId: string): Round {
    const lane = lanes.get(domainId);
    if (!lane) return begin(domainId);
    if (!lane.next) {
      const taken = Promise.withResolvers<void>();
      lane.next = { done: lane.running.done.then(() => begin(domainId, taken).done), taken: taken.promise };
    }
    return lane.next;
  }

  const settle = async (domainIds: Iterable<string>) => {
    await Promise.all([...new Set(domainIds)].map((domainId) => roundFor(domainId).done));
  };

  const recording = (domainId: string) => {
    const lane = lanes.get(domainId);
    return lane && (lane.next ?? lane.running).done;
  };

  const sweep = startDueSweep({ orm, changes, settle, onError });

  return {
    async record(domainIds) {
      await Promise.all([...new Set(domainIds)].map((domainId) => roundFor(domainId).taken));
    },
    settle,
    recording,
    async drain() {
      while (lanes.size > 0) await Promise.all([...lanes.keys()].map(recording));
    },
    async settleLeftovers() {
      const rows = await orm.em.fork().execute<{ domainId: string }[]>(`select distinct "domain_id" as "domainId" from "revision_due"`);
      await settle(rows.map((row) => row.domainId));
    },
    async published(domainId) {
      const em = orm.em.fork();
      const [newest] = await readRevisions(em, domainId, { newest: true });
      if (newest) return newest.configuration;
      // No revision yet (a domain made outside the service, or a round that failed): record it first.
      const [exists] = await em.execute<{ id: string }[]>(`select "id" from "domain" where "id" = ?`, [domainId]);
      if (!exists) return null;
      await settle([domainId]);
      const [first] = await readRevisions(orm.em.fork(), domainId, { newest: true });
      return first?.configuration ?? null;
    },
    close() {
      closed = true;
      sweep.stop();
      for (const { timer } of retries.values()) clearTimeout(timer);
      retries.clear();
    },
  };
}

/** A store that another round came before (its check failed, the revision's key was taken, a deadlock): read again. */
const raced = (error: unknown) => isBrokenOffForAnother(error) || sqlStateOf(error) === UNIQUE_VIOLATION;
/** Reads and stores a round tries before it fails (and is tried again later). */
const ROUND_ATTEMPTS = 5;

/**
 * One round of a domain (see `createRevisionRecorder`); `taken()` once what it records is fixed: its
 * due rows read with what they changed, or (the longer way) taken under the domain's lock.
 */
async function recordRound(orm: MikroORM, services: AppServices, domainId: string, taken: () => void): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await recordOnce(orm, services, domainId, taken);
    } catch (error) {
      if (attempt >= ROUND_ATTEMPTS || !raced(error)) throw error;
    }
  }
}

async function recordOnce(orm: MikroORM, services: AppServices, domainId: string, taken: () => void): Promise<void> {
  const em = orm.em.fork();
  const [read] = await readDue(em, { domainId });
  const due = read?.due ?? [];
  // The domain is gone (and its due rows with it), or another round recorded them already.
  if (!read || (due.length === 0 && read.base)) return taken();
  const tables = new Set(due.flatMap((row) => row.tables));
  // A TCF domain's vendors include its embeddings' `tcfVendor`: a change of its embeddings reads its TCF part again, the longer way.
  const builtOnPrevious = [...tables].every((table) => BUILT_ON_PREVIOUS.has(table)) && !(read.base?.manifest.tcf && tables.has('embedding'));
  if (read.base && due.length > 0 && builtOnPrevious) {
    taken(); // what this revision holds is read: a write that commits from now on is not in it
    const revision = await revisionFromChanges(em, domainId, read.base, [...new Set(due.flatMap((row) => row.embeddings))], read);
    await storeRevision(em, domainId, revision, madeBy(due), { due: due.map((row) => row.id), base: read.base.number });
    return;
  }
  // The longer way reads in several statements: under the domain's row lock, no write commits meanwhile.
  await orm.em.fork().transactional(async (tx) => {
    await tx.execute(`select "id" from "domain" where "id" = ? for no key update`, [domainId]);
    const rows = await takeAll(tx, domainId);
    taken(); // writers wait for the lock until this commits
    const revision = await nextRevision(tx, services, domainId, [...new Set(rows.flatMap((row) => row.embeddings))]);
    if (!revision) return;
    if (rows.length === 0 && revision.base !== null) return; // recorded by another round already
    await storeRevision(tx, domainId, revision, madeBy(rows), { due: [], base: revision.base });
  });
}

/** Who made a revision (the newest due row's key) and the revision it restores (the newest restore's). */
function madeBy(due: Due[]) {
  const last = due.at(-1);
  const restore = due.findLast((row) => row.restoredFrom !== null);
  return {
    key: last && last.keyName !== null ? { id: last.keyId, name: last.keyName } : null,
    restoredFrom: restore?.restoredFrom ?? null,
  };
}

/**
 * The domain's configuration as it now reads, as a manifest and the parts the newest revision
 * lacks. From the newest revision's manifest, only the embeddings the transaction changed are
 * read again (with the settings, placeholders, theme and locales, which are few); without a
 * revision yet, everything is read.
 */
async function nextRevision(em: EntityManager, services: AppServices, domainId: string, changedEmbeddings: string[]) {
  const newest = await newestManifest(em, domainId);
  if (!newest) {
    const published = await readPublishedConfigurationWith(em, services, domainId);
    if (!published) return null;
    const { manifest, parts } = manifestOf(published);
    return { manifest, parts, hash: contentHashOf(manifest), legalHash: legalHashOf(manifest, published.locales), base: null };
  }
  const previous = newest.manifest;
  const [rest, reread] = await Promise.all([
    readPublishedRest(readContext(em, services), domainId),
    changedEmbeddings.length > 0 ? embeddingsOfIds(em, domainId, changedEmbeddings) : [],
  ]);
  if (!rest) return null;
  const parts: Part[] = [];
  const put = (value: unknown) => {
    const part = partOf(value);
    parts.push(part);
    return part.hash;
  };
  const fresh: ManifestEmbedding[] = [];
  for (const row of reread) {
    if (!row.active) continue;
    const [entry, part] = embeddingEntryOf(toEmbedding(row, row.assets));
    fresh.push(entry);
    parts.push(part);
  }
  const embeddings = await nextEmbeddings(em, domainId, previous.embeddings, new Set(changedEmbeddings), fresh);
  parts.push(...embeddings.parts);
  const manifest: Manifest = {
    clientId: rest.clientId,
    domain: put(rest.domain),
    embeddings: embeddings.node,
    placeholders: put(rest.placeholders),
    theme: rest.theme === null ? null : put(rest.theme),
    locales: rest.locales.map(put),
  };
  if (rest.tcf) {
    const { ref, part } = tcfEntryOf(rest.tcf);
    parts.push(part);
    manifest.tcf = ref;
  }
  const known = new Set([...hashesOf(previous), ...embeddings.known]);
  return {
    manifest,
    parts: parts.filter((part) => !known.has(part.hash)),
    hash: contentHashOf(manifest),
    legalHash: legalHashOf(manifest, rest.locales),
    base: newest.number,
  };
}

/**
 * The revision after a write that changed embeddings or placeholders only: the previous
 * revision's manifest with the changed embeddings (as they now read; gone or switched off: out)
 * and the placeholders put in. The settings, theme and locales keep their parts.
 */
async function revisionFromChanges(em: EntityManager, domainId: string, base: RevisionBase, changedEmbeddings: string[], changes: DueRow) {
  const previous = base.manifest;
  const parts: Part[] = [];
  const fresh: ManifestEmbedding[] = [];
  for (const row of changes.embeddings) {
    if (!row.active) continue;
    const [entry, part] = embeddingEntryOf(toEmbedding(row, row.assets));
    fresh.push(entry);
    parts.push(part);
  }
  const embeddings = await nextEmbeddings(em, domainId, previous.embeddings, new Set(changedEmbeddings), fresh);
  parts.push(...embeddings.parts);
  let placeholders = previous.placeholders;
  if (changes.placeholders) {
    const part = partOf(changes.placeholders.map(toPlaceholder));
    parts.push(part);
    placeholders = part.hash;
  }
  const manifest: Manifest = { ...previous, embeddings: embeddings.node, placeholders };
  const known = new Set([...hashesOf(previous), ...embeddings.known]);
  const locales = base.privacy.map(([name, privacyPolicyUrl]) => ({ name, privacyPolicyUrl }));
  return {
    manifest,
    parts: parts.filter((part) => !known.has(part.hash)),
    hash: contentHashOf(manifest),
    legalHash: legalHashOf(manifest, locales),
  };
}

/**
 * The embeddings' node after the changes: `changed` ids leave, `fresh` (the changed ones still
 * active, as they now read) come in. A bucketed node reads only the buckets the changes fall in
 * (all of them only when the domain drops to few embeddings, and the list goes inline again); a
 * changed bucket is stored as its change to the bucket before (`BucketDelta`), a whole copy once
 * that one ends a chain of BUCKET_DELTAS changes. `known`: the parts of the entries that left
 * (an embedding written again unchanged has its part stored already).
 */
async function nextEmbeddings(
  em: EntityManager,
  domainId: string,
  previous: EmbeddingsNode,
  changed: Set<string>,
  fresh: ManifestEmbedding[],
): Promise<{ node: EmbeddingsNode; parts: Part[]; known: string[] }> {
  if ('inline' in previous) {
    const { node, parts, buckets } = embeddingsNodeOf([...previous.inline.filter(([id]) => !changed.has(id)), ...fresh]);
    for (const bucket of buckets) keepBucket(domainId, bucket.part.hash, { ...bucketEntriesOf(bucket.sorted), depth: 0 });
    return { node, parts, known: [] };
  }
  const arriving = new Map<number, ManifestEmbedding[]>();
  for (const entry of fresh) {
    const index = bucketOf(entry[0]);
    arriving.set(index, [...(arriving.get(index) ?? []), entry]);
  }
  const affected = new Set([...changed].map(bucketOf));
  const refs = previous.buckets.flatMap((bucket, index) => (bucket && affected.has(index) ? [bucket[0]] : []));
  const loaded = await bucketsByHash(em, domainId, refs);
  const storedAt = (index: number, stored: Map<string, KeptBucket>) => {
    const bucket = previous.buckets[index];
    return bucket ? stored.get(bucket[0])! : NO_ENTRIES;
  };
  const next = new Map<number, ReturnType<typeof changedBucket>>();
  let count = previous.count;
  for (const index of affected) {
    const before = storedAt(index, loaded);
    const after = changedBucket(before, changed, arriving.get(index) ?? []);
    count += after.bucket.entries.length - before.entries.length;
    next.set(index, after);
  }
  const known = [...next.values()].flatMap(({ left }) => left.map(([, part]) => part));
  if (count <= INLINE_EMBEDDINGS) {
    // Few again: every bucket is read, and the list goes back into the manifest.
    const rest = await bucketsByHash(em, domainId, previous.buckets.flatMap((bucket, index) => (bucket && !affected.has(index) ? [bucket[0]] : [])));
    const all = previous.buckets.flatMap((_, index) => (next.get(index) ?? { bucket: storedAt(index, rest) }).bucket.entries);
    const { node, parts } = embeddingsNodeOf(all);
    return { node, parts, known };
  }
  const parts: Part[] = [];
  const buckets = previous.buckets.map((bucket, index) => {
    const change = next.get(index);
    if (!change) return bucket;
    if (!change.built) return null;
    const { ref, part } = change.built;
    if (bucket && part.hash === bucket[0]) return bucket; // the same entries: stored and kept already
    const base = bucket ? loaded.get(bucket[0])! : undefined;
    // Stored as its change to the bucket it was made from, unless that one ends a long chain of changes already.
    const depth = base && base.depth < BUCKET_DELTAS ? base.depth + 1 : 0;
    if (depth === 0) parts.push(part);
    else {
      const delta: BucketDelta = { drop: change.left.map(([id]) => id), put: arriving.get(index) ?? [] };
      parts.push({ hash: part.hash, text: JSON.stringify(delta), base: bucket![0] });
    }
    // The next round of this domain changes it again, most likely; the one it replaced is needed no more.
    keepBucket(domainId, part.hash, { ...change.bucket, depth });
    if (bucket) forgetBucket(domainId, bucket[0]);
    return ref;
  });
  return { node: { count, buckets }, parts, known };
}
