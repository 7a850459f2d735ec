import { z } from 'zod';
import { fieldList, responseSchema } from '../../kernel/contract/field-list.ts';

/**
 * A banner warning: something in a domain's configuration that makes its banner hard to read,
 * nudges visitors towards accepting, or shows a placeholder unfilled (REST and GraphQL; this
 * service's own, not CCM19's). Read-only: computed on every read, never stored.
 */

export const BANNER_WARNING_KINDS = ['contrast', 'nudging', 'placeholder', 'country'] as const;

/** Each rule of banner-check.ts, with its kind. */
export const BANNER_WARNING_RULES = {
  textContrast: 'contrast',
  declineMissing: 'nudging',
  declineTextMissing: 'nudging',
  declineStyle: 'nudging',
  pageBlockedWithoutDecline: 'nudging',
  placeholderMissing: 'placeholder',
  countryOnlyInEu: 'country',
  countryLanguageMissing: 'country',
} as const satisfies Record<string, (typeof BANNER_WARNING_KINDS)[number]>;
export type BannerWarningRule = keyof typeof BANNER_WARNING_RULES;

const ruleNames = Object.keys(BANNER_WARNING_RULES) as [BannerWarningRule, ...BannerWarningRule[]];

export const bannerWarningFields = fieldList({
  kind: {
    read: z.enum(BANNER_WARNING_KINDS).meta({
      description:
        'contrast: a text and its background below 4.5:1 (WCAG 2.1 AA); nudging: the first layer makes declining harder than accepting; ' +
        'placeholder: a {Name} in an active locale that no placeholder fills; country: what the domain\'s `country` says of the banner (country-warnings.ts).',
    }),
  },
  rule: {
    read: z.enum(ruleNames).meta({
      description:
        'Which check: textContrast; declineMissing (no decline button beside accept), declineTextMissing (a locale without a decline label), ' +
        'declineStyle (decline styled otherwise than accept), pageBlockedWithoutDecline; placeholderMissing; ' +
        'countryOnlyInEu (a site in the EU, EEA, UK or Switzerland asks only visitors from there), countryLanguageMissing (no active locale in the country\'s most spoken language).',
    }),
  },
  path: {
    read: z.string().meta({
      description:
        "What to change, relative to the domain's address: `/theme/{themeId}/{field}`, `/locale/{name}/{field}`, `/placeholder/{name}`, or `/{setting}` of the domain itself.",
    }),
  },
  related: {
    read: z.array(z.string()).meta({
      description: 'Other fields that play a part, in the same form as `path`: the background of a contrast, the accept button’s colour, where a placeholder is used.',
    }),
  },
  message: { read: z.string().meta({ description: 'The warning in words.' }) },
  ratio: {
    read: z.number().nullable().meta({ description: 'contrast: the ratio, two decimals (4.48 for 4.48:1); null otherwise.' }),
  },
  foreground: { read: z.string().nullable().meta({ description: 'contrast: the text colour as the theme has it; null otherwise.' }) },
  background: { read: z.string().nullable().meta({ description: 'contrast: the background colour as the theme has it; null otherwise.' }) },
  placeholder: { read: z.string().nullable().meta({ description: 'placeholder: the name that no placeholder fills; null otherwise.' }) },
  locales: {
    read: z.array(z.string()).meta({ description: 'The active locales it concerns, in the order of the domain’s `locales`; empty when it concerns them all.' }),
  },
});

export const bannerWarningResponse = responseSchema(bannerWarningFields).meta({ id: 'BannerWarning' });
export type BannerWarning = z.output<typeof bannerWarningResponse>;

export const bannerWarningListResponse = z
  .array(bannerWarningResponse)
  .meta({ description: 'By kind (contrast, nudging, placeholder), then by path; empty when there is nothing to warn about.' });
