import { createHash } from 'node:crypto';
import type { Embedding } from '../embeddings/embedding.contract.ts';
import type { Locale } from '../locales/locale.contract.ts';
import type { PublishedConfiguration } from './published-configuration.ts';
import { legalDetailsOf } from './legal-details.ts';
import type { PublishedTcf } from '../tcf-vendors/published-tcf.ts';

/**
 * A published configuration as a tree of hashes (a Merkle tree of one level): each part — the
 * domain's settings, one embedding with its assets, the placeholders, the theme, one locale —
 * hashed on its own, and the configuration's hashes computed from the parts' hashes. So a
 * revision after a write that changed one embedding is computed from that embedding and the
 * previous revision's manifest, without reading the domain's other embeddings again, and yet
 * equals what the banner computes from the whole configuration.
 */

/** An active embedding in the manifest: its id, the hash of its part, the hash of what is legally relevant in it. */
export type ManifestEmbedding = [id: string, part: string, legal: string];

/** A bucket of embeddings: the hash of its part (its entries, by id) and of their legal hashes. */
export type BucketRef = [part: string, legal: string];

/**
 * The active embeddings: listed in the manifest while they are few; past INLINE_EMBEDDINGS, spread
 * over BUCKETS buckets by a hash of their id, each bucket a part of its own, so that a change of one
 * embedding rewrites one bucket of a large domain, not a list of all of them. Which form a set of
 * embeddings takes depends on the set alone, so the banner and the revisions compute the same.
 */
export type EmbeddingsNode = { inline: ManifestEmbedding[] } | { count: number; buckets: (BucketRef | null)[] };

export const INLINE_EMBEDDINGS = 64;
export const BUCKETS = 64;

export type Manifest = {
  clientId: string;
  domain: string;
  embeddings: EmbeddingsNode;
  placeholders: string;
  theme: string | null;
  locales: string[];
  /** A TCF domain's TCF part (published-tcf.ts): its hash, and the hash of what is legally relevant in it. Absent: no TCF. */
  tcf?: [part: string, legal: string];
};

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The hash a part is stored under (128 bits: parts are told apart within one domain). */
export const partHash = (text: string): string => sha256(text).slice(0, 32);

/**
 * What a consent to an embedding is given to: the service, its purpose and vendor, what it
 * stores, where its privacy policy is and the script code it runs once consented to, and what
 * CCM19 shows as its legal information (`EMBEDDING_LEGAL_FIELDS`, also per translation). The
 * banner's wording and colours are not in it, so rewording them never asks again.
 */
export const embeddingLegalHash = (embedding: Embedding): string =>
  sha256(
    JSON.stringify({
      id: embedding.id,
      name: embedding.name,
      purpose: embedding.purpose,
      vendor: embedding.vendor,
      privacyPolicyUrl: embedding.privacyPolicyUrl,
      tcfVendor: embedding.tcfVendor,
      assets: embedding.assets.map(({ name, dynamic, storageType, lifetime }) => ({ name, dynamic, storageType, lifetime })),
      // Only when there is some: an embedding without code keeps the hash it had before code counted,
      // so that counting it asks no visitor of such a site again.
      ...(embedding.scriptHtmlCode === '' ? {} : { scriptHtmlCode: embedding.scriptHtmlCode }),
      ...legalDetailsOf(embedding),
    }),
  );

/**
 * What a consent under TCF is given to: the domain's vendors with the purposes, legitimate
 * interests, special purposes, features and special features each declares, under the TCF policy
 * version. Not the list's version: a new list that changes nothing for the domain asks no visitor again.
 */
export const tcfLegalHash = (tcf: PublishedTcf): string => sha256(JSON.stringify({ policyVersion: tcf.policyVersion, vendors: tcf.vendors }));

/** The manifest's reference to a TCF part, and the part. */
export const tcfEntryOf = (tcf: PublishedTcf): { ref: [string, string]; part: Part } => {
  const part = partOf(tcf);
  return { ref: [part.hash, tcfLegalHash(tcf)], part };
};

