/** The text an escaped HTML string shows (for attributes such as `aria-label`, which take plain text). */
export const plainText = (html: string): string => new DOMParser().parseFromString(html, 'text/html').body.textContent ?? '';
