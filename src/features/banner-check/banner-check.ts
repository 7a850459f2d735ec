import { PURPOSES, type PurposeId } from '../../kernel/contract/fields.ts';
import type { PublishedConfiguration } from '../banner/published-configuration.ts';
import { linkTarget, PLACEHOLDER_REFERENCE, placeholderFiller } from '../banner/texts.ts';
import { type Locale, LOCALE_TEXT_KEYS } from '../locales/locale.contract.ts';
import { missingPlaceholderNames } from '../onboarding/missing-placeholders.ts';
import { type Theme, type ThemeColor, themeDefaults } from '../themes/theme.contract.ts';
import { BANNER_WARNING_KINDS, BANNER_WARNING_RULES, type BannerWarning } from './banner-warning.contract.ts';
import { AA_TEXT_CONTRAST, contrastRatio, parseColour, shownRatio } from './contrast.ts';
import { countryWarnings } from './country-warnings.ts';

/**
 * The banner check: what a domain's banner, as the banner builds it (src/features/banner/
 * banner-config.build.ts: the default theme, else the first; the active locales; the
 * placeholders), shows that is hard to read, that nudges visitors towards accepting, or that
 * shows a placeholder unfilled. Sources of the rules:
 *
 * - contrast: WCAG 2.1, success criterion 1.4.3 (AA), 4.5:1 for text (contrast.ts).
 * - nudging: the EDPB's Cookie Banner Taskforce report (17 January 2023: no reject button on the
 *   first layer; deceptive button colours and contrast) and the DSK's Orientierungshilfe für
 *   Anbieter:innen von Telemedien (December 2021, revised December 2022): where the first layer
 *   offers to accept everything, it offers to refuse as easily, and neither is made to look the
 *   lesser choice.
 * - placeholder: the banner fills `{Name}` from the domain's placeholders and shows a reference
 *   to none as written (texts.ts); an address that is no address then is left out.
 *
 * A domain without a theme wears the libraries' own look (vanilla-cookieconsent and
 * iframemanager: `themeCss` sends no CSS then), whose text colours pass AA and whose first layer
 * gives accept and decline one style (`equalWeightButtons`): nothing of contrast or style to
 * check. A theme's `customCss` may restyle anything; it is not read here.
 */

export type CheckedConfiguration = Pick<PublishedConfiguration, 'domain' | 'theme' | 'locales' | 'placeholders'>;

/** The text colours of a theme on their backgrounds, with what they colour. */
const TEXT_PAIRS: readonly { what: string; foreground: ThemeColor; background: ThemeColor }[] = [
  { what: 'The banner’s text', foreground: 'windowForegroundColor', background: 'windowBackgroundColor' },
  { what: 'The banner’s links', foreground: 'windowLinkColor', background: 'windowBackgroundColor' },
  { what: 'The accept button', foreground: 'primaryButtonForegroundColor', background: 'primaryButtonBackgroundColor' },
  { what: 'The decline button', foreground: 'declineButtonForegroundColor', background: 'declineButtonBackgroundColor' },
  { what: 'The settings and save buttons', foreground: 'buttonForegroundColor', background: 'buttonBackgroundColor' },
  { what: 'The text over blocked content', foreground: 'iframeBlockerForegroundColor', background: 'iframeBlockerBackgroundColor' },
  { what: 'The button over blocked content', foreground: 'iframeBlockerButtonForegroundColor', background: 'iframeBlockerButtonBackgroundColor' },
];

/** The decline button's colours beside the accept button's: equal weight is the same look. */
const STYLE_PAIRS: readonly { what: string; decline: ThemeColor; accept: ThemeColor }[] = [
  { what: 'background', decline: 'declineButtonBackgroundColor', accept: 'primaryButtonBackgroundColor' },
  { what: 'text colour', decline: 'declineButtonForegroundColor', accept: 'primaryButtonForegroundColor' },
  { what: 'border', decline: 'declineButtonBorderColor', accept: 'primaryButtonBorderColor' },
];

const TASKFORCE = 'EDPB cookie banner taskforce, 2023';
const DSK = 'DSK Orientierungshilfe Telemedien, 2021';

type Warning = Pick<BannerWarning, 'rule' | 'path' | 'message'> & Partial<Omit<BannerWarning, 'kind' | 'rule' | 'path' | 'message'>>;

