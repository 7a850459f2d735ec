import type { EntityManager } from '@mikro-orm/postgresql';
import type { AssetCreate } from '../embeddings/embedding-asset.contract.ts';
import type { Embedding } from '../embeddings/embedding.contract.ts';
import type { OnboardingCookie } from './onboarding.contract.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { DomainRow } from '../domains/domain.entity.ts';
import { type DomainScope } from '../../kernel/access.ts';
import { requireDomain } from '../domains/domain.access.ts';
import { EmbeddingEntity, type EmbeddingRow } from '../embeddings/embedding.entity.ts';
import { appendAssets, insertEmbedding } from '../embeddings/embedding.operations.ts';
import { toEmbedding } from '../embeddings/embedding.view.ts';
import { type CatalogEntry, type MatchRule, loadCatalog } from '../catalog/catalog.ts';
import { unblockableImportNote } from './advice.ts';
import { assetFromCatalog, embeddingFromCatalog } from './catalog-embedding.ts';
import { presetKey } from './presets.operation.ts';

/**
 * Cookies found on a site → embeddings. Each cookie is attributed to a catalog service by
 * `Catalog.attribute`, the list taken as what one site holds: by name, and by the domain it was
 * set on when the client sends one (`fr` on `.facebook.com` goes to Meta Pixel when `_fbp` names
 * it; `_ga` goes to Google Analytics 4 next to `_ga_<id>`, to Universal Analytics next to `_gat`).
 * Each recognised service gets one embedding with the matched assets (or the domain's existing
 * embedding for that service gets the assets it lacks); cookies nobody recognises go into one
 * inactive embedding with purpose "other", so nothing is lost. A service that is not blockable
 * (Google Fonts) gets an inactive embedding, as importPresets makes it.
 */

const UNRECOGNISED = 'unrecognised';

const unrecognisedEmbedding = (assets: AssetCreate[]) => ({
  name: 'Unrecognised cookies',
  active: false,
  purpose: '15c61c3' as const,
  description: 'Cookies and storage keys found on the website that no known service accounts for. Review them and move each to the embedding it belongs to.',
  translations: {
    de_DE: {
      name: 'Nicht zugeordnete Cookies',
      description: 'Cookies und Speicherschlüssel der Website, die keinem bekannten Dienst zugeordnet werden konnten. Bitte prüfen und dem passenden Dienst zuordnen.',
    },
    en_US: { name: 'Unrecognised cookies', description: 'Cookies and storage keys found on the website that no known service accounts for.' },
  },
  assets,
});

export type CookiePlan = {
  name: string;
  storageType: OnboardingCookie['storageType'];
  /** null: nobody recognised it; it goes to the "unrecognised" embedding. */
  rule: MatchRule | null;
  preset: { id: number; name: string } | null;
  /** The catalog name that matched (a pattern such as `_ga_*` for wildcard rules); null when only the domain did. */
  pattern: string | null;
};

export type EmbeddingPlan = {
  action: 'create' | 'extend';
  presetId: number | null;
  name: string;
  /** The embedding that gets the assets (extend only). */
  embeddingId: string | null;
  /** Names of the assets it gets. */
  assets: string[];
  /** Why the embedding is (or, being active, should be) inactive: its service is not blockable (see importPresets). */
  note: string | null;
};

export type EmbeddingsFromCookiesPlan = { cookies: CookiePlan[]; embeddings: EmbeddingPlan[] };

type Group = {
  key: string;
  entry: CatalogEntry | null;
  assets: Map<string, AssetCreate>;
  existing?: EmbeddingRow;
};

const assetKey = (asset: { name: string; storageType?: string | undefined }) => `${asset.storageType ?? 'cookie'} ${asset.name}`;

const sameName = (name: string) => name.trim().toLocaleLowerCase('en');

type EmbeddingHead = Pick<EmbeddingRow, 'id' | 'name' | 'catalogKey'>;

/**
 * The domain's embedding for each group, if it has one: the one onboarding made for that
 * service, else one the operator made by hand under the service's name (e.g. "YouTube").
 */
async function findExistingEmbeddings(em: EntityManager, candidates: EmbeddingHead[], groups: Map<string, Group>): Promise<void> {
  const chosen = new Map<string, string>();
  for (const group of groups.values()) {
    const byKey = candidates.find((embedding) => embedding.catalogKey === group.key);
    const byName = group.entry && candidates.find((embedding) => sameName(embedding.name) === sameName(group.entry!.name));
    const match = byKey ?? byName;
    if (match) chosen.set(match.id, group.key);
  }
  if (chosen.size === 0) return;
  const existing = await em.find(EmbeddingEntity, { id: { $in: [...chosen.keys()] } }, { populate: ['assets'] });
  for (const embedding of existing) groups.get(chosen.get(embedding.id)!)!.existing = embedding;
}