/**
 * A part: its hash and its JSON text as stored. With `base`, the text stored is a bucket's change
 * (`BucketDelta`) to the bucket stored under that hash, and `hash` stays the hash of the whole
 * bucket's text.
 */
export type Part = { hash: string; text: string; base?: string };

export const partOf = (value: unknown): Part => {
  const text = JSON.stringify(value);
  return { hash: partHash(text), text };
};

export const embeddingEntryOf = (embedding: Embedding): [ManifestEmbedding, Part] => {
  const part = partOf(embedding);
  return [[embedding.id, part.hash, embeddingLegalHash(embedding)], part];
};

const byId = ([a]: ManifestEmbedding, [b]: ManifestEmbedding) => (a < b ? -1 : a > b ? 1 : 0);

/** The bucket an embedding goes to once there are many. */
export const bucketOf = (id: string): number => Number.parseInt(sha256(id).slice(0, 8), 16) % BUCKETS;

/**
 * A bucket's entries, sorted by id, with the JSON text of each and of each one's legal hash: its
 * part's text is the entries' texts joined as a JSON array, its legal hash that of the legal
 * hashes' texts joined so (what `JSON.stringify` of the arrays gives). Kept with a bucket, so that
 * a changed bucket's texts are joined from those of the entries it keeps, and only the entries
 * that came in are written out (a bucket holds some 550 entries at 35,000 embeddings).
 */
export type BucketEntries = { entries: readonly ManifestEmbedding[]; texts: readonly string[]; legals: readonly string[] };

export const bucketEntriesOf = (sorted: readonly ManifestEmbedding[]): BucketEntries => ({
  entries: sorted,
  texts: sorted.map((entry) => JSON.stringify(entry)),
  legals: sorted.map(([, , legal]) => JSON.stringify(legal)),
});

export const NO_ENTRIES: BucketEntries = { entries: [], texts: [], legals: [] };

/** A bucket's reference and part (null: an empty bucket, which the manifest names as null). */
export type BuiltBucket = { ref: BucketRef; part: Part } | null;

function built(bucket: BucketEntries): BuiltBucket {
  if (bucket.entries.length === 0) return null;
  const text = `[${bucket.texts.join(',')}]`;
  const hash = partHash(text);
  return { ref: [hash, sha256(`[${bucket.legals.join(',')}]`)], part: { hash, text } };
}

/** One bucket's reference and part, and its entries as the part holds them (null: an empty bucket). */
export function bucketPartOf(entries: ManifestEmbedding[]): { ref: BucketRef; part: Part; sorted: ManifestEmbedding[] } | null {
  const bucket = bucketEntriesOf([...entries].sort(byId));
  const made = built(bucket);
  return made && { ...made, sorted: bucket.entries as ManifestEmbedding[] };
}

/**
 * A bucket after a change — the entries of `leaving` ids out, `incoming` entries in — built from
 * its kept texts: the same reference and part as `bucketPartOf` makes of its entries. Also the
 * entries that left (those of ids in `leaving`).
 */
export function changedBucket(
  before: BucketEntries,
  leaving: ReadonlySet<string>,
  incoming: readonly ManifestEmbedding[],
): { bucket: BucketEntries; built: BuiltBucket; left: ManifestEmbedding[] } {
  const arriving = [...incoming].sort(byId);
  const entries: ManifestEmbedding[] = [];
  const texts: string[] = [];
  const legals: string[] = [];
  const left: ManifestEmbedding[] = [];
  let next = 0;
  const arrive = (before?: string) => {
    for (; next < arriving.length && (before === undefined || arriving[next]![0] < before); next++) {
      const entry = arriving[next]!;
      entries.push(entry);
      texts.push(JSON.stringify(entry));
      legals.push(JSON.stringify(entry[2]));
    }
  };
  before.entries.forEach((entry, i) => {
    arrive(entry[0]);
    if (leaving.has(entry[0])) left.push(entry);
    else {
      entries.push(entry);
      texts.push(before.texts[i]!);
      legals.push(before.legals[i]!);
    }
  });
  arrive();
  const bucket = { entries, texts, legals };
  return { bucket, built: built(bucket), left };
}

