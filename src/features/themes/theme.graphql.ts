import {
  SETTINGS_ICON_TARGETS,
  THEME_COLORS,
  THEME_FLAGS,
  type Theme,
  themeCreate,
  themeUpdate,
  WIDGET_BUTTONS,
  WIDGET_POSITIONS,
} from './theme.contract.ts';
import { domainArgs } from '../../graphql/args.ts';
import { builder, oneOf } from '../../graphql/builder.ts';
import { DomainType, scopeOf } from '../domains/domain.graphql.ts';
import { createTheme, deleteTheme, getTheme, listThemes, updateTheme } from './theme.operations.ts';

const COLOR = 'A colour of the form #rrggbb.';
const IMAGE = 'base64 of a PNG or JPEG (checked by content), or null for none.';

export const ThemeType = builder.objectRef<Theme>('Theme').implement({
  description: "The consent banner's look.",
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    default: t.exposeBoolean('default', { description: 'At most one theme per domain is the default.' }),
    ...Object.fromEntries(THEME_FLAGS.map((flag) => [flag, t.exposeBoolean(flag)])),
    widgetButtons: t.exposeStringList('widgetButtons', { description: oneOf(WIDGET_BUTTONS, 'Each of') }),
    widgetPosition: t.exposeString('widgetPosition', { description: oneOf(WIDGET_POSITIONS) }),
    widgetSwitchType: t.exposeString('widgetSwitchType'),
    settingsIconTarget: t.exposeString('settingsIconTarget', { description: oneOf(SETTINGS_ICON_TARGETS) }),
    logoImage: t.exposeString('logoImage', { nullable: true, description: IMAGE }),
    settingsIconImage: t.exposeString('settingsIconImage', { nullable: true, description: IMAGE }),
    customCss: t.exposeString('customCss'),
    customCssForIframeBlocker: t.exposeString('customCssForIframeBlocker'),
    ...Object.fromEntries(THEME_COLORS.map((name) => [name, t.exposeString(name, { description: COLOR })])),
  }),
});

const themeInput = (required: boolean) =>
  builder.inputType(required ? 'ThemeCreateInput' : 'ThemeUpdateInput', {
    fields: (t) => ({
      name: t.string({ required }),
      default: t.boolean({ description: 'Making a theme the default clears the flag on the others.' }),
      ...Object.fromEntries(THEME_FLAGS.map((flag) => [flag, t.boolean()])),
      widgetButtons: t.stringList({ description: oneOf(WIDGET_BUTTONS, 'Each of') }),
      widgetPosition: t.string({ description: oneOf(WIDGET_POSITIONS) }),
      widgetSwitchType: t.string(),
      settingsIconTarget: t.string({ description: oneOf(SETTINGS_ICON_TARGETS) }),
      logoImage: t.string({ description: `${IMAGE} At most 512 KiB.` }),
      settingsIconImage: t.string({ description: `${IMAGE} At most 64 KiB.` }),
      customCss: t.string(),
      customCssForIframeBlocker: t.string(),
      ...Object.fromEntries(THEME_COLORS.map((name) => [name, t.string({ required, description: COLOR })])),
    }),
  });
const ThemeCreateInput = themeInput(true);
const ThemeUpdateInput = themeInput(false);

const themeArgs = (t: Parameters<typeof domainArgs>[0]) => ({ ...domainArgs(t), themeId: t.arg.id({ required: true }) });

builder.objectFields(DomainType, (t) => ({
  themes: t.field({ type: [ThemeType], resolve: (domain, _, ctx) => listThemes(ctx, scopeOf(domain)) }),
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
