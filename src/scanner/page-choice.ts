/**
 * Which page of a site the crawl visits next, so that a small page budget reaches different kinds
 * of pages (a product, an article, the cart…) rather than the first links of the start page:
 * imprint and privacy pages first, then the candidate links grouped by the shape of their address,
 * one page of each group in turn, the group with the fewest pages visited first.
 */

/** A path segment that names one item rather than a kind of page: digits, hex ids, UUIDs. */
const ITEM_ID = /^(?:\d+|[0-9a-f]{8,}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;
/** A leading language segment (`/de/`, `/en-gb/`), which does not tell one kind of page from another. */
const LANGUAGE = /^[a-z]{2}(?:[-_][a-z]{2})?$/i;

/**
 * The shape of a page's address: its first segment (after a language segment) with the numbers in
 * it replaced, and how deep it is. `/blog/artikel-1` and `/blog/artikel-2` share a shape;
 * `/shop`, `/shop/tassen` and `/shop/tassen/tasse-42` have three.
 */
export function pageShape(url: string): string {
  const segments = new URL(url).pathname.split('/').filter(Boolean);
  const language = segments.length > 1 && LANGUAGE.test(segments[0]!) ? segments.shift()! : '';
  const first = segments[0] ?? '';
  const kind = ITEM_ID.test(first) ? '#' : first.toLowerCase().replace(/\d+/g, '#');
  return `${language}/${kind}/${segments.length}`;
}

export type PageQueue = {
  /** Imprint and privacy pages, best first: they go before every other page. */
  addLegal(urls: string[]): void;
  add(url: string): void;
  /**
   * The next page to visit, or undefined when there is none or, unless `repeat`, only pages of
   * shapes visited already (a page being loaded may still link to a new shape).
   */
  next(repeat: boolean): string | undefined;
};

export function createPageQueue(): PageQueue {
  const legal: string[] = [];
  /** In the order the shapes were found: among groups with as many pages visited, the earlier goes first. */
  const groups = new Map<string, { pages: string[]; visited: number }>();
  return {
    addLegal(urls) {
      legal.unshift(...urls);
    },
    add(url) {
      const shape = pageShape(url);
      const group = groups.get(shape) ?? { pages: [], visited: 0 };
      groups.set(shape, group);
      group.pages.push(url);
    },
    next(repeat) {
      if (legal.length > 0) return legal.shift();
      let best: { pages: string[]; visited: number } | undefined;
      for (const group of groups.values()) if (group.pages.length > 0 && (!best || group.visited < best.visited)) best = group;
      if (!best || (best.visited > 0 && !repeat)) return undefined;
      best.visited++;
      return best.pages.shift();
    },
  };
}
