import { type z } from 'zod';
import { list, localeName } from '../kernel/contract/fields.ts';

/**
 * GraphQL has no map type, so `translations` (locale → texts in REST) is a list of entries
 * with a `locale` field. These convert between the two shapes.
 */

export type TranslationEntry<T> = T & { locale: string };

export const toEntries = <T extends object>(translations: Record<string, T>): TranslationEntry<T>[] =>
  Object.entries(translations).map(([locale, texts]) => ({ ...texts, locale }));

/** The contract's per-locale schema, taken as a list of entries and turned into the map. */
export const translationEntries = <T extends z.ZodObject>(texts: T) =>
  list(texts.extend({ locale: localeName }) as unknown as z.ZodType<z.output<T> & { locale: string }>)
    .superRefine((entries, ctx) => {
      const seen = new Set<string>();
      entries.forEach((entry, index) => {
        if (seen.has(entry.locale)) {
          ctx.addIssue({ code: 'custom', path: [index, 'locale'], message: `repeats the locale ${entry.locale}` });
        }
        seen.add(entry.locale);
      });
    })
    .transform((entries) =>
      Object.fromEntries(entries.map(({ locale, ...texts }) => [locale, texts])) as Record<string, z.output<T>>,
    );
