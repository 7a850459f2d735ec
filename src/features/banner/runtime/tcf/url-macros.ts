import { HELD_SRC, PLACEHOLDER } from '../attributes.ts';

/** The values the macros stand for: `${gdpr}` 1 or 0, `${gdpr_consent}` the TC string, `${addtl_consent}` the AC string. */
export type MacroValues = { gdpr: '0' | '1'; gdpr_consent: string; addtl_consent: string };

const MACRO = /\$\{(gdpr|gdpr_consent|addtl_consent)\}/g;
/** Where an address waits while its content is held, or a link's: never an address a frame or script has loaded already. */
const ADDRESSES: [selector: string, attribute: string][] = [
  ['iframe[data-src]', 'data-src'],
  [`[${HELD_SRC}]`, HELD_SRC],
  ['script[type="text/plain"][src]', 'src'],
  ['script[data-ccm-loader-src]', 'data-ccm-loader-src'],
  [`[${PLACEHOLDER}][data-id]`, 'data-id'],
  ['a[href]', 'href'],
];
/** Held frames and scripts whose address gets `gdpr` and `gdpr_consent` appended (autoAppend) when it names neither. */
const APPENDABLE = new Set(['data-src', 'data-ccm-loader-src', 'src', 'data-id']);
const TEMPLATE = 'data-ccm-tcf-';

/** iframemanager reads `data-id` as a replacement pattern: a `$` in it is written `$$` (iframes.ts). */
const unescape = (attribute: string, value: string) => (attribute === 'data-id' ? value.replace(/\$\$/g, '$') : value);
const escape = (attribute: string, value: string) => (attribute === 'data-id' ? value.replace(/\$/g, '$$$$') : value);

/** An address with the macros filled in; with `append`, `gdpr` and `gdpr_consent` added to an address that has neither. */
export function fillAddress(address: string, values: MacroValues, append: boolean): string {
  const filled = address.replace(MACRO, (_, name: keyof MacroValues) => encodeURIComponent(values[name]));
  if (!append || filled !== address || /[?&]gdpr(_consent)?=/.test(address) || !/^(https?:)?\/\//i.test(address)) return filled;
  const [base, hash] = address.split('#', 2) as [string, string | undefined];
  const query = `gdpr=${values.gdpr}&gdpr_consent=${encodeURIComponent(values.gdpr_consent)}`;
  return `${base}${base.includes('?') ? '&' : '?'}${query}${hash === undefined ? '' : `#${hash}`}`;
}

/**
 * Fills the macros in the addresses of held content and links under `root`, from the address as
 * first seen (kept in `data-ccm-tcf-<attribute>`), so that a later choice fills them anew.
 */
export function fillMacros(root: ParentNode, values: MacroValues, autoAppend: boolean): void {
  for (const [selector, attribute] of ADDRESSES) {
    const append = autoAppend && APPENDABLE.has(attribute);
    const self = root instanceof Element && root.matches(selector) ? [root] : [];
    for (const element of [...self, ...Array.from(root.querySelectorAll(selector))]) {
      const template = element.getAttribute(TEMPLATE + attribute) ?? unescape(attribute, element.getAttribute(attribute)!);
      const filled = fillAddress(template, values, append);
      if (filled === template) continue;
      element.setAttribute(TEMPLATE + attribute, template);
      element.setAttribute(attribute, escape(attribute, filled));
    }
  }
}
