import { assertDomainScope, type DomainScope } from '../../kernel/access.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { PLACEHOLDER_REFERENCE } from '../banner/texts.ts';
import { itemsOfDomain } from '../domains/domain.access.ts';
import type { Locale } from '../locales/locale.contract.ts';
import { localesOfDomainLoader } from '../locales/locale.reads.ts';
import { toLocale } from '../locales/locale.view.ts';
import { isPlaceholderName } from '../placeholders/placeholder.contract.ts';
import { placeholdersOfDomainLoader } from '../placeholders/placeholder.reads.ts';

/**
 * What the banner of a domain would still show unfilled: the placeholders its texts refer to
 * that the domain lacks. The banner fills `{name}` with the value of the domain's placeholder
 * `name` and leaves a reference to no placeholder as it is written (src/features/banner/texts.ts),
 * so a new domain, whose default texts refer to {FIRMA}, {Firma_Ort}, {Firma_Impressum} and
 * {Firma_Datenschutz}, shows those braces until the operator defines them (or applies a scan's
 * legal findings).
 */

/** Every text of a locale: the plain texts and the name and description of each purpose. */
function textsOf(locale: Locale): string[] {
  const { name: _name, active: _active, purposeNames, purposeDescriptions, ...texts } = locale;
  return [...Object.values(texts), ...Object.values(purposeNames), ...Object.values(purposeDescriptions)];
}

/**
 * The names that a text of an active locale refers to and that no placeholder fills: undefined,
 * or defined with a value of nothing but white space. Only names a placeholder can have count
 * (`{a:b}` in a text is no reference anyone could fill). Sorted by character code, each once.
 */
export function missingPlaceholderNames(
  locales: readonly Locale[],
  placeholders: readonly { name: string; value: string }[],
): string[] {
  const filled = new Set(placeholders.filter((placeholder) => placeholder.value.trim() !== '').map((placeholder) => placeholder.name));
  const referred = new Set<string>();
  for (const locale of locales) {
    if (!locale.active) continue;
    for (const text of textsOf(locale)) {
      for (const [, name] of text.matchAll(PLACEHOLDER_REFERENCE)) if (isPlaceholderName(name!)) referred.add(name!);
    }
  }
  return [...referred].filter((name) => !filled.has(name)).sort();
}

/** The domain's missing placeholders (see missingPlaceholderNames): two reads, batched across domains in GraphQL. */
export async function missingPlaceholders(ctx: RequestContext, scope: DomainScope): Promise<string[]> {
  assertDomainScope(ctx.caller, scope);
  const [locales, placeholders] = await Promise.all([
    localesOfDomainLoader(ctx).load(scope.domainId),
    placeholdersOfDomainLoader(ctx).load(scope.domainId),
  ]);
  return missingPlaceholderNames(
    (await itemsOfDomain(ctx, scope, locales)).map(toLocale),
    await itemsOfDomain(ctx, scope, placeholders),
  );
}
