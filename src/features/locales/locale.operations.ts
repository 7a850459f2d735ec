import type { EntityManager } from '@mikro-orm/postgresql';
import { type Locale, type LocaleCreate, type LocaleTexts, type LocaleUpdate } from './locale.contract.ts';
import { readingEm, type RequestContext } from '../../kernel/context.ts';
import { lockById } from '../../db/row-lock.ts';
import { inTransaction } from '../../db/transaction.ts';
import { localeName } from '../../kernel/contract/fields.ts';
import { conflict, invalid, notFound } from '../../kernel/errors.ts';
import { newId } from '../../kernel/ids.ts';
import { assertDomainScope, type DomainScope } from '../../kernel/access.ts';
import { itemsOfDomain, reachDomain } from '../domains/domain.access.ts';
import { DomainEntity, type DomainRow } from '../domains/domain.entity.ts';
import { domainLoader } from '../domains/domain.reads.ts';
import { defaultTextsFor } from './default-texts/index.ts';
import { LocaleEntity, type LocaleRow, type StoredTexts } from './locale.entity.ts';
import { localeRecord, localesOfDomainLoader } from './locale.reads.ts';
import { toLocale } from './locale.view.ts';

/**
 * The locales of a domain and its `locales` list (the names of the active ones, stored on the
 * domain so that every domain read stays one statement) change together, in one transaction:
 * a locale write updates the list, and a domain write of `locales` (syncLocalesOfDomain, which
 * the domains feature calls) activates and deactivates the locales.
 */

const DUPLICATE = { duplicate: 'the domain already has this locale' };

const isLocaleName = (name: string) => localeName.safeParse(name).success;

/** A locale name in the address that cannot be one: 400 (a well-formed name the domain lacks is 404). */
function checkName(name: string): void {
  if (!isLocaleName(name)) {
    throw invalid('invalid locale name', [
      { path: '', message: `the locale name in the address, "${name}", must be a locale name such as de_DE, en_US or a bare language such as fr` },
    ]);
  }
}

/** What a write of the texts stores: the current texts with those sent laid over them, purpose by purpose. */
function mergeTexts(current: StoredTexts, input: LocaleUpdate, defaults: LocaleTexts): LocaleTexts {
  const { name: _name, active: _active, purposeNames, purposeDescriptions, ...texts } = input;
  const base = { ...defaults, ...current };
  return {
    ...base,
    ...texts,
    purposeNames: { ...defaults.purposeNames, ...current.purposeNames, ...purposeNames },
    purposeDescriptions: { ...defaults.purposeDescriptions, ...current.purposeDescriptions, ...purposeDescriptions },
  };
}

/**
 * The domain's list with `name` active or not: a newly active locale goes to the end, the others
 * keep their places. A domain keeps at least one active locale (its `locales` is never empty).
 */
function listWith(locales: readonly string[], name: string, active: boolean): string[] {
  const others = locales.filter((other) => other !== name);
  const next = active ? (locales.includes(name) ? [...locales] : [...others, name]) : others;
  if (next.length === 0) {
    throw conflict(`locale ${name} is the domain's last active locale, and a domain keeps one; activate another one first`);
  }
  return next;
}

/** Sets the domain's list of active locales (written with the next flush), if it changed. */
function setDomainList(ctx: RequestContext, domain: DomainRow, next: string[]): void {
  if (next.length === domain.locales.length && next.every((name, i) => name === domain.locales[i])) return;
  domain.locales = next;
  domainLoader(ctx).clear(domain.id);
}

/** The domain row, locked: locale writes of one domain queue up, and its list stays whole. */
async function lockedDomain(em: EntityManager, domainId: string): Promise<DomainRow> {
  const domain = await lockById(em, DomainEntity, domainId);
  if (!domain) throw notFound(`domain ${domainId}`);
  return domain;
}

const byName = (a: Locale, b: Locale) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

export async function listLocales(ctx: RequestContext, scope: DomainScope): Promise<Locale[]> {
  assertDomainScope(ctx.caller, scope);
  return (await itemsOfDomain(ctx, scope, await localesOfDomainLoader(ctx).load(scope.domainId))).map(toLocale).sort(byName);
}

