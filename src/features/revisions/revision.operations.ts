import { assertMayUseFeatures, THEME_GATES } from '../clients/feature-gates.ts';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../kernel/context.ts';
import { assertDomainScope, type DomainScope } from '../../kernel/access.ts';
import { inTransaction } from '../../db/transaction.ts';
import { invalid, notFound } from '../../kernel/errors.ts';
import { newId } from '../../kernel/ids.ts';
import type { PublishedConfiguration } from '../banner/published-configuration.ts';
import { assertMayChangeCode } from '../clients/code-permission.ts';
import { reachDomain, requireDomain } from '../domains/domain.access.ts';
import { domainUpdate } from '../domains/domain.contract.ts';
import { updateDomain } from '../domains/domain.operations.ts';
import { EmbeddingAssetEntity, EmbeddingEntity } from '../embeddings/embedding.entity.ts';
import { LocaleEntity } from '../locales/locale.entity.ts';
import { PlaceholderEntity } from '../placeholders/placeholder.entity.ts';
import { ThemeEntity } from '../themes/theme.entity.ts';
import { diffConfigurations } from './configuration-diff.ts';
import { restoresOfRequest } from './revision-recorder.ts';
import { readRevisions, type RevisionMeta, revisionsOf } from './revision-store.ts';
import type { Revision, RevisionDiff } from './revision.contract.ts';

const DEFAULT_PAGE = 20;

/**
 * Records what is due for the domain before its revisions are read: a write is answered before
 * its revision is kept (revision-recorder.ts), and what a caller was answered shows here, whichever
 * process answered it.
 */
const caughtUp = (ctx: RequestContext, domainId: string) => ctx.services.revisions.settle([domainId]);

const toRevision = ({ number, hash, legalHash, legal, createdAt, key, restoredFrom }: RevisionMeta): Revision => ({
  number,
  hash,
  legalHash,
  legal,
  createdAt,
  key,
  restoredFrom,
});

export async function listRevisions(
  ctx: RequestContext,
  scope: DomainScope,
  query: { before?: number; limit?: number } = {},
): Promise<{ revisions: Revision[]; nextCursor: string | null }> {
  const domain = await reachDomain(ctx, scope);
  await caughtUp(ctx, domain.id);
  const limit = query.limit ?? DEFAULT_PAGE;
  const rows = await revisionsOf(ctx.em, domain.id, { before: query.before ?? null, limit: limit + 1 });
  const page = rows.slice(0, limit);
  return { revisions: page.map(toRevision), nextCursor: rows.length > limit ? String(page.at(-1)!.number) : null };
}

async function revisionWithConfiguration(ctx: RequestContext, domainId: string, number: number) {
  const [revision] = await readRevisions(ctx.em, domainId, { numbers: [number] });
  if (!revision) throw notFound(`revision ${number}`);
  return revision;
}

export async function getRevision(
  ctx: RequestContext,
  scope: DomainScope,
  number: number,
): Promise<Revision & { configuration: PublishedConfiguration }> {
  const domain = await reachDomain(ctx, scope);
  await caughtUp(ctx, domain.id);
  const { configuration, ...meta } = await revisionWithConfiguration(ctx, domain.id, number);
  return { ...toRevision(meta), configuration };
}

/** The revision the banner showed under a content hash (the newest with it), or null. */
export async function revisionByHash(ctx: RequestContext, domainId: string, hash: string) {
  const [revision] = await readRevisions(ctx.em, domainId, { hash });
  return revision ?? null;
}

/** What changed between two revisions (`against` defaults to the newest one before `number`), older to newer. */
export async function diffRevisions(ctx: RequestContext, scope: DomainScope, number: number, against?: number): Promise<RevisionDiff> {
  const domain = await reachDomain(ctx, scope);
  await caughtUp(ctx, domain.id);
  // By default the one before it that is still kept (retention may have removed some in between).
  const other = against ?? (await revisionsOf(ctx.em, domain.id, { before: number, limit: 1 }))[0]?.number;
  if (other === undefined) {
    throw invalid(`revision ${number} has none before it`, [{ path: '/against', message: 'name the revision to compare with' }]);
  }
  const [older, newer] = [Math.min(number, other), Math.max(number, other)];
  const found = await readRevisions(ctx.em, domain.id, { numbers: [older, newer] });
  const from = found.find((revision) => revision.number === older);
  const to = found.find((revision) => revision.number === newer);
  if (!to || !from) throw notFound(`revision ${!to ? newer : older}`);
  return { from: older, to: newer, ...diffConfigurations(from.configuration, to.configuration) };
}

/**
 * Makes the domain's configuration what revision `number` held, as one write: a new revision
 * equal to it (history is never rewritten; if the configuration already equals it, nothing
 * changes). Objects the revision did not publish are kept, switched off where they would show:
 * embeddings it lacks become inactive, locales it lacks inactive (their texts kept). Embeddings
 * and assets come back with their ids, so consent records that name them still do. Holds the
 * domain's lock throughout: concurrent writes queue before or after it, as other writes do.
 */
