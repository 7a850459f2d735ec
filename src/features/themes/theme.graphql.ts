import { type Theme, themeCreate, themeFields, themeUpdate } from './theme.contract.ts';
import { domainArgs } from '../../graphql/args.ts';
import { builder } from '../../graphql/builder.ts';
import { payloadInputFields, payloadObjectFields } from '../../graphql/field-list.ts';
import { DomainType, scopeOf } from '../domains/domain.graphql.ts';
import { createTheme, deleteTheme, getTheme, listThemes, updateTheme } from './theme.operations.ts';
import { declareList, declareTable, prefetched } from '../../graphql/selection-sql/index.ts';
import { ThemeEntity } from './theme.entity.ts';
import { toTheme } from './theme.view.ts';

const ThemeType = builder.objectRef<Theme>('Theme').implement({
  description: "The consent banner's look.",
  fields: (t) => payloadObjectFields(t, themeFields, {}),
});

const ThemeCreateInput = builder.inputType('ThemeCreateInput', {
  fields: (t) => payloadInputFields(t, themeFields, 'create', {}),
});
const ThemeUpdateInput = builder.inputType('ThemeUpdateInput', {
  fields: (t) => payloadInputFields(t, themeFields, 'update', {}),
});

const themeArgs = (t: Parameters<typeof domainArgs>[0]) => ({ ...domainArgs(t), themeId: t.arg.id({ required: true }) });

// ── compiled selections (src/graphql/selection-sql): a domain's themes ──

declareTable({
  type: 'Theme',
  entity: ThemeEntity,
  fields: themeFields,
  always: ['id'],
  toNode: (row) => toTheme(row as unknown as Parameters<typeof toTheme>[0]),
});
// By id, as themesOfDomainLoader reads them.
declareList({ parent: 'Domain', field: 'themes', child: 'Theme', foreignKey: 'domain', orderBy: 'id' });

builder.objectFields(DomainType, (t) => ({
  themes: t.field({
    type: [ThemeType],
    resolve: (domain, _, ctx) => prefetched<Theme>(domain, 'themes') ?? listThemes(ctx, scopeOf(domain)),
  }),
  theme: t.field({
    type: ThemeType,
    args: { id: t.arg.id({ required: true }) },
    resolve: (domain, { id }, ctx) => getTheme(ctx, { ...scopeOf(domain), themeId: id }),
  }),
}));

builder.mutationFields((t) => ({
  createTheme: t.field({
    type: ThemeType,
    args: { ...domainArgs(t), input: t.arg({ type: ThemeCreateInput, required: true }).validate(themeCreate) },
    resolve: (_, { input, ...scope }, ctx) => createTheme(ctx, scope, input),
  }),
  updateTheme: t.field({
    type: ThemeType,
    args: { ...themeArgs(t), input: t.arg({ type: ThemeUpdateInput, required: true }).validate(themeUpdate) },
    resolve: (_, { input, ...scope }, ctx) => updateTheme(ctx, scope, input),
  }),
  deleteTheme: t.id({
    description: 'Deletes the theme; returns its id.',
    args: themeArgs(t),
    resolve: async (_, scope, ctx) => {
      await deleteTheme(ctx, scope);
      return scope.themeId;
    },
  }),
}));
