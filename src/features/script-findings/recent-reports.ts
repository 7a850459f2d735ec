import { createHash } from 'node:crypto';

/**
 * Which scripts a visitor reported for a domain lately, so that a visitor counts once per script
 * in a session (WINDOW_MS) however many pages it opens. Kept here, in the service's memory and
 * only as hashes, because the banner stores nothing on the visitor's device but the consent.
 * A visitor is its address; a restart or a second process forgets, and a script then counts once more.
 */
export class RecentReports {
  /** Key hash → when it was first seen (insertion order is that order). */
  readonly #seen = new Map<string, number>();

  readonly #windowMs: number;
  readonly #maxKept: number;
  readonly #now: () => number;

  constructor({ windowMs = 30 * 60_000, maxKept = 50_000, now = Date.now }: { windowMs?: number; maxKept?: number; now?: () => number } = {}) {
    this.#windowMs = windowMs;
    this.#maxKept = maxKept;
    this.#now = now;
  }

  /** Those of `scripts` the visitor did not report for the domain within the window; from now on they count as reported. */
  fresh(domainId: string, visitor: string, scripts: readonly string[]): string[] {
    const now = this.#now();
    for (const [key, at] of this.#seen) {
      if (at > now - this.#windowMs && this.#seen.size < this.#maxKept) break;
      this.#seen.delete(key);
    }
    return scripts.filter((script) => {
      const key = createHash('sha256').update(`${domainId}\n${visitor}\n${script}`).digest('base64url').slice(0, 22);
      if (this.#seen.has(key)) return false;
      this.#seen.set(key, now);
      return true;
    });
  }
}
