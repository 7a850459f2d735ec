import type { LocaleTexts } from '../locale.contract.ts';
import { de } from './de.ts';
import { en } from './en.ts';
import { es } from './es.ts';
import { fr } from './fr.ts';
import { it } from './it.ts';
import { nl } from './nl.ts';
import { pl } from './pl.ts';

/**
 * The texts a new locale starts with, by its language: `de_DE`, `de_AT` and a bare `de` all
 * start from the German texts. A language without texts of its own starts from the English ones.
 */
const BY_LANGUAGE: Readonly<Record<string, LocaleTexts>> = { de, en, es, fr, it, nl, pl };

/** The languages with default texts of their own. */
export const SHIPPED_LANGUAGES = Object.keys(BY_LANGUAGE);

/**
 * The `{placeholder}` references the default texts use: the names CCM19's documentation gives
 * for the placeholders every site should define (docs/funktionen/platzhalter.md and onboarding
 * step 4 of CCM19/ccm19doks): the operator's name, their privacy policy page, their imprint page
 * and their seat. A domain defines them as placeholders (`…/placeholder`); until it does, the
 * banner shows the reference as it is. There is none for an accessibility statement, so the
 * default `accessibilityUrl` leads to the imprint, which names whom to contact; the domain's
 * `accessibilityLinkEnabled` is off by default, so the link shows only once an operator sets it up.
 */
export const DEFAULT_TEXT_PLACEHOLDERS = ['FIRMA', 'Firma_Datenschutz', 'Firma_Impressum', 'Firma_Ort'] as const;

/** The language of a locale name: `de` of `de_DE`. */
const languageOf = (localeName: string): string => localeName.split('_')[0]!;


/** A fresh copy of the default texts of the locale's language, or of the English ones. */
export function defaultTextsFor(localeName: string): LocaleTexts {
  const language = languageOf(localeName);
  return structuredClone(Object.hasOwn(BY_LANGUAGE, language) ? BY_LANGUAGE[language]! : en);
}
