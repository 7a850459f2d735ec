import { type ApiKey, apiKeyCreate, type CreatedApiKey } from './api-key.contract.ts';
import { builder } from '../../graphql/builder.ts';
import { ClientType } from '../clients/client.graphql.ts';
import { createApiKey, listApiKeys, revokeApiKey } from './api-key.operations.ts';

const ApiKeyType = builder.objectRef<ApiKey>('ApiKey').implement({
  description: 'An API key of a client; the key itself is shown only once, when created.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    prefix: t.exposeString('prefix', { description: 'The first characters of the key, to tell keys apart.' }),
    createdAt: t.exposeString('createdAt'),
  }),
});

const CreatedApiKeyType = builder.objectRef<CreatedApiKey>('CreatedApiKey').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    prefix: t.exposeString('prefix'),
    createdAt: t.exposeString('createdAt'),
    key: t.exposeString('key', { description: 'The key. Store it now: it cannot be read again.' }),
  }),
});

const ApiKeyInput = builder.inputType('ApiKeyInput', { fields: (t) => ({ name: t.string({ required: true }) }) });

builder.objectField(ClientType, 'apiKeys', (t) =>
  t.field({ type: [ApiKeyType], resolve: (client, _, ctx) => listApiKeys(ctx, client.id) }),
);

builder.mutationFields((t) => ({
  createApiKey: t.field({
    type: CreatedApiKeyType,
    args: { clientId: t.arg.id({ required: true }), input: t.arg({ type: ApiKeyInput, required: true }).validate(apiKeyCreate) },
    resolve: (_, { clientId, input }, ctx) => createApiKey(ctx, clientId, input),
  }),
  revokeApiKey: t.id({
    description: 'Revokes the key at once; returns its id.',
    args: { clientId: t.arg.id({ required: true }), id: t.arg.id({ required: true }) },
    resolve: async (_, { clientId, id }, ctx) => {
      await revokeApiKey(ctx, { clientId, keyId: id });
      return id;
    },
  }),
}));