/**
 * How a bucket is stored when a write changed a few of its entries: the ids that left it (or
 * changed) and the entries that came in, against the bucket it was made from. A bucket holds some
 * 11 KB of entries at 5,000 embeddings; its change, one entry.
 */
export type BucketDelta = { drop: string[]; put: ManifestEmbedding[] };

/** The bucket's entries after `delta` (sorted by id, as `bucketPartOf` stores them). */
export function applyBucketDelta(entries: readonly ManifestEmbedding[], delta: BucketDelta): ManifestEmbedding[] {
  const dropped = new Set(delta.drop);
  return [...entries.filter(([id]) => !dropped.has(id)), ...delta.put].sort(byId);
}

/** The node of a set of embeddings, and the parts of its buckets with their entries (as `bucketPartOf` gives them). */
export function embeddingsNodeOf(entries: ManifestEmbedding[]): {
  node: EmbeddingsNode;
  parts: Part[];
  buckets: { part: Part; sorted: ManifestEmbedding[] }[];
} {
  const sorted = [...entries].sort(byId);
  if (sorted.length <= INLINE_EMBEDDINGS) return { node: { inline: sorted }, parts: [], buckets: [] };
  const buckets: ManifestEmbedding[][] = Array.from({ length: BUCKETS }, () => []);
  for (const entry of sorted) buckets[bucketOf(entry[0])]!.push(entry);
  const built = buckets.map(bucketPartOf);
  const filled = built.flatMap((bucket) => (bucket ? [bucket] : []));
  return {
    node: { count: sorted.length, buckets: built.map((bucket) => bucket?.ref ?? null) },
    parts: filled.map((bucket) => bucket.part),
    buckets: filled,
  };
}

/** The manifest of a whole configuration, and its parts. */
export function manifestOf(published: PublishedConfiguration): { manifest: Manifest; parts: Part[] } {
  const parts: Part[] = [];
  const put = (value: unknown) => {
    const part = partOf(value);
    parts.push(part);
    return part.hash;
  };
  const domain = put(published.domain);
  const entries = published.embeddings.map((embedding) => {
    const [entry, part] = embeddingEntryOf(embedding);
    parts.push(part);
    return entry;
  });
  const { node, parts: bucketParts } = embeddingsNodeOf(entries);
  parts.push(...bucketParts);
  const manifest: Manifest = {
    clientId: published.clientId,
    domain,
    embeddings: node,
    placeholders: put(published.placeholders),
    theme: published.theme === null ? null : put(published.theme),
    locales: published.locales.map(put),
  };
  if (published.tcf) {
    const { ref, part } = tcfEntryOf(published.tcf);
    parts.push(part);
    manifest.tcf = ref;
  }
  return { manifest, parts };
}

/** The hash of everything published (what consent records name as the revision shown). */
export const contentHashOf = (manifest: Manifest): string => sha256(JSON.stringify(manifest));

/** The hash of what is legally relevant: every embedding's, the site's privacy-policy address per locale, and a TCF domain's vendors. */
export const legalHashOf = (manifest: Manifest, locales: readonly Pick<Locale, 'name' | 'privacyPolicyUrl'>[]): string =>
  sha256(
    JSON.stringify({
      embeddings:
        'inline' in manifest.embeddings
          ? manifest.embeddings.inline.map(([, , legal]) => legal)
          : manifest.embeddings.buckets.map((bucket) => bucket?.[1] ?? null),
      privacyPolicies: locales.map((locale) => [locale.name, locale.privacyPolicyUrl]),
      // Only for TCF domains: the legal hash of every other domain stays as it was.
      ...(manifest.tcf ? { tcf: manifest.tcf[1] } : {}),
    }),
  );

/**
 * The hash of everything a domain publishes: what a consent record names as the revision it was
 * shown, what a configuration revision is kept under, what the banner's cache follows.
 */
export const contentRevisionOf = (published: PublishedConfiguration): string => contentHashOf(manifestOf(published).manifest);

/** The hash of what a consent was given to (see `embeddingLegalHash`): the banner asks again when it changes. */
export const legalRevisionOf = (published: PublishedConfiguration): string =>
  legalHashOf(manifestOf(published).manifest, published.locales);
