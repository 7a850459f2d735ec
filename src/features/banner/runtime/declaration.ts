import type { BannerConfig } from '../banner-config.ts';
import { matchLocale } from './locale.ts';

/** Fills each `<div class="ccm-cookie-declaration" [data-lang]>` with the declaration in its language (else the banner's). */
export function fillCookieDeclarations(config: BannerConfig, locale: string): void {
  document.querySelectorAll<HTMLElement>('div.ccm-cookie-declaration').forEach((declaration) => {
    const wanted = matchLocale(config.locales, declaration.getAttribute('data-lang')) ?? locale;
    const texts = config.texts[wanted] ?? config.texts[locale];
    if (texts) declaration.innerHTML = texts.cookieDeclaration;
  });
}
