import { z } from 'zod';
import {
  createSchema,
  defaultsOf,
  fieldList,
  generatedId,
  responseSchema,
  updateSchema,
} from '../../kernel/contract/field-list.ts';
import { base64Image, color, text, uniqueList } from '../../kernel/contract/fields.ts';

/** Theme: the look of the consent banner (SERVICE.md §2). */

export const WIDGET_BUTTONS = ['accept', 'decline', 'cpanel'] as const;
export const WIDGET_POSITIONS = ['top', 'center', 'bottom', 'bottomleft', 'bottomright'] as const;
export const SETTINGS_ICON_TARGETS = ['main', 'purpose'] as const;

const LOGO_MAX_BYTES = 512 * 1024;
const SETTINGS_ICON_MAX_BYTES = 64 * 1024;

/** The on/off switches of a theme, with what a new theme has. */
const FLAG_DEFAULTS = {
  widgetBlocking: false,
  widgetCloseButton: false,
  showPurposesInMainWindow: true,
  settingsAcceptAllButton: true,
  settingsCheckAndUncheckAllButtons: false,
  settingsFooter: true,
  complyWithDoNotTrack: false,
  enableOnlyInEu: false,
  manipulationPrevention: false,
  logoEnabled: false,
  settingsIconEnabled: true,
  whitelabel: false,
} as const;
export type ThemeFlag = keyof typeof FLAG_DEFAULTS;
export const THEME_FLAGS = Object.keys(FLAG_DEFAULTS) as readonly ThemeFlag[];

/** The colours of a theme, each required when creating one. */
export const THEME_COLORS = [
  'primaryButtonBackgroundColor',
  'primaryButtonForegroundColor',
  'primaryButtonBorderColor',
  'declineButtonBackgroundColor',
  'declineButtonForegroundColor',
  'declineButtonBorderColor',
  'buttonBackgroundColor',
  'buttonForegroundColor',
  'buttonBorderColor',
  'windowBackgroundColor',
  'windowForegroundColor',
  'windowLinkColor',
  'windowBorderColor',
  'iframeBlockerBackgroundColor',
  'iframeBlockerForegroundColor',
  'iframeBlockerButtonBackgroundColor',
  'iframeBlockerButtonForegroundColor',
] as const;
export type ThemeColor = (typeof THEME_COLORS)[number];

const flagFields = Object.fromEntries(
  THEME_FLAGS.map((flag) => [flag, { write: z.boolean(), default: FLAG_DEFAULTS[flag] }]),
) as { [F in ThemeFlag]: { readonly write: z.ZodBoolean; readonly default: boolean } };

const colorFields = Object.fromEntries(
  THEME_COLORS.map((name) => [
    name,
    { write: color().meta({ description: 'A colour `#rrggbb`; required when creating a theme.' }), required: true },
  ]),
) as { [C in ThemeColor]: { readonly write: ReturnType<typeof color>; readonly required: true } };

/** What a CSS field of a theme may do to visitors (OpenAPI). */
const cssInjection = (styles: string, feature: string) =>
  `Code injection by design (as in CCM19): CSS added to every visitor's page to style ${styles}. CSS can restyle the whole page and make visitors' browsers fetch outside URLs, and so leak what the page holds (a selector on an attribute's value with a background from elsewhere). A client key may set or change it only while its client's feature \`${feature}\` is on (the default).`;

export const themeFields = fieldList({
  id: generatedId(),
  name: { write: text().max(255, 'must be at most 255 characters'), required: true },
  default: {
    write: z.boolean().meta({
      description: 'The default theme of the domain: at most one; making one default clears the flag on the others.',
    }),
    default: false,
    stored: 'isDefault',
  },
  ...flagFields,
  widgetButtons: {
    write: uniqueList(z.enum(WIDGET_BUTTONS)).meta({ description: 'The buttons of the banner, each at most once.' }),
    default: ['accept', 'decline', 'cpanel'],
  },
  widgetPosition: { write: z.enum(WIDGET_POSITIONS), default: 'bottom' },
  widgetSwitchType: { write: text(), default: '' },
  settingsIconTarget: {
    write: z.enum(SETTINGS_ICON_TARGETS).meta({ description: 'Default `purpose`.' }),
    default: 'purpose',
  },
  logoImage: {
    write: base64Image(LOGO_MAX_BYTES).meta({
      description: 'Base64 of a PNG or JPEG (checked by content), at most 512 KiB decoded; null removes it.',
    }),
    default: null,
  },
  settingsIconImage: {
    write: base64Image(SETTINGS_ICON_MAX_BYTES).meta({
      description: 'Base64 of a PNG or JPEG (checked by content), at most 64 KiB decoded; null removes it.',
    }),
    default: null,
  },
  customCss: {
    write: text().meta({ description: cssInjection('the banner', 'canUseIndCSS') }),
    default: '',
  },
  customCssForIframeBlocker: {
    write: text().meta({ description: cssInjection('the placeholders of blocked iframes', 'canUseIframeCSS') }),
    default: '',
  },
  ...colorFields,
});

export const themeCreate = createSchema(themeFields).meta({ id: 'ThemeCreate' });
export const themeUpdate = updateSchema(themeFields).meta({ id: 'ThemeUpdate' });
/** A theme as the service sends it: every field, defaults filled in. */
export const themeResponse = responseSchema(themeFields).meta({ id: 'Theme' });

export type Theme = z.output<typeof themeResponse>;
export type ThemeCreate = z.infer<typeof themeCreate>;
export type ThemeUpdate = z.infer<typeof themeUpdate>;

/** Every field of a theme but its id, name and colours. */
export type ThemeSettings = Omit<Theme, 'id' | 'name' | ThemeColor>;

/** What a new theme has where its create payload is silent: every field but the required ones. */
export const themeDefaults: ThemeSettings = defaultsOf(themeFields);
