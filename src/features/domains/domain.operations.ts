import { type Domain, type DomainCreate, domainDefaults, type DomainUpdate } from './domain.contract.ts';
import { parseSiteAddress, type SiteAddress } from '../../kernel/contract/site-address.ts';
import { canReachClient, type RequestContext } from '../../kernel/context.ts';
import { inTransaction } from '../../db/transaction.ts';
import { invalid, notFound } from '../../kernel/errors.ts';
import { isId, newId } from '../../kernel/ids.ts';
import { DomainEntity, type DomainRow } from './domain.entity.ts';
import { toDomain } from './domain.view.ts';
import { type ClientScope, type DomainScope } from '../../kernel/access.ts';
import { requireClient } from '../clients/client.access.ts';
import { readDomain, requireDomain } from './domain.access.ts';
import { domainLoader } from './domain.reads.ts';
import { domainsOfClientLoader } from './domain.reads.ts';

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
  return inTransaction(ctx.em, async (em) => {
    const client = await requireClient({ ...ctx, em }, scope.clientId);
    const row = em.create(DomainEntity, {
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
    return toDomain(row);
  });
}

export async function updateDomain(ctx: RequestContext, scope: DomainScope, input: DomainUpdate): Promise<Domain> {
  return inTransaction(ctx.em, async (em) => {
    const row = await requireDomain({ ...ctx, em, lock: true }, scope);
    const { id: _id, path: _path, url: _url, name, ...fields } = input;
    if (name !== undefined) em.assign(row, mergeAddress(row, name));
    em.assign(row, fields);
    await em.flush();
    domainLoader(ctx).clear(row.id);
    return toDomain(row);
  });
}

/** Deletes the domain and, through the database's cascades, everything it holds. */
export async function deleteDomain(ctx: RequestContext, scope: DomainScope): Promise<void> {
  await inTransaction(ctx.em, async (em) => {
    const row = await requireDomain({ ...ctx, em, lock: true }, scope);
    await em.nativeDelete(DomainEntity, { id: row.id });
  });
  domainLoader(ctx).clear(scope.domainId);
}
