import type { OnboardingPreset, OnboardingPresetResult } from './onboarding.contract.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { inTransaction } from '../../db/transaction.ts';
import { invalid } from '../../kernel/errors.ts';
import { type DomainScope } from '../../kernel/access.ts';
import { requireDomain } from '../domains/domain.access.ts';
import { insertEmbedding } from '../embeddings/embedding.operations.ts';
import { loadCatalog } from '../catalog/catalog.ts';
import { embeddingFromCatalog } from './catalog-embedding.ts';

export const presetKey = (presetId: number) => `preset:${presetId}`;

/** One embedding, with all the service's assets and translations, per preset; all or nothing. */
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
    const results = presets.map((preset) => {
      const entry = catalog.byId(preset.id)!;
      const input = embeddingFromCatalog(entry, entry.cookies, preset.active ?? false);
      const [embedding] = insertEmbedding(em, domain, input, presetKey(entry.id));
      return { presetId: entry.id, embeddingId: embedding.id };
    });
    await em.flush();
    return results;
  });
}