/** Works out what to create and extend; reads, never writes. */
async function plan(em: EntityManager, domain: DomainRow, cookies: OnboardingCookie[]) {
  const catalog = await loadCatalog(em);
  const present: EmbeddingHead[] = await em.find(
    EmbeddingEntity,
    { domain },
    { fields: ['id', 'name', 'catalogKey'], orderBy: { id: 'asc' }, disableIdentityMap: true },
  );
  // The services the domain has embeddings of are on the site too: `_ga` and `_gid` next to a GA4 embedding are GA4's.
  const configured = present.flatMap((embedding) => {
    const entry = catalog.byId(Number(/^preset:(\d+)$/.exec(embedding.catalogKey ?? '')?.[1]));
    return entry ? [entry] : [];
  });
  const groups = new Map<string, Group>();
  const owners = catalog.attribute(cookies, configured);
  const cookiePlans = cookies.map((cookie, index): CookiePlan => {
    const match = owners[index];
    const key = match ? presetKey(match.entry.id) : UNRECOGNISED;
    const group = groups.get(key) ?? { key, entry: match?.entry ?? null, assets: new Map() };
    groups.set(key, group);
    const asset: AssetCreate = match?.cookie
      ? { ...assetFromCatalog(match.cookie), storageType: match.cookie.storageType ?? cookie.storageType }
      : { name: cookie.name, storageType: cookie.storageType };
    if (!group.assets.has(assetKey(asset))) group.assets.set(assetKey(asset), asset);
    return {
      name: cookie.name,
      storageType: cookie.storageType,
      rule: match?.rule ?? null,
      preset: match ? { id: match.entry.id, name: match.entry.name } : null,
      pattern: match?.cookie?.name ?? null,
    };
  });

  await findExistingEmbeddings(em, present, groups);
  for (const group of groups.values()) {
    if (!group.existing) continue;
    const present = new Set(group.existing.assets.getItems().map(assetKey));
    for (const key of [...group.assets.keys()]) if (present.has(key)) group.assets.delete(key);
  }
  const embeddings = [...groups.values()]
    .filter((group) => !group.existing || group.assets.size > 0)
    .map(
      (group): EmbeddingPlan => ({
        action: group.existing ? 'extend' : 'create',
        presetId: group.entry?.id ?? null,
        name: group.existing?.name ?? group.entry?.name ?? unrecognisedEmbedding([]).name,
        embeddingId: group.existing?.id ?? null,
        assets: [...group.assets.values()].map((asset) => asset.name),
        note: (group.entry && unblockableImportNote(group.entry, group.existing?.active ?? false)) ?? null,
      }),
    );
  return { groups, plan: { cookies: cookiePlans, embeddings } };
}

/** The dry run: what `createEmbeddingsFromCookies` would do, without writing anything. */
export async function planEmbeddingsFromCookies(
  ctx: RequestContext,
  scope: DomainScope,
  cookies: OnboardingCookie[],
): Promise<EmbeddingsFromCookiesPlan> {
  const domain = await requireDomain(ctx, scope);
  return (await plan(ctx.em, domain, cookies)).plan;
}

/** Creates or extends the embeddings, all or nothing; returns those created or extended. */
export async function createEmbeddingsFromCookies(
  ctx: RequestContext,
  scope: DomainScope,
  cookies: OnboardingCookie[],
): Promise<Embedding[]> {
  return inTransaction(ctx, async (em) => {
    const domain = await requireDomain({ ...ctx, em, lock: true }, scope);
    const { groups } = await plan(em, domain, cookies);
    const written: [EmbeddingRow, ReturnType<typeof appendAssets>][] = [];
    for (const group of groups.values()) {
      const assets = [...group.assets.values()];
      if (group.existing) {
        if (assets.length > 0) written.push([group.existing, appendAssets(em, group.existing, assets)]);
        continue;
      }
      // A service the banner cannot hold back is documented, not offered (see importPresets).
      const input = group.entry ? { ...embeddingFromCatalog(group.entry, [], group.entry.blockable), assets } : unrecognisedEmbedding(assets);
      written.push(insertEmbedding(em, domain, input, group.key));
    }
    await em.flush();
    return written.map(([row, assets]) => toEmbedding(row, assets));
  });
}
