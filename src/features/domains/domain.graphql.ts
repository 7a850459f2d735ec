import { type Domain, domainCreate, domainFields, domainUpdate } from './domain.contract.ts';
import { builder } from '../../graphql/builder.ts';
import { payloadInputFields, payloadObjectFields } from '../../graphql/field-list.ts';
import { ClientType } from '../clients/client.graphql.ts';
import { createDomain, deleteDomain, getDomain, listDomains, updateDomain } from './domain.operations.ts';
import type { GraphQLResolveInfo } from 'graphql';
import { assertDomainScope, type DomainScope } from '../../kernel/access.ts';
import { canReachClient, type RequestContext } from '../../kernel/context.ts';
import { isId } from '../../kernel/ids.ts';
import { declareList, declareTable, prefetched, type Root, selectList, selectNodes } from '../../graphql/selection-sql/index.ts';
import { DomainEntity, type DomainRecord } from './domain.entity.ts';
import { toDomain } from './domain.view.ts';
import { domainLoader, type OwnedDomainRecord } from './domain.reads.ts';

/** A domain as GraphQL sees it: the payload plus the client it belongs to, for nested fields. */
export type DomainNode = Domain & { clientId: string };

const domainNode = (clientId: string, domain: Domain): DomainNode => ({ ...domain, clientId });
export const scopeOf = (domain: DomainNode): DomainScope => ({ clientId: domain.clientId, domainId: domain.id });

export const DomainType = builder.objectRef<DomainNode>('Domain').implement({
  description: 'A website of a client, with everything its consent banner is made of.',
  fields: (t) => ({
    ...payloadObjectFields(t, domainFields, {}),
    clientId: t.exposeID('clientId'),
  }),
});

// ── compiled selections (src/graphql/selection-sql): a domain and its lists in one statement ──

declareTable({
  type: 'Domain',
  entity: DomainEntity,
  fields: domainFields,
  // `url` is the view's, from the stored address; `clientId` is the node's.
  reads: { url: ['scheme', 'host', 'port', 'path'], clientId: ['client'] },
  always: ['id', 'client'],
  toNode: (row) => domainNode(row.client as string, toDomain(row as unknown as DomainRecord)),
  // Fields left to their resolvers (scans, snippets, revisions, …) read the domain with `readDomain`:
  // it is in the request's loader then, as when the usual path has read it.
  keep: (ctx, record, row) => domainLoader(ctx).prime(row.id as string, { ...record, clientId: row.client } as OwnedDomainRecord),
});
// As domainsOfClientLoader reads them: by id.
declareList({ parent: 'Client', field: 'domains', child: 'Domain', foreignKey: 'client', orderBy: 'id' });

/** A domain by id and client; exact, as `readDomain` compares them (an upper-case id finds nothing there). */
const DOMAIN_OF_CLIENT: Root = { type: 'Domain', where: ['id', 'client'], exact: true };
/** A client by id, for its domains; exact, as the client's domains are grouped by its id. */
const CLIENT_BY_ID: Root = { type: 'Client', where: ['id'], exact: true };

/**
 * The domain with all the query selects below it, in one statement, once the access check that
 * `getDomain` starts with passes; undefined otherwise, and when nothing comes back: `getDomain`
 * then answers, with its own error.
 */
async function compiledDomain(ctx: RequestContext, info: GraphQLResolveInfo, scope: DomainScope): Promise<DomainNode | undefined> {
  try {
    assertDomainScope(ctx.caller, scope);
  } catch {
    return undefined;
  }
  const nodes = await selectNodes<DomainNode>(ctx, info, DOMAIN_OF_CLIENT, [scope.domainId, scope.clientId]);
  return nodes?.[0];
}

/** The client's domains with all the query selects below them, in one statement, as `listDomains` checks access first. */
async function compiledDomainsOf(ctx: RequestContext, info: GraphQLResolveInfo, clientId: string): Promise<DomainNode[] | undefined> {
  if (!isId(clientId) || !canReachClient(ctx.caller, clientId)) return undefined;
  return (await selectList<DomainNode>(ctx, info, CLIENT_BY_ID, 'domains', [clientId])) ?? undefined;
}

builder.objectFields(ClientType, (t) => ({
  domains: t.field({
    type: [DomainType],
    resolve: async (client, _, ctx, info) =>
      prefetched<DomainNode>(client, 'domains') ??
      (await compiledDomainsOf(ctx, info, client.id)) ??
      (await listDomains(ctx, { clientId: client.id })).map((domain) => domainNode(client.id, domain)),
  }),
  domain: t.field({
    type: DomainType,
    args: { id: t.arg.id({ required: true }) },
    resolve: async (client, { id }, ctx, info) =>
      (await compiledDomain(ctx, info, { clientId: client.id, domainId: id })) ??
      domainNode(client.id, await getDomain(ctx, { clientId: client.id, domainId: id })),
  }),
}));

const DomainCreateInput = builder.inputType('DomainCreateInput', {
  fields: (t) => payloadInputFields(t, domainFields, 'create', {}),
});
const DomainUpdateInput = builder.inputType('DomainUpdateInput', {
  fields: (t) => payloadInputFields(t, domainFields, 'update', {}),
});

builder.queryField('domain', (t) =>
  t.field({
    type: DomainType,
    description: 'One domain of a client; NOT_FOUND when either is unknown.',
    args: { clientId: t.arg.id({ required: true }), id: t.arg.id({ required: true }) },
    resolve: async (_, { clientId, id }, ctx, info) =>
      (await compiledDomain(ctx, info, { clientId, domainId: id })) ?? domainNode(clientId, await getDomain(ctx, { clientId, domainId: id })),
  }),
);

builder.mutationFields((t) => ({
  createDomain: t.field({
    type: DomainType,
    args: {
      clientId: t.arg.id({ required: true }),
      input: t.arg({ type: DomainCreateInput, required: true }).validate(domainCreate),
    },
    resolve: async (_, { clientId, input }, ctx) => domainNode(clientId, await createDomain(ctx, { clientId }, input)),
  }),
  updateDomain: t.field({
    type: DomainType,
    args: {
      clientId: t.arg.id({ required: true }),
      id: t.arg.id({ required: true }),
      input: t.arg({ type: DomainUpdateInput, required: true }).validate(domainUpdate),
    },
    resolve: async (_, { clientId, id, input }, ctx) =>
      domainNode(clientId, await updateDomain(ctx, { clientId, domainId: id }, input)),
  }),
  deleteDomain: t.id({
    description: 'Deletes the domain and everything it holds; returns its id.',
    args: { clientId: t.arg.id({ required: true }), id: t.arg.id({ required: true }) },
    resolve: async (_, { clientId, id }, ctx) => {
      await deleteDomain(ctx, { clientId, domainId: id });
      return id;
    },
  }),
}));
