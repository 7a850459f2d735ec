import { describe, expect, it } from 'vitest';
import { builtinPresets } from '../../../src/features/catalog/builtin.ts';
import { presetSchema } from '../../../src/features/catalog/preset.ts';

describe('the built-in preset catalog', () => {
  it('holds at least 80 services', () => {
    expect(builtinPresets.length).toBeGreaterThanOrEqual(80);
  });

  it.each(builtinPresets.map((preset) => [preset.id, preset.name, preset] as const))(
    'preset %i (%s) is complete and well-formed',
    (_, __, preset) => {
      const parsed = presetSchema.safeParse(preset);
      expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
      expect(preset.cookies.length + preset.signals.scripts.length + preset.signals.iframes.length).toBeGreaterThan(0);
      const cookieKeys = preset.cookies.map((cookie) => `${cookie.storageType}:${cookie.name}`);
      expect(new Set(cookieKeys).size, 'cookie names repeat').toBe(cookieKeys.length);
      for (const cookie of preset.cookies) expect(cookie.name.includes('*')).toBe(cookie.wildcard);
    },
  );

  it('has unique ids and unique names', () => {
    const ids = builtinPresets.map((preset) => preset.id);
    expect(new Set(ids).size).toBe(ids.length);
    const names = builtinPresets.map((preset) => preset.name.toLowerCase());
    expect(new Set(names).size).toBe(names.length);
  });

  it('covers the kinds of service a website typically embeds', () => {
    const categories = new Set(builtinPresets.map((preset) => preset.category));
    for (const category of ['analytics', 'tag-manager', 'advertising', 'social-media', 'video', 'maps', 'chat', 'fonts-and-cdn']) {
      expect(categories, category).toContain(category);
    }
  });
});
