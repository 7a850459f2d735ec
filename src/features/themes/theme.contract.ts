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

/** What the flags that add parts to the banner or guard it do for the visitor (src/features/banner/theme-modes.build.ts). */
const THEME_MODE_DESCRIPTIONS = {
  showPurposesInMainWindow:
    'Every purpose of the banner with a switch in the first layer, a Save button beside “accept all” and “decline”, and the settings button as a text link below them (CCM19). ' +
    'Where CCM19 leaves it open, the visitor is protected: the switches start off (the necessary purpose on and locked) unless the visitor chose before; Save consents to exactly the purposes switched on; ' +
    'what is switched there is carried into the settings until a choice is saved. A domain without a theme shows no purposes in the first layer.',
  settingsFooter:
    'The first layer’s links (imprint, privacy policy, accessibility statement where enabled) at the foot of the settings (the second layer) too. CCM19 has it off by default; ' +
    'here it is on, as for a domain without a theme, so that who processes what stays in reach wherever the visitor chooses.',
  settingsCheckAndUncheckAllButtons:
    'Two buttons above the purposes in the settings, “check all” and “uncheck all” (the locale’s `checkAllButtonText` and `uncheckAllButtonText`), switching every purpose and service that can be switched. ' +
    'Nothing is saved until the visitor saves; the necessary purpose stays on.',
  settingsAcceptAllButton:
    'The settings (the second layer) have an “accept all” button (the locale’s `categoriesFullConsentButtonText`), as in CCM19; off, they have none, and only the decline and save buttons remain. ' +
    'On by default, as for a domain without a theme.',
  manipulationPrevention:
    'As in CCM19: a click a script simulates (not the visitor’s own: `element.click()`, a dispatched event) on what consents (“accept all”, Save, “check all”, a switch or its label) does nothing; ' +
    'scripts that rework taps (such as fastclick) can trip it. Beyond CCM19’s text, to protect the visitor: a banner that a page script or an extension removes or hides (stylesheets, classes, attributes, ' +
    '`CCM.closeWidget()`) before the visitor chose comes back at once, or within a second for rules added through the CSSOM; meanwhile nothing is released, as without a choice. ' +
    'Off by default, as before (CCM19 advises leaving it on).',
} as const;
const themeModeFields = Object.fromEntries(
  Object.entries(THEME_MODE_DESCRIPTIONS).map(([flag, description]) => [flag, { write: z.boolean().meta({ description }), default: FLAG_DEFAULTS[flag as ThemeFlag] }]),
) as { [F in keyof typeof THEME_MODE_DESCRIPTIONS]: { readonly write: z.ZodBoolean; readonly default: boolean } };

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
  enableOnlyInEu: {
    write: z.boolean().meta({
      description:
        'Ask only visitors in the EU/EEA, the United Kingdom and Switzerland (with the EU\'s outermost regions, Åland, the Crown Dependencies and Gibraltar). ' +
        'Any other visitor gets what CCM19 gives them: every service, without a banner, unless their browser sends Do Not Track or Global Privacy Control and `complyWithDoNotTrack` is on. ' +
        'Where CCM19 leaves it open, the visitor is protected: a visitor whose country cannot be told (loopback or private addresses, no answer within 3 s, an unknown or anonymising code) is asked; ' +
        'a choice the visitor made wins; the services they get by default are not stored as a consent and send no consent record, and the settings button stays to make a choice. ' +
        'The country comes from the CDN header the operator trusts (`COUNTRY_HEADER`), else from the address by an IP-to-country database (`COUNTRY_DATABASE`, default the shipped one).',
    }),
    default: FLAG_DEFAULTS.enableOnlyInEu,
  },
  widgetButtons: {
    write: uniqueList(z.enum(WIDGET_BUTTONS)).meta({ description: 'The buttons of the banner, each at most once.' }),
    default: ['accept', 'decline', 'cpanel'],
  },
  widgetPosition: { write: z.enum(WIDGET_POSITIONS), default: 'bottom' },
  widgetSwitchType: {
    write: text().meta({
      description:
        'How the banner draws the choices of purposes and services: `checkbox` (any value starting with `check`) as checkboxes, anything else (`switch`, the default empty value) as switches. Only the look changes; every choice starts off either way.',
    }),
    default: '',
  },
  ...themeModeFields,
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

export const themeCreate = createSchema(themeFields).meta({
  id: 'ThemeCreate',
  examples: [
    {
      name: 'Corporate',
      widgetPosition: 'bottom',
      primaryButtonBackgroundColor: '#1d4ed8',
      primaryButtonForegroundColor: '#ffffff',
      primaryButtonBorderColor: '#1d4ed8',
      declineButtonBackgroundColor: '#1d4ed8',
      declineButtonForegroundColor: '#ffffff',
      declineButtonBorderColor: '#1d4ed8',
      buttonBackgroundColor: '#ffffff',
      buttonForegroundColor: '#1d4ed8',
      buttonBorderColor: '#1d4ed8',
      windowBackgroundColor: '#ffffff',
      windowForegroundColor: '#1f2937',
      windowLinkColor: '#1d4ed8',
      windowBorderColor: '#d1d5db',
      iframeBlockerBackgroundColor: '#f3f4f6',
      iframeBlockerForegroundColor: '#1f2937',
      iframeBlockerButtonBackgroundColor: '#1d4ed8',
      iframeBlockerButtonForegroundColor: '#ffffff',
    },
  ],
});
export const themeUpdate = updateSchema(themeFields).meta({ id: 'ThemeUpdate', examples: [{ widgetPosition: 'bottomright', windowLinkColor: '#1e40af' }] });
/** A theme as the service sends it: every field, defaults filled in. */
export const themeResponse = responseSchema(themeFields).meta({ id: 'Theme' });

export type Theme = z.output<typeof themeResponse>;
export type ThemeCreate = z.infer<typeof themeCreate>;
export type ThemeUpdate = z.infer<typeof themeUpdate>;

/** Every field of a theme but its id, name and colours. */
export type ThemeSettings = Omit<Theme, 'id' | 'name' | ThemeColor>;

/** What a new theme has where its create payload is silent: every field but the required ones. */
export const themeDefaults: ThemeSettings = defaultsOf(themeFields);
