/**
 * Matching a language tag to a domain's locales, the same on the server (the snippet's `lang`)
 * and in the browser (the page's and the visitor's languages): no Node, no DOM.
 */

const normal = (tag: string) => tag.trim().replace(/-/g, '_').toLowerCase();
const language = (tag: string) => normal(tag).split('_')[0];

/** The configured locale for a tag such as `de`, `de-DE` or `de_DE`: the exact one first, else one of its language. */
export function matchLocale(locales: readonly string[], tag: string | null | undefined): string | null {
  if (!tag || !tag.trim()) return null;
  return locales.find((locale) => normal(locale) === normal(tag)) ?? locales.find((locale) => language(locale) === language(tag)) ?? null;
}