export async function getLocale(ctx: RequestContext, scope: DomainScope, name: string): Promise<Locale> {
  assertDomainScope(ctx.caller, scope);
  const row = isLocaleName(name) ? await localeRecord(readingEm(ctx), scope, name) : undefined;
  if (row) return toLocale(row);
  await reachDomain(ctx, scope); // 404 for the domain or client, if that is what is missing
  checkName(name);
  throw notFound(`locale ${name}`);
}

/** A new locale starts from the default texts of its language (English where there are none); what is sent replaces them. */
export async function createLocale(ctx: RequestContext, scope: DomainScope, input: LocaleCreate): Promise<Locale> {
  const { id: domainId } = await reachDomain(ctx, scope);
  return inTransaction(
    ctx,
    async (em) => {
      const domain = await lockedDomain(em, domainId);
      if ((await em.count(LocaleEntity, { domain: domainId, name: input.name })) > 0) throw conflict(DUPLICATE.duplicate);
      const active = input.active ?? true;
      const row = em.create(LocaleEntity, {
        id: newId(),
        domain: em.getReference(DomainEntity, domainId),
        name: input.name,
        active,
        texts: mergeTexts({}, input, defaultTextsFor(input.name)),
      });
      if (active) setDomainList(ctx, domain, listWith(domain.locales, input.name, true));
      await em.flush();
      return toLocale(row);
    },
    DUPLICATE,
  );
}

/** Changes the texts sent (purpose texts one purpose at a time) and `active`; the rest stays. */
export async function updateLocale(ctx: RequestContext, scope: DomainScope, name: string, input: LocaleUpdate): Promise<Locale> {
  if (input.name !== undefined && input.name !== name) {
    throw invalid('a locale cannot be renamed', [{ path: '/name', message: `must be absent or equal to the locale's name "${name}"` }]);
  }
  const { id: domainId } = await reachDomain(ctx, scope);
  checkName(name);
  return inTransaction(ctx, async (em) => {
    const domain = await lockedDomain(em, domainId);
    const row = await em.findOne(LocaleEntity, { domain: domainId, name });
    if (!row) throw notFound(`locale ${name}`);
    row.texts = mergeTexts(row.texts, input, defaultTextsFor(name));
    if (input.active !== undefined) row.active = input.active;
    setDomainList(ctx, domain, listWith(domain.locales, name, row.active));
    await em.flush();
    return toLocale(row);
  });
}

/** Deletes the locale and takes it off the domain's list; the domain's last active locale stays (409). */
export async function deleteLocale(ctx: RequestContext, scope: DomainScope, name: string): Promise<void> {
  const { id: domainId } = await reachDomain(ctx, scope);
  checkName(name);
  await inTransaction(ctx, async (em) => {
    const domain = await lockedDomain(em, domainId);
    const row = await em.findOne(LocaleEntity, { domain: domainId, name });
    if (!row) throw notFound(`locale ${name}`);
    if (row.active) setDomainList(ctx, domain, listWith(domain.locales, name, false));
    em.remove(row);
    await em.flush();
  });
}

/**
 * The other direction, for the domains feature's writes of `locales` (create and update), in
 * their transaction: the locales named become active, in that order, and are created from their
 * language's default texts where the domain has none yet; its other locales become inactive and
 * keep their texts. Two statements whatever the number of locales, plus one insert for new ones.
 */
export async function syncLocalesOfDomain(em: EntityManager, domainId: string, names: readonly string[]): Promise<void> {
  const rows: LocaleRow[] = await em.find(LocaleEntity, { domain: domainId });
  const existing = new Set(rows.map((row) => row.name));
  const wanted = new Set(names);
  for (const row of rows) row.active = wanted.has(row.name);
  for (const name of names) {
    if (existing.has(name)) continue;
    em.create(LocaleEntity, {
      id: newId(),
      domain: em.getReference(DomainEntity, domainId),
      name,
      active: true,
      texts: defaultTextsFor(name),
    });
  }
  await em.flush();
}
