import { isHttpUrl, text } from './fields.ts';

/** A `{name}` placeholder reference, as CCM19 writes them (`{Firma_Datenschutz}`). */
const PLACEHOLDER = /\{[^{}\s]{1,255}\}/;

/** A path on the site itself (`/datenschutz`): not `//host`, no backslash or control character, which browsers read as another host. */
const isSitePath = (value: string): boolean =>
  value.startsWith('/') &&
  !value.startsWith('//') &&
  ![...value].some((character) => character === '\\' || character <= '\u001f' || character === '\u007f');

/**
 * Whether a value is an address a link may be written as: empty, an absolute http(s) URL, a path
 * on the site, or text with a `{placeholder}` reference that the domain's placeholders fill in
 * when the banner is built (the banner drops a link that is then neither a URL nor a path).
 */
export const isLinkAddress = (value: string): boolean =>
  value === '' || isHttpUrl(value) || isSitePath(value) || (PLACEHOLDER.test(value) && !/\s/.test(value));

export const LINK_ADDRESS_DESCRIPTION =
  "Empty, an absolute http(s) URL, a path on the site (`/datenschutz`), or a `{placeholder}` reference (`{Firma_Datenschutz}`, `{Firma_Web}/datenschutz`) that the domain's placeholders fill in, as in CCM19. The banner shows the filled-in address as an absolute URL (a path against the domain's address) and leaves out a link that is neither.";

/** A link's address as CCM19 accepts it (see `isLinkAddress`). */
export const linkAddress = () =>
  text().refine(isLinkAddress, { message: 'must be empty, an absolute http(s) URL, a path on the site (/…) or a {placeholder} reference' });
