import { type Domain, type DomainCreate, domainDefaults, type DomainUpdate } from './domain.contract.ts';
import { parseSiteAddress, type SiteAddress } from '../../kernel/contract/site-address.ts';
import type { EntityManager } from '@mikro-orm/postgresql';
import { canReachClient, isAdmin, type RequestContext } from '../../kernel/context.ts';
import { inTransaction } from '../../db/transaction.ts';
import { conflict, invalid, notFound } from '../../kernel/errors.ts';
import { isId, newId } from '../../kernel/ids.ts';
import { DomainEntity, type DomainRow } from './domain.entity.ts';
import { toDomain } from './domain.view.ts';
import { type ClientScope, type DomainScope } from '../../kernel/access.ts';
import { requireClient } from '../clients/client.access.ts';
import type { ClientRow } from '../clients/client.entity.ts';
import { readDomain, requireDomain } from './domain.access.ts';
import { forgetDomain } from './domain.reads.ts';
import { domainsOfClientLoader } from './domain.reads.ts';
import { assertMayUseFeatures, DOMAIN_GATES } from '../clients/feature-gates.ts';
import { assertTcfPossible } from '../tcf-vendors/tcf-cmp.ts';

function parseName(name: string) {
  const parsed = parseSiteAddress(name);
  if ('problem' in parsed) throw invalid('invalid domain name', [{ path: '/name', message: parsed.problem }]);
  return parsed;
}

/**
 * A new `name` on update: a full address (with scheme) replaces scheme, host, port and path;
 * a bare host changes the host and keeps what it does not spell out, so a client that reads a
 * domain (`name` is the bare host) and PUTs it back loses nothing.
 */
function mergeAddress(current: DomainRow, name: string): SiteAddress {
  const next = parseName(name);
  if (next.hasScheme) return next;
  return {
    scheme: current.scheme,
    host: next.host,
    port: next.hasPort ? next.port : (current.port ?? null),
    path: next.hasPath ? next.path : current.path,
  };
}

/**
 * Refuses a write that would take the client beyond its quotas (-1: unlimited): `more.domains`
 * domains and `more.whitelabel` whitelabel domains more than it has. Quotas bind the client's
 * own key; the administrator, who sets them, is not held to them. The caller holds the client's
 * row lock, so concurrent writes count one after the other.
 */
async function checkQuotas(
  ctx: RequestContext,
  em: EntityManager,
  client: Pick<ClientRow, 'id' | 'domainMaxCount' | 'whitelabelMaxCount'>,
  more: { domains: number; whitelabel: number },
): Promise<void> {
  if (isAdmin(ctx.caller)) return;
  const limits = [
    { more: more.domains, max: client.domainMaxCount, where: {}, what: 'domains', quota: 'domainMaxCount' },
    { more: more.whitelabel, max: client.whitelabelMaxCount, where: { whitelabel: true }, what: 'whitelabel domains', quota: 'whitelabelMaxCount' },
  ];
  for (const limit of limits) {
    if (limit.more === 0 || limit.max === -1) continue;
    const has = await em.count(DomainEntity, { client: client.id, ...limit.where });
    if (has + limit.more > limit.max) {
      throw conflict(`the client may have at most ${limit.max} ${limit.what} (${limit.quota}); it has ${has}`);
    }
  }
}

export async function listDomains(ctx: RequestContext, scope: ClientScope): Promise<Domain[]> {
  if (!isId(scope.clientId) || !canReachClient(ctx.caller, scope.clientId)) throw notFound(`client ${scope.clientId}`);
  const owned = await domainsOfClientLoader(ctx).load(scope.clientId);
  if (!owned) throw notFound(`client ${scope.clientId}`);
  return owned.items.map(toDomain);
}

export async function getDomain(ctx: RequestContext, scope: DomainScope): Promise<Domain> {
  return toDomain(await readDomain(ctx, scope));
}

export async function createDomain(ctx: RequestContext, scope: ClientScope, input: DomainCreate): Promise<Domain> {
  const { scheme, host, port, path } = parseName(input.name);
  await assertMayUseFeatures(ctx, scope.clientId, DOMAIN_GATES, input, async () => ({}));
  assertTcfPossible(ctx, input.tcfEnabled === true);
  return inTransaction(ctx, async (em) => {
    // Locked, so that concurrent creates count one after the other against the client's quotas.
    const client = await requireClient({ ...ctx, em, lock: true }, scope.clientId);
    await checkQuotas(ctx, em, client, { domains: 1, whitelabel: input.whitelabel === true ? 1 : 0 });
    const { id: _id, path: _path, url: _url, name: _name, ...settings } = input;
    const row = em.create(DomainEntity, {
      ...structuredClone(domainDefaults),
      ...settings,
      id: newId(),
      client,
      scheme,
      host,
      port,
      path,
      country: input.country === undefined ? domainDefaults.country : input.country,
      locales: input.locales ?? domainDefaults.locales,
      consentStorage: input.consentStorage ?? domainDefaults.consentStorage,
    });
    await em.flush();
    await ctx.services.syncLocalesOfDomain(em, row.id, row.locales); // the locales feature's texts for each
    return toDomain(row);
  });
}

export async function updateDomain(ctx: RequestContext, scope: DomainScope, input: DomainUpdate): Promise<Domain> {
  return inTransaction(ctx, async (em) => {
    // Making a domain whitelabel counts against the client's quota: the client is locked first,
    // in the order creates and the client's deletion take their locks (client, then domain).
    const client = input.whitelabel === true ? await requireClient({ ...ctx, em, lock: true }, scope.clientId) : undefined;
    const row = await requireDomain({ ...ctx, em, lock: true }, scope);
    const { id: _id, path: _path, url: _url, name, ...fields } = input;
    await assertMayUseFeatures({ ...ctx, em }, scope.clientId, DOMAIN_GATES, fields, async () => toDomain(row));
    assertTcfPossible(ctx, fields.tcfEnabled === true && !row.tcfEnabled);
    if (client && !row.whitelabel) await checkQuotas(ctx, em, client, { domains: 0, whitelabel: 1 });
    if (name !== undefined) em.assign(row, mergeAddress(row, name));
    em.assign(row, fields);
    await em.flush();
    if (fields.locales !== undefined) await ctx.services.syncLocalesOfDomain(em, row.id, row.locales);
    forgetDomain(ctx, row.id);
    return toDomain(row);
  });
}

/** Deletes the domain and, through the database's cascades, everything it holds. */
export async function deleteDomain(ctx: RequestContext, scope: DomainScope): Promise<void> {
  await inTransaction(ctx, async (em) => {
    const row = await requireDomain({ ...ctx, em, lock: true }, scope);
    await em.nativeDelete(DomainEntity, { id: row.id });
  });
  forgetDomain(ctx, scope.domainId);
}
