import { domainArgs } from '../../graphql/args.ts';
import { builder } from '../../graphql/builder.ts';
import { ClientType } from '../clients/client.graphql.ts';
import { DomainType, scopeOf } from '../domains/domain.graphql.ts';
import type { ScanFinding } from './scan-finding.contract.ts';
import { type Webhook, webhookInput } from './webhook.contract.ts';
import { deleteWebhook, dismissScanFinding, getWebhook, listFindings, setWebhook } from './permanent-scan.operations.ts';
import { ServiceError } from '../../kernel/errors.ts';

const ScanFindingType = builder.objectRef<ScanFinding>('ScanFinding').implement({
  description: 'Something the permanent scan found on the site that no embedding declares.',
  fields: (t) => ({
    id: t.exposeID('id'),
    kind: t.exposeString('kind', { description: 'cookie, storage or service.' }),
    name: t.exposeString('name'),
    detail: t.field({ type: 'JSON', description: 'cookie: {cookie}; storage: {storageType, name, origin}; service: {presetId, name, vendor}.', resolve: (f) => f.detail }),
    firstScanId: t.exposeID('firstScanId'),
    lastScanId: t.exposeID('lastScanId'),
    firstSeenAt: t.exposeString('firstSeenAt'),
    lastSeenAt: t.exposeString('lastSeenAt'),
    timesSeen: t.exposeInt('timesSeen'),
  }),
});

const WebhookType = builder.objectRef<Webhook>('Webhook').implement({
  description: "Where the permanent scan's findings are delivered, signed as Standard Webhooks.",
  fields: (t) => ({
    url: t.exposeString('url'),
    secret: t.exposeString('secret', { nullable: true, description: 'Only when it was just made (answered once).' }),
    secretHint: t.exposeString('secretHint'),
    createdAt: t.exposeString('createdAt'),
    updatedAt: t.exposeString('updatedAt'),
  }),
});

const WebhookInputType = builder.inputType('WebhookInput', {
  fields: (t) => ({
    url: t.string({ required: true }),
    rotateSecret: t.boolean({ required: false }),
  }),
});

builder.objectFields(DomainType, (t) => ({
  scanFindings: t.field({
    type: [ScanFindingType],
    description: 'What the permanent scan found that no embedding declares, newest first.',
    resolve: (domain, _, ctx) => listFindings(ctx, scopeOf(domain)),
  }),
}));

builder.objectField(ClientType, 'webhook', (t) =>
  t.field({
    type: WebhookType,
    nullable: true,
    resolve: (client, _, ctx) =>
      getWebhook(ctx, { clientId: client.id }).catch((error: unknown) => {
        if (error instanceof ServiceError && error.kind === 'not_found') return null;
        throw error;
      }),
  }),
);

builder.mutationFields((t) => ({
  dismissScanFinding: t.id({
    description: 'Dismisses a finding; returns its id (found again, it is recorded anew).',
    args: { ...domainArgs(t), id: t.arg.id({ required: true }) },
    resolve: async (_, { id, ...scope }, ctx) => {
      await dismissScanFinding(ctx, scope, id);
      return id;
    },
  }),
  setWebhook: t.field({
    type: WebhookType,
    args: { clientId: t.arg.id({ required: true }), input: t.arg({ type: WebhookInputType, required: true }).validate(webhookInput) },
    resolve: (_, { clientId, input }, ctx) => setWebhook(ctx, { clientId }, input),
  }),
  deleteWebhook: t.id({
    description: 'Removes the webhook; returns the client id.',
    args: { clientId: t.arg.id({ required: true }) },
    resolve: async (_, { clientId }, ctx) => {
      await deleteWebhook(ctx, { clientId });
      return clientId;
    },
  }),
}));
