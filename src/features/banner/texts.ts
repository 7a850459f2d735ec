import { createRequire } from 'node:module';
import type sanitizeHtml from 'sanitize-html';
import { escapeHtml } from '../../kernel/html.ts';

/** A plain text for the banner: its `{placeholder}`s filled in, escaped, line breaks kept. */
export const plainText = (fill: Fill, value: string): string => escapeHtml(fill(value)).replace(/\r?\n/g, '<br>');

/** Replaces `{name}` by the value of the placeholder `name`; a reference to no placeholder stays as written. */
export type Fill = (value: string, escape?: (value: string) => string) => string;

/** A `{name}` reference in a text: one to 255 characters, no braces, no white space. */
export const PLACEHOLDER_REFERENCE = /\{([^{}\s]{1,255})\}/g;

export function placeholderFiller(values: ReadonlyMap<string, string>): Fill {
  return (value, escape = (text) => text) =>
    value.replace(PLACEHOLDER_REFERENCE, (whole, name: string) => {
      const replacement = values.get(name);
      return replacement === undefined ? whole : escape(replacement);
    });
}

const ALLOWED_HTML: sanitizeHtml.IOptions = {
  allowedTags: ['p', 'br', 'strong', 'b', 'em', 'i', 'u', 'a', 'ul', 'ol', 'li', 'h2', 'h3', 'h4', 'h5', 'h6', 'span', 'small', 'address'],
  allowedAttributes: { a: ['href', 'title', 'target', 'rel'] },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowProtocolRelative: false,
  transformTags: {
    // A link that opens a new tab must not hand the opened page a handle on the site.
    a: (tagName, attribs) => ({
      tagName,
      attribs: attribs.target === '_blank' ? { ...attribs, rel: 'noopener noreferrer' } : attribs,
    }),
  },
};

/** An operator's HTML text (`…HtmlCode`): placeholders filled in (their values escaped), then sanitised. */
export const safeHtml = (fill: Fill, value: string): string => htmlSanitizer()(fill(value, escapeHtml), ALLOWED_HTML);

/** sanitize-html and the parsers it brings (about 1 MB of source), loaded when a banner is first built, not by an idle service. */
const htmlSanitizer = (): typeof sanitizeHtml => (sanitizer ??= createRequire(import.meta.url)('sanitize-html') as typeof sanitizeHtml);
let sanitizer: typeof sanitizeHtml | undefined;

/** An origin no site has, to see where a browser would take a path. */
const SOME_SITE = 'https://site.invalid';

/**
 * A path that stays on the site it is on. Browsers read `\` as `/` and drop tabs and line breaks
 * in an address, so `/\evil.example` and `/<tab>/evil.example` lead to another site as
 * `//evil.example` does: a path with a backslash or a control character is refused outright, and
 * what is left must resolve to the same origin.
 */
const isSitePath = (path: string): boolean =>
  path.startsWith('/') &&
  ![...path].some((character) => character === '\\' || character <= '\u001f' || character === '\u007f') &&
  URL.canParse(path, SOME_SITE) &&
  new URL(path, SOME_SITE).origin === SOME_SITE;

/** A link target the banner may use: an http(s) address or a path on the site, after filling in placeholders; else null. */
export function linkTarget(fill: Fill, value: string): string | null {
  const filled = fill(value).trim();
  if (filled.startsWith('/')) return isSitePath(filled) ? filled : null;
  try {
    const url = new URL(filled);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.toString() : null;
  } catch {
    return null;
  }
}

/** `<a>` to `href` (already checked by `linkTarget`) with an escaped label. */
export const link = (href: string, label: string, newTab: boolean): string =>
  `<a href="${escapeHtml(href)}"${newTab ? ' target="_blank" rel="noopener noreferrer"' : ''}>${label}</a>`;
