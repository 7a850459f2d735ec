import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyBucketDelta,
  bucketEntriesOf,
  bucketPartOf,
  changedBucket,
  type ManifestEmbedding,
  NO_ENTRIES,
} from '../../../src/features/banner/configuration-manifest.ts';

/**
 * A large domain's embedding bucket (banner/configuration-manifest.ts) changed by a revision round
 * from the texts it keeps, and stored as that change to the bucket before: whatever the change,
 * the bucket comes out as the one made whole from its entries — the same part text, part hash and
 * legal hash — and the stored change applied to the bucket before gives its entries back.
 */

const hex = (length: number) => fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: length, maxLength: length });
const entry: fc.Arbitrary<ManifestEmbedding> = fc.tuple(fc.uuid(), hex(32), hex(64));

/** A bucket's entries (distinct ids), which of them leave, which are written again (changed) and which come new. */
const change = fc
  .uniqueArray(entry, { selector: ([id]) => id, maxLength: 40 })
  .chain((entries) =>
    fc.record({
      before: fc.constant(entries),
      leaving: fc.subarray(entries.map(([id]) => id)),
      added: fc.uniqueArray(entry, { selector: ([id]) => id, maxLength: 5 }).map((added) => added.filter(([id]) => !entries.some(([known]) => known === id))),
      newParts: fc.array(hex(32), { minLength: 40, maxLength: 40 }),
    }),
  )
  .map(({ before, leaving, added, newParts }) => {
    // Some of the leaving ids come back with a new part (an update); the others are gone (a delete, or switched off).
    const rewritten = leaving.filter((_, i) => i % 2 === 0).map((id, i): ManifestEmbedding => [id, newParts[i]!, before.find(([known]) => known === id)![2]]);
    return { before, leaving: new Set([...leaving, ...added.map(([id]) => id)]), incoming: [...rewritten, ...added] };
  });

describe('embedding buckets', () => {
  it('a bucket changed from its kept texts equals the bucket made whole from its entries, and its stored change gives it back', () => {
    fc.assert(
      fc.property(change, ({ before, leaving, incoming }) => {
        const kept = before.length === 0 ? NO_ENTRIES : bucketEntriesOf(bucketPartOf(before)!.sorted);
        const after = changedBucket(kept, leaving, incoming);
        const whole = bucketPartOf([...before.filter(([id]) => !leaving.has(id)), ...incoming]);
        expect(after.built?.part ?? null).toEqual(whole?.part ?? null);
        expect(after.built?.ref ?? null).toEqual(whole?.ref ?? null);
        expect(after.bucket.entries).toEqual(whole?.sorted ?? []);
        expect(after.bucket).toEqual(bucketEntriesOf(whole?.sorted ?? []));
        // The entries that left are those of the leaving ids the bucket held; the text is that of `JSON.stringify`.
        expect(after.left.map(([id]) => id).sort()).toEqual(before.map(([id]) => id).filter((id) => leaving.has(id)).sort());
        if (whole) expect(whole.part.text).toBe(JSON.stringify(whole.sorted));
        const delta = { drop: after.left.map(([id]) => id), put: incoming };
        expect(applyBucketDelta(kept.entries, JSON.parse(JSON.stringify(delta)))).toEqual(after.bucket.entries);
      }),
      { numRuns: 300 },
    );
  });
});
