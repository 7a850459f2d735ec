import type { BannerConfig } from '../banner-config.ts';
import { matchLocale } from '../locale-match.ts';

export { matchLocale };

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
