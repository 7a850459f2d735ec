import { z } from 'zod';
import { base64Image, color, readOnly, text, uniqueList } from './fields.ts';

/** Theme: the look of the consent banner (SERVICE.md §2). */

export const WIDGET_BUTTONS = ['accept', 'decline', 'cpanel'] as const;
export const WIDGET_POSITIONS = ['top', 'center', 'bottom', 'bottomleft', 'bottomright'] as const;
export const SETTINGS_ICON_TARGETS = ['main', 'purpose'] as const;

export const LOGO_MAX_BYTES = 512 * 1024;
export const SETTINGS_ICON_MAX_BYTES = 64 * 1024;

/** The on/off switches of a theme. */
export const THEME_FLAGS = [
  'widgetBlocking',
  'widgetCloseButton',
  'showPurposesInMainWindow',
  'settingsAcceptAllButton',
  'settingsCheckAndUncheckAllButtons',
  'settingsFooter',
  'complyWithDoNotTrack',
  'enableOnlyInEu',
  'manipulationPrevention',
  'logoEnabled',
  'settingsIconEnabled',
  'whitelabel',
] as const;
export type ThemeFlag = (typeof THEME_FLAGS)[number];

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

const flagFields = Object.fromEntries(THEME_FLAGS.map((flag) => [flag, z.boolean()])) as Record<
  ThemeFlag,
  z.ZodBoolean
>;
const colorFields = Object.fromEntries(THEME_COLORS.map((name) => [name, color()])) as Record<
  ThemeColor,
  ReturnType<typeof color>
>;

export const themeFields = {
  id: readOnly(),
  name: text().max(255, 'must be at most 255 characters'),
  default: z.boolean(),
  ...flagFields,
  widgetButtons: uniqueList(z.enum(WIDGET_BUTTONS)),
  widgetPosition: z.enum(WIDGET_POSITIONS),
  widgetSwitchType: text(),
  settingsIconTarget: z.enum(SETTINGS_ICON_TARGETS),
  logoImage: base64Image(LOGO_MAX_BYTES),
  settingsIconImage: base64Image(SETTINGS_ICON_MAX_BYTES),
  customCss: text(),
  customCssForIframeBlocker: text(),
  ...colorFields,
};

const requiredOnCreate = Object.fromEntries(
  ['name', ...THEME_COLORS].map((key) => [key, true as const]),
) as { name: true } & Record<ThemeColor, true>;

export const themeCreate = z.strictObject(themeFields).partial().required(requiredOnCreate);
export const themeUpdate = z.strictObject(themeFields).partial();

type WidgetButton = (typeof WIDGET_BUTTONS)[number];

/** Every field of a theme but its id, name and colours. */
export type ThemeSettings = Record<ThemeFlag, boolean> & {
  default: boolean;
  widgetButtons: WidgetButton[];
  widgetPosition: (typeof WIDGET_POSITIONS)[number];
  widgetSwitchType: string;
  settingsIconTarget: (typeof SETTINGS_ICON_TARGETS)[number];
  logoImage: string | null;
  settingsIconImage: string | null;
  customCss: string;
  customCssForIframeBlocker: string;
};

export const themeDefaults: ThemeSettings = {
  default: false,
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
  widgetButtons: ['accept', 'decline', 'cpanel'],
  widgetPosition: 'bottom',
  widgetSwitchType: '',
  settingsIconTarget: 'purpose',
  logoImage: null,
  settingsIconImage: null,
  customCss: '',
  customCssForIframeBlocker: '',
};

export type ThemeCreate = z.infer<typeof themeCreate>;
export type ThemeUpdate = z.infer<typeof themeUpdate>;

export type Theme = ThemeSettings & Record<ThemeColor, string> & { id: string; name: string };
