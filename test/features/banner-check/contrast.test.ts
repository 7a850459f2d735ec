import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bannerWarningsOf, type CheckedConfiguration } from '../../../src/features/banner-check/banner-check.ts';
import { AA_TEXT_CONTRAST, contrastRatio, parseColour, relativeLuminance, type Rgb, shownRatio } from '../../../src/features/banner-check/contrast.ts';
import { domainDefaults } from '../../../src/features/domains/domain.contract.ts';
import { defaultTextsFor } from '../../../src/features/locales/default-texts/index.ts';
import { THEME_COLORS, type Theme, themeDefaults } from '../../../src/features/themes/theme.contract.ts';
import { hexColour } from '../../support/arbitraries.ts';

/**
 * The contrast arithmetic of the banner check (WCAG 2.1: relative luminance of sRGB colours,
 * (L1 + 0.05) / (L2 + 0.05)), checked against pairs worked out by hand, as properties, and
 * against the look a domain without a theme wears.
 */

const rgb = (hex: string): Rgb => {
  const parsed = parseColour(hex);
  if (!parsed) throw new Error(`not a colour: ${hex}`);
  return parsed;
};
const ratioOf = (foreground: string, background: string) => contrastRatio(rgb(foreground), rgb(background));

describe('contrast ratio', () => {
  it('matches pairs worked out by hand', () => {
    // #777777: 0x77 / 255 = 0.46667, linear ((0.46667 + 0.055) / 1.055) ^ 2.4 = 0.18447; a grey's luminance is its
    // channel's, so (1 + 0.05) / (0.18447 + 0.05) = 4.478: the grey just too light on white.
    expect(ratioOf('#777777', '#ffffff')).toBeCloseTo(4.478, 3);
    expect(shownRatio(ratioOf('#777777', '#ffffff'))).toBe(4.48);
    // #767676: 0x76 / 255 = 0.46275, linear 0.18116, 1.05 / 0.23116 = 4.542: the lightest grey that passes on white.
    expect(ratioOf('#767676', '#ffffff')).toBeCloseTo(4.542, 3);
    expect(shownRatio(ratioOf('#767676', '#ffffff'))).toBe(4.54);
    // Pure red: luminance 0.2126, 1.05 / 0.2626 = 3.998.
    expect(shownRatio(ratioOf('#ff0000', '#ffffff'))).toBe(4);
    // #bbbbbb on #dddddd: linear 0.49693 and 0.72306, 0.77306 / 0.54693 = 1.413.
    expect(shownRatio(ratioOf('#bbbbbb', '#dddddd'))).toBe(1.41);
    expect(ratioOf('#000000', '#ffffff')).toBe(21);
  });

  it('gives luminance 0 to black and 1 to white, and reads either case', () => {
    expect(relativeLuminance(rgb('#000000'))).toBe(0);
    expect(relativeLuminance(rgb('#ffffff'))).toBe(1);
    expect(rgb('#A0b1C2')).toEqual([0xa0, 0xb1, 0xc2]);
  });

  it('reads only what the theme contract takes (#rrggbb): no alpha, no short form, no CSS functions', () => {
    for (const value of ['#fff', '#ffffff80', 'rgb(0, 0, 0)', 'white', '', 'ffffff', '#gggggg']) expect(parseColour(value), value).toBeNull();
  });

  it('shows a ratio with two decimals, and never rounds a failing ratio up to 4.50', () => {
    expect(shownRatio(4.494)).toBe(4.49);
    expect(shownRatio(4.4999)).toBe(4.49);
    expect(shownRatio(4.5)).toBe(4.5);
    expect(shownRatio(4.506)).toBe(4.51);
  });

  it('is symmetric, between 1 and 21, 1 for a colour against itself and 21 for black against white', () => {
    fc.assert(
      fc.property(hexColour, hexColour, (a, b) => {
        const ratio = ratioOf(a, b);
        expect(ratioOf(b, a)).toBe(ratio);
        expect(ratio).toBeGreaterThanOrEqual(1);
        expect(ratio).toBeLessThanOrEqual(21);
        expect(ratioOf(a, a)).toBe(1);
      }),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(fc.constantFrom('#000000'), fc.constantFrom('#ffffff', '#FFFFFF'), (black, white) => {
        expect(ratioOf(black, white)).toBe(21);
        expect(ratioOf(white, black)).toBe(21);
      }),
    );
  });
});

/** A domain's configuration as the check reads it: default settings and texts, placeholders filled. */
function configuration(theme: Theme | null): CheckedConfiguration {
  const locales = ['de_DE', 'en_US'].map((name) => ({ name, active: true, ...defaultTextsFor(name) }));
  const placeholders = ['FIRMA', 'Firma_Ort', 'Firma_Impressum', 'Firma_Datenschutz'].map((name) => ({ name, value: 'https://example.org/x' }));
  return { domain: { ...domainDefaults, id: 'd', name: 'example.org', path: '/', url: 'https://example.org/' } as never, theme, locales, placeholders };
}

