/**
 * Contrast of two colours as WCAG 2.1 defines it: the relative luminance of each (sRGB, its
 * glossary's formula) and their ratio, (L1 + 0.05) / (L2 + 0.05) with L1 the lighter, from 1:1
 * (the same colour) to 21:1 (black and white). Success criterion 1.4.3 (level AA) asks 4.5:1 of
 * text, 3:1 of large text only; the banner's texts and button labels are normal-sized, so 4.5:1.
 */

/** The least contrast WCAG 2.1 AA asks of normal-sized text (success criterion 1.4.3). */
export const AA_TEXT_CONTRAST = 4.5;

/** A colour's red, green and blue, 0–255 each. */
export type Rgb = readonly [number, number, number];

/**
 * A theme colour: the theme contract takes `#rrggbb` only (src/kernel/contract/fields.ts,
 * `color()`), so there is no alpha to composite. Anything else (a value written past the contract)
 * is null, and the caller checks nothing of it.
 */
export function parseColour(value: string): Rgb | null {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(value);
  if (!match) return null;
  return [Number.parseInt(match[1]!, 16), Number.parseInt(match[2]!, 16), Number.parseInt(match[3]!, 16)];
}

/**
 * One sRGB channel, linearised. WCAG 2.1's text has 0.03928 where sRGB has 0.04045; no 8-bit
 * value lies between them (10/255 ≈ 0.0392, 11/255 ≈ 0.0431), so both give the same result.
 */
function linear(channel: number): number {
  const c = channel / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

/** Relative luminance: 0 for black, 1 for white. */
export function relativeLuminance([r, g, b]: Rgb): number {
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/** The contrast ratio of two colours, the same whichever comes first: 1 to 21. */
export function contrastRatio(a: Rgb, b: Rgb): number {
  const [lighter, darker] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (lighter + 0.05) / (darker + 0.05);
}

/**
 * A ratio as it is shown: two decimals, rounded; a ratio below 4.5 that would round up to 4.50
 * shows as 4.49, so that a warning never names a ratio that looks as if it passed.
 */
export function shownRatio(ratio: number): number {
  const rounded = Math.round(ratio * 100) / 100;
  return ratio < AA_TEXT_CONTRAST && rounded >= AA_TEXT_CONTRAST ? AA_TEXT_CONTRAST - 0.01 : rounded;
}
