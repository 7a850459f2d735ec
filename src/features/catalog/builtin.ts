import type { Preset } from './preset.ts';
import { analyticsAndAds } from './services/analytics-and-ads.ts';
import { embedsAndWidgets } from './services/embeds-and-widgets.ts';

/** The built-in presets, versioned with the code. */
export const builtinPresets: readonly Preset[] = [...analyticsAndAds, ...embedsAndWidgets];
