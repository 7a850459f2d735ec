import { describe, expect, it } from 'vitest';
import { builtinPresets } from '../../../src/features/catalog/builtin.ts';
import { builtinCatalog, isBlockable, registrableDomain } from '../../../src/features/catalog/catalog.ts';
import { presetSchema } from '../../../src/features/catalog/preset.ts';

const signalCount = (preset: (typeof builtinPresets)[number]) =>
  preset.signals.scripts.length + preset.signals.iframes.length + (preset.signals.resources?.length ?? 0);

describe('the built-in preset catalog', () => {
  it('holds at least 80 services', () => {
    expect(builtinPresets.length).toBeGreaterThanOrEqual(80);
  });

  it.each(builtinPresets.map((preset) => [preset.id, preset.name, preset] as const))(
    'preset %i (%s) is complete and well-formed',
    (_, __, preset) => {
      const parsed = presetSchema.safeParse(preset);
      expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
      expect(preset.cookies.length + signalCount(preset)).toBeGreaterThan(0);
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

  it('names in alsoSetBy only other presets that exist, and only for cookies such a preset does not list itself', () => {
    const byId = new Map(builtinPresets.map((preset) => [preset.id, preset]));
    const shared = builtinPresets.flatMap((preset) => preset.cookies.flatMap((cookie) => (cookie.alsoSetBy ?? []).map((id) => ({ preset, cookie, id }))));
    expect(shared.length).toBeGreaterThan(0);
    for (const { preset, cookie, id } of shared) {
      expect(id, `${preset.name} ${cookie.name}`).not.toBe(preset.id);
      expect(byId.get(id)?.cookies.map((c) => c.name), `${preset.name} ${cookie.name}: ${id}`).not.toContain(cookie.name);
    }
  });

  it('declares own domains only where they add to the registrable domains of its signal hosts', () => {
    for (const preset of builtinPresets.filter((p) => p.domains)) {
      const { scripts, iframes, resources = [] } = preset.signals;
      const fromSignals = new Set([...scripts, ...iframes, ...resources].map((signal) => registrableDomain(signal.split('/')[0]!)));
      for (const domain of preset.domains!) expect(fromSignals.has(registrableDomain(domain)), `${preset.name}: ${domain}`).toBe(false);
    }
    expect(builtinPresets.find((preset) => preset.name === 'Meta Pixel')?.domains).toContain('facebook.com');
  });

  it('recognises every font and CDN service by the stylesheets or fonts it serves', () => {
    const fontsAndCdns = builtinPresets.filter((preset) => preset.category === 'fonts-and-cdn');
    expect(fontsAndCdns.map((preset) => preset.name)).toEqual(expect.arrayContaining(['Google Fonts', 'Adobe Fonts', 'Font Awesome', 'Bunny Fonts']));
    for (const preset of fontsAndCdns) expect(preset.signals.resources?.length, preset.name).toBeGreaterThan(0);
  });

  it('is blockable but for the services that show themselves only by stylesheets and fonts, which the banner cannot hold', () => {
    const catalog = builtinCatalog();
    expect(catalog.entries.filter((entry) => !entry.blockable).map((entry) => entry.name)).toEqual(['Google Fonts', 'Bunny Fonts']);
    // Google Fonts serves no scripts: its stylesheets and font files are all a site loads of it.
    expect(catalog.entries.find((entry) => entry.name === 'Google Fonts')?.signals).toEqual({
      scripts: [],
      iframes: [],
      resources: ['fonts.googleapis.com', 'fonts.gstatic.com'],
    });
    // Adobe Fonts and Font Awesome also load by a script (a project's JavaScript embed code, a kit), which the banner holds.
    expect(catalog.entries.filter((entry) => ['Adobe Fonts', 'Font Awesome'].includes(entry.name)).map((entry) => entry.blockable)).toEqual([true, true]);
    // Known by cookies alone (and so imported services): the banner clears those, the operator adds markers.
    expect(isBlockable({ scripts: [], iframes: [], resources: [] })).toBe(true);
    expect(isBlockable({ scripts: [], iframes: ['maps.example.com'], resources: ['fonts.example.com'] })).toBe(true);
    expect(isBlockable({ scripts: [], iframes: [], resources: ['fonts.example.com'] })).toBe(false);
  });

  it('covers the kinds of service a website typically embeds', () => {
    const categories = new Set(builtinPresets.map((preset) => preset.category));
    for (const category of ['analytics', 'tag-manager', 'advertising', 'social-media', 'video', 'maps', 'chat', 'fonts-and-cdn']) {
      expect(categories, category).toContain(category);
    }
  });
});
