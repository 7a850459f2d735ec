import { CONSENT_STORAGES, type Domain, domainCreate, domainUpdate } from './domain.contract.ts';
import { builder, oneOf } from '../../graphql/builder.ts';
import { createDomain, deleteDomain, getDomain, updateDomain } from './domain.operations.ts';
import type { DomainScope } from '../../kernel/access.ts';

/** A domain as GraphQL sees it: the payload plus the client it belongs to, for nested fields. */
export type DomainNode = Domain & { clientId: string };

export const domainNode = (clientId: string, domain: Domain): DomainNode => ({ ...domain, clientId });
export const scopeOf = (domain: DomainNode): DomainScope => ({ clientId: domain.clientId, domainId: domain.id });

export const DomainType = builder.objectRef<DomainNode>('Domain').implement({
  description: 'A website of a client, with everything its consent banner is made of.',
  fields: (t) => ({
    id: t.exposeID('id'),
    clientId: t.exposeID('clientId'),
    name: t.exposeString('name', { description: 'The bare host name.' }),
    path: t.exposeString('path', { description: 'The path of the site on its host (default "/").' }),
    url: t.exposeString('url', { description: 'The whole site address: scheme, host, port and path. A scan opens it.' }),
    country: t.exposeString('country', { nullable: true, description: 'ISO 3166-1 alpha-2 code, ZZ for unknown.' }),
    locales: t.exposeStringList('locales', { description: 'Active locale names, e.g. de_DE, en_US.' }),
    consentStorage: t.exposeString('consentStorage', { description: oneOf(CONSENT_STORAGES) }),
  }),
});

const domainInputFields = (required: boolean) =>
  builder.inputType(required ? 'DomainCreateInput' : 'DomainUpdateInput', {
    fields: (t) => ({
      name: t.string({
        required,
        description: 'A host name, optionally with scheme, port and path (www.example.org, https://www.example.org/shop/).',
      }),
      country: t.string({ description: 'ISO 3166-1 alpha-2 code, ZZ for unknown, or null.' }),
      locales: t.stringList(),
      consentStorage: t.string({ description: oneOf(CONSENT_STORAGES) }),
    }),
  });
const DomainCreateInput = domainInputFields(true);
const DomainUpdateInput = domainInputFields(false);

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
