import type { ServerResponse } from 'node:http';

type Entry = { response: ServerResponse; previous: Entry | undefined; next: Entry | undefined };

/**
 * The responses of a server that have not closed yet: each is added as its request arrives and
 * leaves by itself when it closes. The shutdown reaches them through this to end their keep-alive.
 *
 * A list whose entries are unlinked and cleared as they leave, not a `Set`. V8 links a Set's
 * outgrown hash table to the table that replaced it. Once a full collection has moved the current
 * table to the old generation (one that runs while requests are in flight does), each later
 * table, and the responses it held, stays reachable from its dead predecessor until the next full
 * collection. Young collections then promote whole requests, for as long as the process runs:
 * under 32 connections of single reads, 2.5–3 MB survived each young collection, some 6 KB of
 * each request went to the old generation against 0.1 KB, and full collections came every few
 * seconds (issue 17, bench/HISTORY.md).
 */
export class InFlightResponses {
  #first: Entry | undefined;
  #size = 0;

  /** Keeps `response` until it closes; `closed` runs once it has left. */
  add(response: ServerResponse, closed: () => void): void {
    const entry: Entry = { response, previous: undefined, next: this.#first };
    if (this.#first) this.#first.previous = entry;
    this.#first = entry;
    this.#size++;
    response.once('close', () => {
      this.#remove(entry);
      closed();
    });
  }

  get size(): number {
    return this.#size;
  }

  /** The responses open now, the newest first (a copy: they may close while it is read). */
  list(): ServerResponse[] {
    const open: ServerResponse[] = [];
    for (let entry = this.#first; entry; entry = entry.next) open.push(entry.response);
    return open;
  }

  #remove(entry: Entry): void {
    if (entry.previous) entry.previous.next = entry.next;
    else this.#first = entry.next;
    if (entry.next) entry.next.previous = entry.previous;
    entry.previous = undefined;
    entry.next = undefined;
    this.#size--;
  }
}
