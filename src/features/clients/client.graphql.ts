import { type Client, clientCreate, clientUpdate } from './client.contract.ts';
import { builder } from '../../graphql/builder.ts';
import { domainNode, DomainType } from '../domains/domain.graphql.ts';
import { getDomain, listDomains } from '../domains/domain.operations.ts';
import { createClient, deleteClient, getClient, listClients, updateClient } from './client.operations.ts';

export const ClientType = builder.objectRef<Client>('Client').implement({
  description: 'A customer account: an operator or agency with its domains.',
  fields: (t) => ({
    id: t.exposeID('id'),
    username: t.exposeString('username'),
    emailAddress: t.exposeString('emailAddress'),
    firstName: t.exposeString('firstName'),
    lastName: t.exposeString('lastName'),
    company: t.exposeString('company'),
    active: t.exposeBoolean('active'),
    domains: t.field({
      type: [DomainType],
      resolve: async (client, _, ctx) =>
        (await listDomains(ctx, { clientId: client.id })).map((domain) => domainNode(client.id, domain)),
    }),
    domain: t.field({
      type: DomainType,
      args: { id: t.arg.id({ required: true }) },
      resolve: async (client, { id }, ctx) =>
        domainNode(client.id, await getDomain(ctx, { clientId: client.id, domainId: id })),
    }),
  }),
});

const clientInput = (required: boolean) =>
  builder.inputType(required ? 'ClientCreateInput' : 'ClientUpdateInput', {
    fields: (t) => ({
      username: t.string({ required, description: 'Unique among all clients.' }),
      emailAddress: t.string({ required }),
      firstName: t.string(),
      lastName: t.string(),
      company: t.string(),
      active: t.boolean({ description: 'Default false.' }),
    }),
  });
const ClientCreateInput = clientInput(true);
const ClientUpdateInput = clientInput(false);

builder.queryFields((t) => ({
  clients: t.field({ type: [ClientType], resolve: (_, __, ctx) => listClients(ctx) }),
  client: t.field({
    type: ClientType,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_, { id }, ctx) => getClient(ctx, id),
  }),
}));

builder.mutationFields((t) => ({
  createClient: t.field({
    type: ClientType,
    args: { input: t.arg({ type: ClientCreateInput, required: true }).validate(clientCreate) },
    resolve: (_, { input }, ctx) => createClient(ctx, input),
  }),
  updateClient: t.field({
    type: ClientType,
    args: {
      id: t.arg.id({ required: true }),
      input: t.arg({ type: ClientUpdateInput, required: true }).validate(clientUpdate),
    },
    resolve: (_, { id, input }, ctx) => updateClient(ctx, id, input),
  }),
  deleteClient: t.id({
    description: 'Deletes the client and everything beneath it; returns its id.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_, { id }, ctx) => {
      await deleteClient(ctx, id);
      return id;
    },
  }),
}));
