import type { BannerConfig } from '../banner-config.ts';

const normal = (tag: string) => tag.trim().replace(/-/g, '_').toLowerCase();
const language = (tag: string) => normal(tag).split('_')[0];

/** The configured locale for a tag such as `de`, `de-DE` or `de_DE`: the exact one first, else one of its language. */
export function matchLocale(locales: string[], tag: string | null | undefined): string | null {
  if (!tag || !tag.trim()) return null;
  return locales.find((locale) => normal(locale) === normal(tag)) ?? locales.find((locale) => language(locale) === language(tag)) ?? null;
}

/** The snippet's fixed locale, else the page's `<html lang>`, else the browser's languages in order, else the first locale. */
export function chooseLocale(config: BannerConfig, htmlLang: string, browserLanguages: readonly string[]): string {
  const { locales } = config;
  if (config.fixedLocale && locales.includes(config.fixedLocale)) return config.fixedLocale;
  for (const tag of [htmlLang, ...browserLanguages]) {
    const locale = matchLocale(locales, tag);
    if (locale) return locale;
  }
  return locales[0] ?? Object.keys(config.texts)[0] ?? '';
}

/** A per-locale value in the locale, else in any locale. */
export function inLocale<T>(values: Record<string, T>, locale: string): T | undefined {
  return values[locale] ?? Object.values(values)[0];
}
