/**
 * A link target the banner checked (`linkTarget`) as an absolute URL: a path on the site is
 * resolved against the domain's address, so a provider's privacy link reads the same wherever
 * the banner shows it. Null stays null.
 */
export function absoluteOnSite(target: string | null, siteUrl: string): string | null {
  if (target === null || !target.startsWith('/')) return target;
  return new URL(target, new URL(siteUrl).origin).toString();
}
