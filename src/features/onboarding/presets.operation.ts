import type { OnboardingPreset, OnboardingPresetResult } from './onboarding.contract.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { inTransaction } from '../../db/transaction.ts';
import { invalid } from '../../kernel/errors.ts';
import { type DomainScope } from '../../kernel/access.ts';
import { requireDomain } from '../domains/domain.access.ts';
import { insertEmbedding } from '../embeddings/embedding.operations.ts';
import { EmbeddingEntity } from '../embeddings/embedding.entity.ts';
import { type CatalogCookie, type CatalogEntry, loadCatalog } from '../catalog/catalog.ts';
import { unblockableImportNote } from './advice.ts';
import { embeddingFromCatalog } from './catalog-embedding.ts';

export const presetKey = (presetId: number) => `preset:${presetId}`;

const cookieKey = (cookie: CatalogCookie) => `${cookie.storageType ?? 'cookie'} ${cookie.name}`;

/**
 * One embedding, with all the service's assets and translations, per preset; all or nothing. A
 * new embedding is active unless `active` is false (CCM19 documents false as the default; see
 * PRESET_ACTIVE_DESCRIPTION for why not here). A preset the domain already has answers with its
 * existing embedding (switched on if `active` is true, otherwise left as it is); each result says
 * whether its embedding is active now. A preset the banner cannot hold back (not `blockable`:
 * Google Fonts) is made inactive whatever `active` says, and never switched on: documented, not
 * offered to visitors as a choice that would do nothing; its result's `note` says why. A cookie
 * several presets of the request list goes into one embedding only, that of the preset the
 * catalog prefers for the name (`_ga` of Google Analytics 4 and Universal Analytics: Google
 * Analytics 4).
 */
export async function importPresets(
  ctx: RequestContext,
  scope: DomainScope,
  presets: OnboardingPreset[],
): Promise<OnboardingPresetResult[]> {
  return inTransaction(ctx, async (em) => {
    const domain = await requireDomain({ ...ctx, em, lock: true }, scope);
    const catalog = await loadCatalog(em);
    const unknown = presets.flatMap((preset, index) =>
      catalog.byId(preset.id) ? [] : [{ path: `/${index}/id`, message: `is not a preset id of the catalog` }],
    );
    if (unknown.length > 0) throw invalid('unknown preset ids', unknown);
    // A preset the domain already has is not imported twice: its embedding (with the operator's edits) is the answer.
    const existing = await em.find(EmbeddingEntity, { domain: domain.id, catalogKey: { $in: presets.map((preset) => presetKey(preset.id)) } });
    const byKey = new Map(existing.map((embedding) => [embedding.catalogKey, embedding]));
    const requested = presets.map((preset) => catalog.byId(preset.id)!);
    const listing = Map.groupBy(
      requested.flatMap((entry) => entry.cookies.map((cookie) => ({ entry, key: cookieKey(cookie) }))),
      ({ key }) => key,
    );
    const ownCookies = (entry: CatalogEntry) =>
      entry.cookies.filter((cookie) => {
        const listers = [...new Set(listing.get(cookieKey(cookie))!.map((item) => item.entry))];
        return listers.length === 1 || catalog.preferredOf(listers, cookie) === entry;
      });
    const results = presets.map((preset): OnboardingPresetResult => {
      const entry = catalog.byId(preset.id)!;
      const present = byKey.get(presetKey(entry.id));
      let embedding: { id: string; active: boolean };
      if (present) {
        if (preset.active === true && entry.blockable) present.active = true;
        embedding = present;
      } else {
        const input = embeddingFromCatalog(entry, ownCookies(entry), entry.blockable && (preset.active ?? true));
        [embedding] = insertEmbedding(em, domain, input, presetKey(entry.id));
      }
      const note = unblockableImportNote(entry, embedding.active);
      return { presetId: entry.id, embeddingId: embedding.id, active: embedding.active, ...(note === undefined ? {} : { note }) };
    });
    await em.flush();
    return results;
  });
}
