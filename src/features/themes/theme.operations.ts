import type { EntityManager } from '@mikro-orm/postgresql';
import { THEME_COLORS, THEME_FLAGS, type Theme, type ThemeCreate, themeDefaults, type ThemeUpdate } from '../../contract/theme.ts';
import type { RequestContext } from '../../context.ts';
import { columnsOf } from '../../db/read-model.ts';
import { inTransaction } from '../../db/transaction.ts';
import { notFound } from '../../errors.ts';
import { isId, newId } from '../../ids.ts';
import type { DomainRow } from '../domains/domain.entity.ts';
import { assertDomainScope, type DomainScope, itemsOfDomain, readDomain, requireDomain } from '../domains/domain.scope.ts';
import { ThemeEntity, type ThemeRecord, type ThemeRow } from './theme.entity.ts';

export type ThemeScope = DomainScope & { themeId: string };

export function toTheme(row: ThemeRecord): Theme {
  const pickAll = <K extends keyof ThemeRecord>(keys: readonly K[]) =>
    Object.fromEntries(keys.map((key) => [key, row[key]])) as Pick<ThemeRecord, K>;
  return {
    id: row.id,
    name: row.name,
    default: row.isDefault,
    ...pickAll(THEME_FLAGS),
    widgetButtons: row.widgetButtons,
    widgetPosition: row.widgetPosition,
    widgetSwitchType: row.widgetSwitchType,
    settingsIconTarget: row.settingsIconTarget,
    logoImage: row.logoImage ?? null,
    settingsIconImage: row.settingsIconImage ?? null,
    customCss: row.customCss,
    customCssForIframeBlocker: row.customCssForIframeBlocker,
    ...pickAll(THEME_COLORS),
  };
}

/** Payload fields → entity fields (`default` is stored as `isDefault`). */
function toRowFields(input: ThemeUpdate) {
  const { id: _ignored, default: isDefault, ...fields } = input;
  return { ...fields, ...(isDefault === undefined ? {} : { isDefault }) } as typeof fields & { isDefault?: boolean };
}

async function findTheme(em: EntityManager, domain: DomainRow, themeId: string): Promise<ThemeRow> {
  const row = isId(themeId) ? await em.findOne(ThemeEntity, { id: themeId, domain }) : null;
  if (!row) throw notFound(`theme ${themeId}`);
  return row;
}

/** At most one default theme per domain: making one default clears the flag on the others. */
async function clearOtherDefaults(em: EntityManager, domain: DomainRow, keep?: string) {
  await em.nativeUpdate(
    ThemeEntity,
    keep ? { domain, isDefault: true, id: { $ne: keep } } : { domain, isDefault: true },
    { isDefault: false },
  );
}

export async function listThemes(ctx: RequestContext, scope: DomainScope): Promise<Theme[]> {
  assertDomainScope(ctx.caller, scope);
  return (await itemsOfDomain(ctx, scope, await ctx.loaders.themesOfDomain.load(scope.domainId))).map(toTheme);
}

export async function getTheme(ctx: RequestContext, scope: ThemeScope): Promise<Theme> {
  assertDomainScope(ctx.caller, scope);
  const [row] = isId(scope.themeId)
    ? await ctx.em.execute<ThemeRecord[]>(
        `select ${columnsOf(ctx.em, ThemeEntity, 't')} from theme t join domain d on d.id = t.domain_id ` +
          'where t.id = ? and d.id = ? and d.client_id = ?',
        [scope.themeId, scope.domainId, scope.clientId],
      )
    : [];
  if (row) return toTheme(row);
  await readDomain(ctx, scope);
  throw notFound(`theme ${scope.themeId}`);
}

export async function createTheme(ctx: RequestContext, scope: DomainScope, input: ThemeCreate): Promise<Theme> {
  return inTransaction(ctx.em, async (em) => {
    const domain = await requireDomain({ ...ctx, em, lock: true }, scope);
    const { default: _default, ...defaults } = themeDefaults;
    const fields = { isDefault: themeDefaults.default, ...defaults, ...toRowFields(input) };
    if (fields.isDefault) await clearOtherDefaults(em, domain);
    const row = em.create(ThemeEntity, { ...fields, name: input.name, id: newId(), domain } as ThemeRow);
    await em.flush();
    return toTheme(row);
  });
}

export async function updateTheme(ctx: RequestContext, scope: ThemeScope, input: ThemeUpdate): Promise<Theme> {
  return inTransaction(ctx.em, async (em) => {
    const domain = await requireDomain({ ...ctx, em, lock: true }, scope);
    const row = await findTheme(em, domain, scope.themeId);
    const fields = toRowFields(input);
    if (fields.isDefault) await clearOtherDefaults(em, domain, row.id);
    em.assign(row, fields);
    await em.flush();
    return toTheme(row);
  });
}

export async function deleteTheme(ctx: RequestContext, scope: ThemeScope): Promise<void> {
  await inTransaction(ctx.em, async (em) => {
    const domain = await requireDomain({ ...ctx, em, lock: true }, scope);
    const deleted = isId(scope.themeId) ? await em.nativeDelete(ThemeEntity, { id: scope.themeId, domain }) : 0;
    if (deleted === 0) throw notFound(`theme ${scope.themeId}`);
  });
}
