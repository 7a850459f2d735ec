import type { EntityManager } from '@mikro-orm/postgresql';
import { type Theme, type ThemeCreate, themeDefaults, type ThemeUpdate } from './theme.contract.ts';
import { readingEm, type RequestContext } from '../../kernel/context.ts';
import { lockById } from '../../db/row-lock.ts';
import { inTransaction } from '../../db/transaction.ts';
import { notFound } from '../../kernel/errors.ts';
import { isId, newId } from '../../kernel/ids.ts';
import { DomainEntity } from '../domains/domain.entity.ts';
import { assertDomainScope, type DomainScope } from '../../kernel/access.ts';
import { itemsOfDomain, reachDomain } from '../domains/domain.access.ts';
import { ThemeEntity, type ThemeRow } from './theme.entity.ts';
import { assertMayChangeCode } from '../clients/code-permission.ts';
import { assertMayUseFeatures, THEME_GATES } from '../clients/feature-gates.ts';
import { themeRecord, themesOfDomainLoader } from './theme.reads.ts';
import { toTheme } from './theme.view.ts';

export type ThemeScope = DomainScope & { themeId: string };

/** Payload fields → entity fields (`default` is stored as `isDefault`). */
function toRowFields(input: ThemeUpdate) {
  const { id: _ignored, default: isDefault, ...fields } = input;
  return { ...fields, ...(isDefault === undefined ? {} : { isDefault }) } as typeof fields & { isDefault?: boolean };
}

async function findTheme(em: EntityManager, domainId: string, themeId: string): Promise<ThemeRow> {
  const row = isId(themeId) ? await em.findOne(ThemeEntity, { id: themeId, domain: domainId }) : null;
  if (!row) throw notFound(`theme ${themeId}`);
  return row;
}

/** The theme's CSS as stored (in a unit of work of its own: the operation's must not hold a partly loaded theme). */
async function storedCss(em: EntityManager, domainId: string, themeId: string) {
  if (!isId(themeId)) return undefined;
  return (await em.findOne(ThemeEntity, { id: themeId, domain: domainId }, { fields: ['customCss', 'customCssForIframeBlocker'] })) ?? undefined;
}

async function storedLogo(em: EntityManager, domainId: string, themeId: string) {
  if (!isId(themeId)) return undefined;
  return (await em.findOne(ThemeEntity, { id: themeId, domain: domainId }, { fields: ['logoEnabled', 'logoImage'] })) ?? undefined;
}

/** At most one default theme per domain: making one default clears the flag on the others. */
async function clearOtherDefaults(em: EntityManager, domainId: string, keep?: string) {
  await em.nativeUpdate(
    ThemeEntity,
    keep ? { domain: domainId, isDefault: true, id: { $ne: keep } } : { domain: domainId, isDefault: true },
    { isDefault: false },
  );
}

export async function listThemes(ctx: RequestContext, scope: DomainScope): Promise<Theme[]> {
  assertDomainScope(ctx.caller, scope);
  return (await itemsOfDomain(ctx, scope, await themesOfDomainLoader(ctx).load(scope.domainId))).map(toTheme);
}

export async function getTheme(ctx: RequestContext, scope: ThemeScope): Promise<Theme> {
  assertDomainScope(ctx.caller, scope);
  const row = isId(scope.themeId) ? await themeRecord(readingEm(ctx), scope) : undefined;
  if (row) return toTheme(row);
  await reachDomain(ctx, scope);
  throw notFound(`theme ${scope.themeId}`);
}

/**
 * Making a theme the default touches the domain's other themes, so those writes lock the domain
 * row first and queue up; other theme writes need no lock.
 */
const lockDomain = (em: EntityManager, domainId: string) => lockById(em, DomainEntity, domainId);

/** The theme's fields that hold code run on visitors' pages (CSS can fetch outside URLs), as a write sends them. */
const codeFields = (input: ThemeUpdate) =>
  [
    { field: 'customCss', feature: 'canUseIndCSS', sent: input.customCss },
    { field: 'customCssForIframeBlocker', feature: 'canUseIframeCSS', sent: input.customCssForIframeBlocker },
  ] as const;

export async function createTheme(ctx: RequestContext, scope: DomainScope, input: ThemeCreate): Promise<Theme> {
  const domain = await reachDomain(ctx, scope);
  await assertMayChangeCode(ctx, scope.clientId, codeFields(input), async () => themeDefaults);
  await assertMayUseFeatures(ctx, scope.clientId, THEME_GATES, input, async () => ({}));
  return inTransaction(ctx, async (em) => {
    const { default: _default, ...defaults } = themeDefaults;
    const fields = { isDefault: themeDefaults.default, ...defaults, ...toRowFields(input) };
    if (fields.isDefault) {
      await lockDomain(em, domain.id);
      await clearOtherDefaults(em, domain.id);
    }
    const row = em.create(ThemeEntity, {
      ...fields,
      name: input.name,
      id: newId(),
      domain: em.getReference(DomainEntity, domain.id),
    } as ThemeRow);
    await em.flush();
    return toTheme(row);
  });
}

export async function updateTheme(ctx: RequestContext, scope: ThemeScope, input: ThemeUpdate): Promise<Theme> {
  const domain = await reachDomain(ctx, scope);
  await assertMayChangeCode(ctx, scope.clientId, codeFields(input), () => storedCss(ctx.em.fork(), domain.id, scope.themeId));
  await assertMayUseFeatures(ctx, scope.clientId, THEME_GATES, input, () => storedLogo(ctx.em.fork(), domain.id, scope.themeId));
  return inTransaction(ctx, async (em) => {
    const fields = toRowFields(input);
    if (fields.isDefault) await lockDomain(em, domain.id);
    const row = await findTheme(em, domain.id, scope.themeId);
    if (fields.isDefault) await clearOtherDefaults(em, domain.id, row.id);
    em.assign(row, fields);
    await em.flush();
    return toTheme(row);
  });
}

export async function deleteTheme(ctx: RequestContext, scope: ThemeScope): Promise<void> {
  const domain = await reachDomain(ctx, scope);
  if (!isId(scope.themeId)) throw notFound(`theme ${scope.themeId}`);
  // In a transaction of its own, so that the configuration it leaves is kept as a revision.
  await inTransaction(ctx, async (em) => {
    if ((await em.nativeDelete(ThemeEntity, { id: scope.themeId, domain: domain.id })) === 0) throw notFound(`theme ${scope.themeId}`);
  });
}