const complete = (warning: Warning): BannerWarning => ({
  kind: BANNER_WARNING_RULES[warning.rule],
  rule: warning.rule,
  path: warning.path,
  related: warning.related ?? [],
  message: warning.message,
  ratio: warning.ratio ?? null,
  foreground: warning.foreground ?? null,
  background: warning.background ?? null,
  placeholder: warning.placeholder ?? null,
  locales: warning.locales ?? [],
});

const KIND_ORDER = new Map(BANNER_WARNING_KINDS.map((kind, index) => [kind, index]));
const RULE_ORDER = new Map(Object.keys(BANNER_WARNING_RULES).map((rule, index) => [rule, index]));
/** Code-unit order, the same on every machine (no locale collation). */
const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Every warning about the configuration: by kind, then path, then rule. */
export function bannerWarningsOf(configuration: CheckedConfiguration): BannerWarning[] {
  const warnings = [
    ...contrastWarnings(configuration.theme),
    ...nudgingWarnings(configuration),
    ...placeholderWarnings(configuration),
    ...countryWarnings(configuration),
  ];
  return warnings
    .map(complete)
    .sort(
      (a, b) =>
        KIND_ORDER.get(a.kind)! - KIND_ORDER.get(b.kind)! ||
        byCodeUnits(a.path, b.path) ||
        RULE_ORDER.get(a.rule)! - RULE_ORDER.get(b.rule)!,
    );
}

const themePath = (theme: Theme, field: string) => `/theme/${theme.id}/${field}`;
const localePath = (locale: Locale, field: string) => `/locale/${locale.name}/${field}`;

// ── contrast ────────────────────────────────────────────────────────────────

function contrastWarnings(theme: Theme | null): Warning[] {
  if (!theme) return [];
  return TEXT_PAIRS.flatMap(({ what, foreground, background }) => {
    const [text, behind] = [parseColour(theme[foreground]), parseColour(theme[background])];
    if (!text || !behind) return [];
    const ratio = contrastRatio(text, behind);
    if (ratio >= AA_TEXT_CONTRAST) return [];
    const shown = shownRatio(ratio);
    return [
      {
        rule: 'textContrast',
        path: themePath(theme, foreground),
        related: [themePath(theme, background)],
        message:
          `${what} (${theme[foreground]} on ${theme[background]}) has a contrast of ${shown.toFixed(2)}:1, ` +
          `below the ${AA_TEXT_CONTRAST}:1 that WCAG 2.1 AA asks of text (success criterion 1.4.3).`,
        ratio: shown,
        foreground: theme[foreground],
        background: theme[background],
      },
    ];
  });
}

// ── nudging ─────────────────────────────────────────────────────────────────

/** The buttons of the first layer, as banner-config.build.ts decides them. */
function firstLayer({ domain, theme }: CheckedConfiguration) {
  const buttons = new Set(theme?.widgetButtons ?? themeDefaults.widgetButtons);
  return { accept: buttons.has('accept'), decline: domain.declineButtonEnforced || buttons.has('decline') };
}

function nudgingWarnings(configuration: CheckedConfiguration): Warning[] {
  const { theme, locales, placeholders } = configuration;
  const shown = firstLayer(configuration);
  if (!shown.accept) return [];
  const warnings: Warning[] = [];
  if (!shown.decline) {
    // Only a theme can take the decline button away: without one the banner shows all three buttons.
    const buttons = themePath(theme!, 'widgetButtons');
    warnings.push({
      rule: 'declineMissing',
      path: buttons,
      related: ['/declineButtonEnforced'],
      message:
        'The first layer offers to accept everything but has no decline button: the theme’s widgetButtons lack "decline" and the domain’s ' +
        `declineButtonEnforced is off. Refusing should take no more than accepting, on the same layer (${TASKFORCE}; ${DSK}).`,
    });
    if (theme!.widgetBlocking) {
      warnings.push({
        rule: 'pageBlockedWithoutDecline',
        path: themePath(theme!, 'widgetBlocking'),
        related: [buttons, '/declineButtonEnforced'],
        message:
          'The banner blocks the page (widgetBlocking) and its first layer has no decline button: a visitor reaches the site only by ' +
          `accepting everything or by going through the settings (${TASKFORCE}; ${DSK}).`,
      });
    }
    return warnings;
  }
  // cookieconsent leaves out a button whose label is empty.
  const fill = placeholderFiller(new Map(placeholders.map((placeholder) => [placeholder.name, placeholder.value])));
  const blank = (text: string) => fill(text).trim() === '';
  for (const locale of locales) {
    if (blank(locale.widgetDeclineButtonText) && !blank(locale.widgetFullConsentButtonText)) {
      warnings.push({
        rule: 'declineTextMissing',
        path: localePath(locale, 'widgetDeclineButtonText'),
        related: [localePath(locale, 'widgetFullConsentButtonText')],
        message:
          `In ${locale.name} the decline button has no label (widgetDeclineButtonText is empty), so the banner leaves it out ` +
          `while it offers to accept everything (${TASKFORCE}; ${DSK}).`,
        locales: [locale.name],
      });
    }
  }
  if (theme) {
    for (const { what, decline, accept } of STYLE_PAIRS) {
      if (theme[decline].toLowerCase() === theme[accept].toLowerCase()) continue;
      warnings.push({
        rule: 'declineStyle',
        path: themePath(theme, decline),
        related: [themePath(theme, accept)],
        message:
          `The decline button’s ${what} (${theme[decline]}) differs from the accept button’s (${theme[accept]}): the two choices of the ` +
          `first layer do not look alike. Giving both the same colours gives them equal weight (${TASKFORCE}: deceptive button colours and contrast).`,
      });
    }
  }
  return warnings;
}

