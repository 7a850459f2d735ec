/**
 * Recognises the links to a site's imprint and privacy policy among the links of a page, by what
 * the link says and, less decisively, by where it points. The scanner uses the score to crawl
 * legal pages first and the pick as its result.
 */

/** `href` is absolute; `text` is the visible text, possibly followed by the title or aria-label. */
export type PageLink = { href: string; text: string };
export type LegalPageKind = 'imprint' | 'privacy';

type Phrases = { strong: string[][]; weak: string[][] };

// Written as a visitor reads them; compared word by word after case and accent folding. Each word
// may start a longer one, so "Datenschutz" also covers "Datenschutzerklärung" and "Datenschutzhinweise".
const VOCABULARY: Record<LegalPageKind, Phrases> = {
  imprint: phrases(
    [
      'Impressum', 'Imprint', 'Legal notice', 'Site notice', 'Legal information', 'Legal disclosure',
      'Anbieterkennzeichnung', 'Mentions légales', 'Informations légales',
    ],
    ['Legal', 'Rechtliches', 'Rechtliche Hinweise'],
  ),
  privacy: phrases(
    [
      'Datenschutz', 'Privacy', 'Data protection', 'Politique de confidentialité', 'Confidentialité',
      'Données personnelles', 'Protection des données',
    ],
    ['Privatsphäre', 'Vie privée', 'DSGVO', 'GDPR', 'RGPD'],
  ),
};

/** Words that do not make a label any less exact: "Privacy Policy" is as good as "Privacy". */
const FILLER_WORDS = new Set(
  [
    'policy', 'policies', 'notice', 'statement', 'page', 'erklarung', 'hinweis', 'hinweise', 'information',
    'informationen', 'richtlinie', 'our', 'the', 'and', 'unsere', 'und', 'zum', 'zur', 'notre', 'et', 'de', 'la', 'des', 'du',
  ],
);

const STRONG_LABEL = 100;
const WEAK_LABEL = 80;
const PER_EXTRA_WORD = 8;
/** Whatever the text says about the page outweighs any URL (at most 30). */
const TEXT_FLOOR = 40;
/** A cookie policy stands in for the privacy policy only when nothing better is linked. */
const COOKIE_POLICY = 5;
/** Links that open or configure a consent dialog, never the policy itself. */
const SETTINGS = /setting|einstellung|preference|praferenz|parametre/;

/** How strongly a link looks like the site's imprint or privacy-policy page (0 = not at all). */
export function legalPageScore(link: PageLink, kind: LegalPageKind): number {
  const url = target(link.href);
  if (!url) return 0;
  const words = [...new Set(wordsOf(link.text))]; // text and title often repeat each other
  const path = pathOf(url);
  const fromText = textScore(words, VOCABULARY[kind]);
  const fromUrl = urlScore(path, compact(url.search), VOCABULARY[kind]);
  if (kind === 'privacy') {
    if (SETTINGS.test(words.join(' ')) || SETTINGS.test(path)) return 0;
    const [said, named] = words.length > 0 ? [words.join(' '), fromText] : [path, fromUrl];
    if (said.includes('cookie') && named === 0) return COOKIE_POLICY;
  }
  return fromText + fromUrl;
}

/** The best imprint and privacy-policy links among a page's links (null when none looks right). */
export function pickLegalPages(links: PageLink[]): { imprintUrl: string | null; privacyPolicyUrl: string | null } {
  return { imprintUrl: bestLink(links, 'imprint'), privacyPolicyUrl: bestLink(links, 'privacy') };
}

function bestLink(links: PageLink[], kind: LegalPageKind): string | null {
  let best: string | null = null;
  let bestScore = 0;
  for (const link of links) {
    const score = legalPageScore(link, kind);
    if (score > bestScore) [best, bestScore] = [link.href.trim(), score];
  }
  return best;
}

/** The page a link leads to, or null for mailto:, tel:, javascript:, fragment-only and broken links. */
function target(href: string): URL | null {
  const trimmed = href.trim();
  if (trimmed.startsWith('#') || trimmed.endsWith('#') || !URL.canParse(trimmed)) return null;
  const url = new URL(trimmed);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
}

function textScore(words: string[], vocabulary: Phrases): number {
  let best = 0;
  for (const [list, top] of [[vocabulary.strong, STRONG_LABEL], [vocabulary.weak, WEAK_LABEL]] as const) {
    for (const phrase of list) {
      const start = words.findIndex((_, i) => phrase.every((word, j) => words[i + j]?.startsWith(word)));
      if (start < 0) continue;
      const extra = words.filter((word, i) => (i < start || i >= start + phrase.length) && !FILLER_WORDS.has(word));
      best = Math.max(best, top - PER_EXTRA_WORD * extra.length, TEXT_FLOOR);
    }
  }
  return best;
}

/** Up to 30 for a phrase starting the last path segment, less for other segments or the query. */
function urlScore(path: string, query: string, vocabulary: Phrases): number {
  const segments = path.split('/').map((segment) => compact(segment.replace(/\.[a-z]{2,5}$/, ''))).filter(Boolean);
  let best = 0;
  for (const [list, strong] of [[vocabulary.strong, true], [vocabulary.weak, false]] as const) {
    for (const key of list.map((phrase) => phrase.join(''))) {
      segments.forEach((segment, i) => {
        if (!segment.startsWith(key)) return;
        const last = i === segments.length - 1;
        best = Math.max(best, last ? (strong ? 30 : 20) : strong ? 20 : 15);
      });
      if (query.includes(key)) best = Math.max(best, 10);
    }
  }
  return best;
}

/** The folded path, including a hash route such as `#/impressum`. */
function pathOf(url: URL): string {
  const raw = url.pathname + (url.hash.startsWith('#/') ? url.hash.slice(1) : '');
  try {
    return fold(decodeURIComponent(raw));
  } catch {
    return fold(raw); // a malformed percent escape
  }
}

function phrases(strong: string[], weak: string[]): Phrases {
  return { strong: strong.map(wordsOf), weak: weak.map(wordsOf) };
}

function wordsOf(text: string): string[] {
  return fold(text).split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}

function compact(text: string): string {
  return fold(text).replace(/[^\p{L}\p{N}]+/gu, '');
}

/** Lower case without accents: "Mentions Légales" → "mentions legales". */
function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/ß/g, 'ss');
}
