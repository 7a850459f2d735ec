import { type Client, clientCreate, clientFields, clientUpdate } from './client.contract.ts';
import { builder } from '../../graphql/builder.ts';
import { payloadInputFields, payloadObjectFields } from '../../graphql/field-list.ts';
import { createClient, deleteClient, getClient, listClients, updateClient } from './client.operations.ts';

export const ClientType = builder.objectRef<Client>('Client').implement({
  description: 'A customer account: an operator or agency with its domains.',
  fields: (t) => payloadObjectFields(t, clientFields, {}),
});

const ClientCreateInput = builder.inputType('ClientCreateInput', {
  fields: (t) => payloadInputFields(t, clientFields, 'create', {}),
});
const ClientUpdateInput = builder.inputType('ClientUpdateInput', {
  fields: (t) => payloadInputFields(t, clientFields, 'update', {}),
});

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