/** A theme whose every colour is black, then `colours`. */
const themeWith = (colours: Partial<Record<(typeof THEME_COLORS)[number], string>>): Theme =>
  ({ id: 't', name: 'T', ...themeDefaults, ...Object.fromEntries(THEME_COLORS.map((c) => [c, '#000000'])), ...colours }) as Theme;

describe('the contrast rule of the banner check', () => {
  it('warns about the window text exactly when its contrast is below 4.5:1, naming the shown ratio and both colours', () => {
    fc.assert(
      fc.property(hexColour, hexColour, (text, background) => {
        // Links and the window background apart, every pair is black on black: pick the window text's warning out.
        const warnings = bannerWarningsOf(configuration(themeWith({ windowForegroundColor: text, windowBackgroundColor: background, windowLinkColor: '#000000' })));
        const warning = warnings.find((w) => w.path === '/theme/t/windowForegroundColor');
        const ratio = ratioOf(text, background);
        if (ratio >= AA_TEXT_CONTRAST) {
          expect(warning).toBeUndefined();
          return;
        }
        expect(warning).toMatchObject({
          kind: 'contrast',
          rule: 'textContrast',
          related: ['/theme/t/windowBackgroundColor'],
          ratio: shownRatio(ratio),
          foreground: text,
          background,
          placeholder: null,
          locales: [],
        });
        expect(warning!.message).toContain(`${shownRatio(ratio).toFixed(2)}:1`);
      }),
      { numRuns: 300 },
    );
  });
});

// ── the look of a domain without a theme ────────────────────────────────────

const require = createRequire(import.meta.url);

/** The first value of each custom property in a library's stylesheet (its light look comes first). */
function customProperties(file: string): Map<string, string> {
  const css = readFileSync(require.resolve(file), 'utf8');
  const values = new Map<string, string>();
  for (const [, name, value] of css.matchAll(/(--[\w-]+):([^;}]+)/g)) if (!values.has(name!)) values.set(name!, value!.trim());
  return values;
}

/** A CSS colour of the libraries' stylesheets: #rgb, #rrggbb, var(--x), or rgba() composited over `under`. */
function cssColour(values: Map<string, string>, value: string, under?: Rgb): Rgb {
  const variable = /^var\((--[\w-]+)\)$/.exec(value);
  if (variable) return cssColour(values, values.get(variable[1]!)!, under);
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(value);
  if (short) return rgb(`#${short[1]!.repeat(2)}${short[2]!.repeat(2)}${short[3]!.repeat(2)}`);
  const rgba = /^rgba\((\d+),(\d+),(\d+),([\d.]+)\)$/.exec(value);
  if (rgba) {
    if (!under) throw new Error(`${value} needs a colour to lie on`);
    const alpha = Number(rgba[4]);
    return [1, 2, 3].map((i, channel) => Math.round(alpha * Number(rgba[i]) + (1 - alpha) * under[channel]!)) as unknown as Rgb;
  }
  return rgb(value);
}

describe('a domain without a theme', () => {
  it('wears the libraries’ own look, whose texts all pass AA: nothing of contrast to warn about', () => {
    const cc = customProperties('vanilla-cookieconsent/dist/cookieconsent.css');
    const im = customProperties('@orestbida/iframemanager/dist/iframemanager.css');
    const colour = (values: Map<string, string>, name: string, under?: Rgb) => cssColour(values, values.get(name)!, under);
    const imBackground = colour(im, '--im-bg');
    const pairs: [string, Rgb, Rgb][] = [
      ['text', colour(cc, '--cc-primary-color'), colour(cc, '--cc-bg')],
      ['secondary text', colour(cc, '--cc-secondary-color'), colour(cc, '--cc-bg')],
      ['links', colour(cc, '--cc-link-color'), colour(cc, '--cc-bg')],
      // equalWeightButtons: accept and decline both wear the primary look.
      ['accept and decline buttons', colour(cc, '--cc-btn-primary-color'), colour(cc, '--cc-btn-primary-bg')],
      ['settings button', colour(cc, '--cc-btn-secondary-color'), colour(cc, '--cc-btn-secondary-bg')],
      ['footer', colour(cc, '--cc-footer-color'), colour(cc, '--cc-footer-bg')],
      ['blocked content', colour(im, '--im-color'), imBackground],
      // The button is translucent: composited over the blocker's background.
      ['blocked content button', colour(im, '--im-btn-color'), colour(im, '--im-btn-bg', imBackground)],
    ];
    const failing = pairs.filter(([, text, background]) => contrastRatio(text, background) < AA_TEXT_CONTRAST);
    expect(failing.map(([what, text, background]) => `${what}: ${contrastRatio(text, background).toFixed(2)}`)).toEqual([]);
    expect(bannerWarningsOf(configuration(null))).toEqual([]);
  });
});
