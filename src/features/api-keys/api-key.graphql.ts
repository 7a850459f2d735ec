import { type ApiKey, apiKeyCreate, apiKeyFields, type CreatedApiKey, createdApiKeyFields } from './api-key.contract.ts';
import { builder } from '../../graphql/builder.ts';
import { payloadInputFields, payloadObjectFields } from '../../graphql/field-list.ts';
import { ClientType } from '../clients/client.graphql.ts';
import { createApiKey, listApiKeys, revokeApiKey, revokeOtherApiKeys } from './api-key.operations.ts';

const ApiKeyType = builder.objectRef<ApiKey>('ApiKey').implement({
  description: 'An API key of a client; the key itself is shown only once, when created.',
  fields: (t) => payloadObjectFields(t, apiKeyFields, {}),
});

const CreatedApiKeyType = builder.objectRef<CreatedApiKey>('CreatedApiKey').implement({
  fields: (t) => payloadObjectFields(t, createdApiKeyFields, {}),
});

const ApiKeyInput = builder.inputType('ApiKeyInput', {
  fields: (t) => payloadInputFields(t, apiKeyFields, 'create', {}),
});

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
  revokeOtherApiKeys: t.idList({
    description:
      "After a leak: revokes every API key of the client but the one asking (the administrator: every key); returns their ids. A key made by another key may not (FORBIDDEN).",
    args: { clientId: t.arg.id({ required: true }) },
    resolve: async (_, { clientId }, ctx) => (await revokeOtherApiKeys(ctx, clientId)).revoked,
  }),
}));