// ── placeholders ────────────────────────────────────────────────────────────

/** Every text of a locale with its field: the plain texts, then each purpose's name and description (as missing-placeholders.ts reads them). */
function textsOf(locale: Locale): [field: string, text: string][] {
  const purposes = Object.keys(PURPOSES) as PurposeId[];
  return [
    ...LOCALE_TEXT_KEYS.map((key): [string, string] => [key, locale[key]]),
    ...purposes.map((id): [string, string] => [`purposeNames/${id}`, locale.purposeNames[id]]),
    ...purposes.map((id): [string, string] => [`purposeDescriptions/${id}`, locale.purposeDescriptions[id]]),
  ];
}

/** The `…Url` texts: addresses, which the banner turns into links or leaves out (texts.ts `linkTarget`). */
const isAddress = (field: string) => field.endsWith('Url');

function placeholderWarnings({ locales, placeholders }: CheckedConfiguration): Warning[] {
  const missing = missingPlaceholderNames(locales, placeholders);
  if (missing.length === 0) return [];
  const fill = placeholderFiller(new Map(placeholders.map((placeholder) => [placeholder.name, placeholder.value])));
  const defined = new Set(placeholders.map((placeholder) => placeholder.name));
  // name → locale → the fields that refer to it, in the order of the domain's locales and the locale's fields.
  const uses = new Map(missing.map((name) => [name, new Map<string, { fields: string[]; dropped: string[] }>()]));
  for (const locale of locales) {
    for (const [field, text] of textsOf(locale)) {
      for (const [, name] of text.matchAll(PLACEHOLDER_REFERENCE)) {
        const byLocale = uses.get(name!);
        if (!byLocale) continue;
        const use = byLocale.get(locale.name) ?? { fields: [], dropped: [] };
        byLocale.set(locale.name, use);
        if (use.fields.includes(field)) continue;
        use.fields.push(field);
        if (isAddress(field) && linkTarget(fill, text) === null) use.dropped.push(field);
      }
    }
  }
  return missing.map((name) => {
    const byLocale = [...uses.get(name)!];
    const listed = (pick: 'fields' | 'dropped') =>
      byLocale
        .filter(([, use]) => use[pick].length > 0)
        .map(([locale, use]) => `${locale} (${use[pick].join(', ')})`)
        .join(', ');
    const dropped = listed('dropped');
    const shown = defined.has(name)
      ? `The placeholder ${name} is empty, so {${name}} stands for nothing in the texts that refer to it: ${listed('fields')}.`
      : `No placeholder ${name} is defined, so {${name}} stays as written in the texts that refer to it: ${listed('fields')}.`;
    return {
      rule: 'placeholderMissing',
      path: `/placeholder/${name}`,
      related: byLocale.flatMap(([locale, use]) => use.fields.map((field) => `/locale/${locale}/${field}`)),
      message: shown + (dropped ? ` In ${dropped} that leaves no address, and the banner leaves the link out.` : ''),
      placeholder: name,
      locales: byLocale.map(([locale]) => locale),
    };
  });
}
