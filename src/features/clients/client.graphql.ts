import { type Client, CLIENT_FEATURES, clientCreate, clientFields, clientUpdate } from './client.contract.ts';
import { builder } from '../../graphql/builder.ts';
import { payloadInputFields, payloadObjectFields } from '../../graphql/field-list.ts';
import { createClient, deleteClient, findClient, getClient, listClients, updateClient } from './client.operations.ts';
import { declareTable, type Root, selectNodes } from '../../graphql/selection-sql/index.ts';
import { canReachClient } from '../../kernel/context.ts';
import { isId } from '../../kernel/ids.ts';
import { ClientEntity } from './client.entity.ts';
import { toClient } from './client.view.ts';

const ClientFeaturesType = builder.objectRef<Client['features']>('ClientFeatures').implement({
  description: 'What the client may use; each switch defaults to false.',
  fields: (t) => Object.fromEntries(CLIENT_FEATURES.map((name) => [name, t.exposeBoolean(name)])),
});

const ClientFeaturesInput = builder.inputType('ClientFeaturesInput', {
  description: 'Switches to set; those not sent keep their value (false on create).',
  fields: (t) => Object.fromEntries(CLIENT_FEATURES.map((name) => [name, t.boolean({ required: false })])),
});

export const ClientType = builder.objectRef<Client>('Client').implement({
  description: 'A customer account: an operator or agency with its domains. Its password is never sent.',
  fields: (t) =>
    payloadObjectFields(t, clientFields, {
      features: t.expose('features', { type: ClientFeaturesType }),
    }),
});

const ClientCreateInput = builder.inputType('ClientCreateInput', {
  fields: (t) => payloadInputFields(t, clientFields, 'create', { features: t.field({ type: ClientFeaturesInput }) }),
});
const ClientUpdateInput = builder.inputType('ClientUpdateInput', {
  fields: (t) => payloadInputFields(t, clientFields, 'update', { features: t.field({ type: ClientFeaturesInput }) }),
});

// ── compiled selections (src/graphql/selection-sql): a client and its domains in one statement ──

declareTable({
  type: 'Client',
  entity: ClientEntity,
  fields: clientFields,
  always: ['id'],
  // The view reads the counts (formulas) and the features only where they are selected.
  toNode: (row) => toClient(row as unknown as Parameters<typeof toClient>[0]),
});

/** As `getClient` finds a client (by primary key), and `listClients` every client or the caller's own, by id. */
const CLIENT_BY_ID: Root = { type: 'Client', where: ['id'] };
const EVERY_CLIENT: Root = { type: 'Client', where: [], orderBy: 'id' };
const OWN_CLIENT: Root = { type: 'Client', where: ['id'], orderBy: 'id' };

builder.queryFields((t) => ({
  clients: t.field({
    type: [ClientType],
    resolve: async (_, __, ctx, info) =>
      (ctx.caller.kind === 'admin'
        ? await selectNodes<Client>(ctx, info, EVERY_CLIENT, [])
        : await selectNodes<Client>(ctx, info, OWN_CLIENT, [ctx.caller.clientId])) ?? listClients(ctx),
  }),
  client: t.field({
    type: ClientType,
    args: { id: t.arg.id({ required: true }) },
    // The check `getClient` starts with; when it fails, or nothing comes back, `getClient` answers with its error.
    resolve: async (_, { id }, ctx, info) =>
      (isId(id) && canReachClient(ctx.caller, id) ? (await selectNodes<Client>(ctx, info, CLIENT_BY_ID, [id]))?.[0] : undefined) ??
      getClient(ctx, id),
  }),
  clientBySearchTerm: t.field({
    type: ClientType,
    description:
      "The client whose username is exactly `searchTerm`, or else whose e-mail address is `searchTerm` in any case (REST's clientgetid); NOT_FOUND when none is. A client key finds only its own client.",
    args: { searchTerm: t.arg.string({ required: true }) },
    resolve: (_, { searchTerm }, ctx) => findClient(ctx, searchTerm),
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
