import { type Domain, domainCreate, domainFields, domainUpdate } from './domain.contract.ts';
import { builder } from '../../graphql/builder.ts';
import { payloadInputFields, payloadObjectFields } from '../../graphql/field-list.ts';
import { ClientType } from '../clients/client.graphql.ts';
import { createDomain, deleteDomain, getDomain, listDomains, updateDomain } from './domain.operations.ts';
import type { DomainScope } from '../../kernel/access.ts';

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

builder.objectFields(ClientType, (t) => ({
  domains: t.field({
    type: [DomainType],
    resolve: async (client, _, ctx) =>
      (await listDomains(ctx, { clientId: client.id })).map((domain) => domainNode(client.id, domain)),
  }),
  domain: t.field({
    type: DomainType,
    args: { id: t.arg.id({ required: true }) },
    resolve: async (client, { id }, ctx) => domainNode(client.id, await getDomain(ctx, { clientId: client.id, domainId: id })),
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
    resolve: async (_, { clientId, id }, ctx) =>
      domainNode(clientId, await getDomain(ctx, { clientId, domainId: id })),
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
