import type { Catalog, CatalogEntry, UrlKind } from '../catalog/catalog.ts';
import type { ScanFindings, UnblockableLoad } from '../../scanner/scan.ts';
import { SCAN_ADVICE_KINDS, type ScanAdvice } from './onboarding.contract.ts';

/**
 * What cannot be blocked is said, not hidden. A banner in the page holds back scripts and frames
 * that scripts insert; it cannot hold an `<iframe src>` written in the HTML (Chromium starts its
 * request as the parser inserts it), nor stylesheets and fonts from other sites (requested as they
 * are inserted). A scan reports those as advice with the fix on the site, and a service that loads
 * only that way is not offered to visitors as a choice (see `Catalog`'s `isBlockable`).
 */

type Kind = ScanAdvice['kind'];

const KINDS: Record<UnblockableLoad['kind'], { kind: Kind; signals: UrlKind }> = {
  iframe: { kind: 'iframe-src', signals: 'iframes' },
  stylesheet: { kind: 'third-party-stylesheet', signals: 'resources' },
  font: { kind: 'third-party-font', signals: 'resources' },
};

const WHY =
  'no consent banner can hold it back: the browser requests it as it reads the page, before any script can act';

function fixOf(kind: Kind, host: string, preset: CatalogEntry | undefined): string {
  switch (kind) {
    case 'iframe-src': {
      const consent = preset
        ? `consent to ${preset.name} (import preset ${preset.id} if the domain has no embedding of it)`
        : `consent to an embedding whose iframe markers match ${host} (add ${host} to an embedding's iframeMarkers)`;
      return (
        `Write these iframes with data-src instead of src: <iframe data-src="…"> in place of <iframe src="…">, the address unchanged. ` +
        `An iframe written with src in the HTML starts loading as the browser reads the page and ${WHY}, so ${host} receives ` +
        `every visitor's request, and can set cookies, without consent. With data-src nothing loads until the banner finds ${consent}.`
      );
    }
    case 'third-party-stylesheet':
      return (
        `Serve these stylesheets from the site's own server instead of ${host}: copy them, with the font files and images they load, ` +
        `to the site and point the <link> or @import at the copies (self-host web fonts where their licence allows it; Google Fonts' does). ` +
        `A stylesheet from another site loads whoever inserts it and ${WHY}, so ${host} receives every visitor's IP address without consent.`
      );
    case 'third-party-font':
      return (
        `Serve these font files from the site's own server instead of ${host}: download them, put them on the site and point the url() ` +
        `of the @font-face rules that load them at the copies (self-hosting, where the fonts' licence allows it; Google Fonts' does). ` +
        `A font from another site loads as soon as a page uses it and ${WHY}, so ${host} receives every visitor's IP address without consent.`
      );
  }
}

/**
 * The scan's advice: the findings' unblockable loads, one entry per kind, host and catalog service
 * (the one whose iframe signals, or stylesheet and font signals, match the address), with the
 * pages and addresses sorted; entries by kind, then host.
 */
export function scanAdvice(catalog: Catalog, findings: ScanFindings): ScanAdvice[] {
  const groups = new Map<string, { kind: Kind; host: string; preset: CatalogEntry | undefined; pages: Set<string>; sources: Set<string> }>();
  for (const load of findings.unblockable) {
    if (!URL.canParse(load.url)) continue;
    const { kind, signals } = KINDS[load.kind];
    const host = new URL(load.url).hostname;
    const [preset] = catalog.matchUrl(load.url, signals);
    const key = `${kind} ${host} ${preset?.id ?? ''}`;
    const group = groups.get(key) ?? { kind, host, preset, pages: new Set(), sources: new Set() };
    groups.set(key, group);
    group.pages.add(load.page);
    group.sources.add(load.url);
  }
  const order = (kind: Kind) => SCAN_ADVICE_KINDS.indexOf(kind);
  return [...groups.values()]
    .sort((a, b) => order(a.kind) - order(b.kind) || a.host.localeCompare(b.host) || (a.preset?.id ?? 0) - (b.preset?.id ?? 0))
    .map(({ kind, host, preset, pages, sources }) => ({
      kind,
      host,
      presetId: preset?.id ?? null,
      pages: [...pages].sort(),
      sources: [...sources].sort(),
      fix: fixOf(kind, host, preset),
    }));
}

/**
 * Why a service is not blockable on a site, for the scan's list of services found: the preset
 * itself, or, for a blockable preset, everything that revealed it there is a stylesheet or font.
 */
export function unblockableOnSite(entry: CatalogEntry, evidence: readonly { kind: string }[]): string | undefined {
  if (!entry.blockable) {
    return (
      `${entry.name} loads only as stylesheets and fonts, which the consent banner cannot hold back, so a switch for it would do nothing: ` +
      `importing it makes an inactive embedding, which documents the service without offering it to visitors. ` +
      `Where the site's own pages load those files (see advice), serve them from the site itself instead.`
    );
  }
  if (evidence.length > 0 && evidence.every((item) => item.kind === 'stylesheet' || item.kind === 'font')) {
    return (
      `On this site ${entry.name} showed itself only by stylesheets and fonts, which the consent banner cannot hold back, so a switch for it ` +
      `would do nothing: serve those files from the site itself (see advice), or import it with active: false to document it.`
    );
  }
  return undefined;
}

/** Why an imported preset's embedding is inactive, or should be: for a preset that is not blockable. */
export function unblockableImportNote(entry: CatalogEntry, active: boolean): string | undefined {
  if (entry.blockable) return undefined;
  const start = `${entry.name} loads only as stylesheets and fonts, which the consent banner cannot hold back`;
  return active
    ? `${start}, so the switch visitors get for its active embedding does nothing: switch the embedding off (active: false), and serve its files from the site itself where the site's pages load them (the scan's advice says which).`
    : `${start}, so its embedding is inactive: documented, not offered to visitors as a choice that would do nothing. Where the site's pages load its files, serve them from the site itself instead (the scan's advice says which).`;
}
