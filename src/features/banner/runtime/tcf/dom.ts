/** A small element builder for the TCF layers: texts always go in as text, never as HTML. */
export function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string> = {},
  ...children: (Node | string | null | undefined | false)[]
): HTMLElementTagNameMap[K] {
  const created = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) created.setAttribute(name, value);
  for (const child of children) if (child !== null && child !== undefined && child !== false) created.append(child);
  return created;
}

/** `{name}` references in a built-in text replaced by the values given. */
export const filledIn = (text: string, values: Record<string, string | number>): string =>
  text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));

/** A list of texts, or nothing when there are none. */
export const listOf = (items: (Node | string)[], className = 'ccm-tcf-list'): HTMLUListElement | null =>
  items.length ? element('ul', { class: className }, ...items.map((item) => element('li', {}, item))) : null;

/** A link that opens in a new tab, for an http(s) address only. */
export function externalLink(href: string | null | undefined, label: string): HTMLAnchorElement | null {
  if (!href || !/^https?:\/\//i.test(href)) return null;
  return element('a', { href, target: '_blank', rel: 'noopener noreferrer' }, label);
}
