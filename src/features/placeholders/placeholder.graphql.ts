import {
  type Placeholder,
  placeholderCreate,
  placeholderFields,
  placeholderReplaceAll,
  placeholderUpdate,
} from './placeholder.contract.ts';
import { domainArgs } from '../../graphql/args.ts';
import { builder } from '../../graphql/builder.ts';
import { payloadInputFields, payloadObjectFields } from '../../graphql/field-list.ts';
import { DomainType, scopeOf } from '../domains/domain.graphql.ts';
import {
  createPlaceholder,
  deletePlaceholder,
  getPlaceholder,
  listPlaceholders,
  replacePlaceholders,
  updatePlaceholder,
} from './placeholder.operations.ts';
import { declareList, declareTable, prefetched } from '../../graphql/selection-sql/index.ts';
import { PlaceholderEntity } from './placeholder.entity.ts';
import { toPlaceholder } from './placeholder.view.ts';

export const PlaceholderType = builder.objectRef<Placeholder>('Placeholder').implement({
  description: 'A named text variable of a domain.',
  fields: (t) => payloadObjectFields(t, placeholderFields, {}),
});

const PlaceholderInput = builder.inputType('PlaceholderInput', {
  fields: (t) => payloadInputFields(t, placeholderFields, 'create', {}),
});
const PlaceholderUpdateInput = builder.inputType('PlaceholderUpdateInput', {
  fields: (t) => payloadInputFields(t, placeholderFields, 'update', {}),
});

// ── compiled selections (src/graphql/selection-sql): a domain's placeholders ──

declareTable({
  type: 'Placeholder',
  entity: PlaceholderEntity,
  fields: placeholderFields,
  always: ['id'],
  toNode: (row) => toPlaceholder(row as unknown as Parameters<typeof toPlaceholder>[0]),
});
// By id, as placeholdersOfDomainLoader reads them.
declareList({ parent: 'Domain', field: 'placeholders', child: 'Placeholder', foreignKey: 'domain', orderBy: 'id' });

builder.objectFields(DomainType, (t) => ({
  placeholders: t.field({
    type: [PlaceholderType],
    resolve: (domain, _, ctx) => prefetched<Placeholder>(domain, 'placeholders') ?? listPlaceholders(ctx, scopeOf(domain)),
  }),
  placeholder: t.field({
    type: PlaceholderType,
    args: { name: t.arg.string({ required: true }) },
    resolve: (domain, { name }, ctx) => getPlaceholder(ctx, scopeOf(domain), name),
  }),
}));

builder.mutationFields((t) => ({
  createPlaceholder: t.field({
    type: PlaceholderType,
    args: {
      ...domainArgs(t),
      input: t.arg({ type: PlaceholderInput, required: true }).validate(placeholderCreate),
    },
    resolve: (_, { input, ...scope }, ctx) => createPlaceholder(ctx, scope, input),
  }),
  replacePlaceholders: t.field({
    type: [PlaceholderType],
    description: "Replaces all of the domain's placeholders with these, in one transaction.",
    args: {
      ...domainArgs(t),
      placeholders: t.arg({ type: [PlaceholderInput], required: true }).validate(placeholderReplaceAll),
    },
    resolve: (_, { placeholders, ...scope }, ctx) => replacePlaceholders(ctx, scope, placeholders),
  }),
  updatePlaceholder: t.field({
    type: PlaceholderType,
    args: {
      ...domainArgs(t),
      name: t.arg.string({ required: true }),
      input: t.arg({ type: PlaceholderUpdateInput, required: true }).validate(placeholderUpdate),
    },
    resolve: (_, { name, input, ...scope }, ctx) => updatePlaceholder(ctx, scope, name, input),
  }),
  deletePlaceholder: t.string({
    description: "Deletes the placeholder; returns its name.",
    args: { ...domainArgs(t), name: t.arg.string({ required: true }) },
    resolve: async (_, { name, ...scope }, ctx) => {
      await deletePlaceholder(ctx, scope, name);
      return name;
    },
  }),
}));