export async function restoreRevision(ctx: RequestContext, scope: DomainScope, number: number): Promise<Revision> {
  assertDomainScope(ctx.caller, scope);
  await inTransaction(ctx, async (em) => {
    const inner = { ...ctx, em };
    const domain = await requireDomain({ ...inner, lock: true }, scope);
    const [revision] = await readRevisions(em, domain.id, { numbers: [number] });
    if (!revision) throw notFound(`revision ${number}`);
    const { configuration } = revision;
    await assertRestoreMayChangeCode(inner, scope.clientId, domain.id, configuration);
    restoresOfRequest(ctx).set(domain.id, number);
    await updateDomain(inner, scope, domainUpdate.parse(withoutReadOnly(configuration.domain)));
    await restoreEmbeddings(em, domain.id, configuration);
    await restorePlaceholders(em, domain.id, configuration);
    await restoreTheme(em, domain.id, configuration);
    await restoreLocales(em, domain.id, configuration);
  });
  await caughtUp(ctx, scope.domainId);
  const [newest] = await revisionsOf(ctx.em, scope.domainId, { before: null, limit: 1 });
  return toRevision(newest!);
}

/**
 * A restore writes the revision's script code and custom CSS back: for a client key, what it
 * would change is held to the client's switches as a write of those fields is.
 */
async function assertRestoreMayChangeCode(ctx: RequestContext, clientId: string, domainId: string, configuration: PublishedConfiguration): Promise<void> {
  for (const embedding of configuration.embeddings) {
    await assertMayChangeCode(ctx, clientId, [{ field: 'scriptHtmlCode', feature: 'canUseScripts', sent: embedding.scriptHtmlCode }], async () => {
      const row = await ctx.em.findOne(EmbeddingEntity, { id: embedding.id, domain: domainId }, { fields: ['scriptHtmlCode'] });
      return { scriptHtmlCode: row?.scriptHtmlCode ?? '' };
    });
  }
  const { theme } = configuration;
  if (!theme) return;
  const fields = [
    { field: 'customCss', feature: 'canUseIndCSS', sent: theme.customCss },
    { field: 'customCssForIframeBlocker', feature: 'canUseIframeCSS', sent: theme.customCssForIframeBlocker },
  ] as const;
  await assertMayChangeCode(ctx, clientId, fields, async () => {
    const row = await ctx.em.findOne(ThemeEntity, { id: theme.id, domain: domainId }, { fields: ['customCss', 'customCssForIframeBlocker'] });
    return { customCss: row?.customCss ?? '', customCssForIframeBlocker: row?.customCssForIframeBlocker ?? '' };
  });
  // The domain's governed settings are held to the switches by `updateDomain`, which the restore calls.
  await assertMayUseFeatures(ctx, clientId, THEME_GATES, theme, async () => {
    const row = await ctx.em.findOne(ThemeEntity, { id: theme.id, domain: domainId }, { fields: ['logoEnabled', 'logoImage'] });
    return { logoEnabled: row?.logoEnabled ?? false, logoImage: row?.logoImage ?? null };
  });
}

/** The domain payload without what a write ignores anyway (its id and address parts computed from the name). */
function withoutReadOnly(domain: PublishedConfiguration['domain']): Record<string, unknown> {
  const { id: _id, url: _url, ...rest } = domain as Record<string, unknown>;
  return rest;
}

async function restoreEmbeddings(em: EntityManager, domainId: string, configuration: PublishedConfiguration): Promise<void> {
  const ids = configuration.embeddings.map((embedding) => embedding.id);
  const now = new Date();
  await em.nativeUpdate(EmbeddingEntity, { domain: domainId, active: true, id: { $nin: ids } }, { active: false });
  for (const { id, assets, ...fields } of configuration.embeddings) {
    await em.upsert(EmbeddingEntity, { ...fields, id, domain: domainId, createdAt: now, updatedAt: now } as never, {
      onConflictExcludeFields: ['createdAt'] as never,
    });
    await em.nativeDelete(EmbeddingAssetEntity, { embedding: id });
    if (assets.length > 0) {
      await em.insertMany(
        EmbeddingAssetEntity,
        assets.map((asset, position) => ({ ...asset, position, embedding: id, createdAt: now, updatedAt: now })) as never[],
      );
    }
  }
}

async function restorePlaceholders(em: EntityManager, domainId: string, configuration: PublishedConfiguration): Promise<void> {
  await em.nativeDelete(PlaceholderEntity, { domain: domainId });
  if (configuration.placeholders.length > 0) {
    // New ids, in the revision's order: placeholders are listed by id, and their ids are not shown.
    await em.insertMany(
      PlaceholderEntity,
      configuration.placeholders.map((placeholder) => ({ ...placeholder, id: newId(), domain: domainId, createdAt: new Date(), updatedAt: new Date() })) as never[],
    );
  }
}

async function restoreTheme(em: EntityManager, domainId: string, configuration: PublishedConfiguration): Promise<void> {
  const { theme } = configuration;
  if (!theme) {
    // The revision's banner wore no theme: the domain had none.
    await em.nativeDelete(ThemeEntity, { domain: domainId });
    return;
  }
  const { id, default: isDefault, ...fields } = theme;
  await em.nativeUpdate(ThemeEntity, { domain: domainId, isDefault: true, id: { $ne: id } }, { isDefault: false });
  const now = new Date();
  await em.upsert(ThemeEntity, { ...fields, id, isDefault, domain: domainId, createdAt: now, updatedAt: now } as never, {
    onConflictExcludeFields: ['createdAt'] as never,
  });
}

async function restoreLocales(em: EntityManager, domainId: string, configuration: PublishedConfiguration): Promise<void> {
  // The domain's `locales` (restored with its settings) made exactly these active; their texts come back whole.
  for (const { name, active: _active, ...texts } of configuration.locales) {
    await em.nativeUpdate(LocaleEntity, { domain: domainId, name }, { texts: texts as never, updatedAt: new Date() } as never);
  }
}
