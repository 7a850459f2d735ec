import { OWN } from './attributes.ts';

export type Revival = {
  /** Attributes not copied. */
  drop: RegExp;
  src?: string | null;
  type?: string | null;
  /** Where the new script goes; by default in place of the old one. */
  place?: (fresh: HTMLScriptElement) => void;
};

/**
 * A script element that runs: a copy of `old` put in the page. Resolves once it ran (an
 * external one: loaded or failed), so that scripts released together run in their order.
 */
export function revive(old: HTMLScriptElement, { drop, src = null, type = null, place = (fresh) => old.replaceWith(fresh) }: Revival): Promise<void> {
  const fresh = document.createElement('script');
  // Marked first: the blocker would judge the copy as it gets its address.
  fresh.setAttribute(OWN, '');
  for (const { name, value } of Array.from(old.attributes)) if (!drop.test(name)) fresh.setAttribute(name, value);
  if (type) fresh.setAttribute('type', type);
  if (src) fresh.setAttribute('src', src);
  fresh.text = old.text;
  const ran = new Promise<void>((resolve) => {
    if (!fresh.hasAttribute('src')) return resolve();
    fresh.async = false;
    fresh.onload = fresh.onerror = () => resolve();
  });
  place(fresh);
  return ran;
}
