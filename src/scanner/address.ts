/**
 * Reads the operator's postal address off an imprint page: from schema.org JSON-LD when the page
 * has it, otherwise from the visible text (German, Austrian, Swiss, French and UK conventions).
 */

export type PostalAddress = { company: string | null; street: string | null; zipCode: string | null; city: string | null };

type JsonObject = Record<string, unknown>;
/** A postcode and town, found at `parts[start]` (a UK postcode may follow its town in the next part). */
type Place = { zipCode: string; city: string; start: number };

/** "10115 Berlin", "D-10115 Berlin", "CH-8001 Zürich", "1010 Wien", "75002 Paris". */
const CONTINENTAL_PLACE = /^(?:[A-Z]{1,3}[-–]\s?)?(\d{4,5})\s+(.+)$/u;
const UK_POSTCODE = /[A-Z]{1,2}\d[A-Z\d]?\s?\d[A-Z]{2}/;
/** "London NW1 6XE". */
const UK_PLACE = new RegExp(`^(.+?),?\\s+(${UK_POSTCODE.source})$`, 'u');
const UK_POSTCODE_ONLY = new RegExp(`^${UK_POSTCODE.source}$`, 'u');

const HOUSE_NUMBER = String.raw`\d+\s?[a-z]?(?:\s?[-–/]\s?\d+\s?[a-z]?)*`;
/** "Musterstraße 12a", "Hauptstr. 5", "Unter den Linden 77", "Mariahilfer Straße 1/3/14". */
const NAME_THEN_NUMBER = new RegExp(String.raw`^\p{L}[\p{L}\p{N} .'’\-/]*?\s*${HOUSE_NUMBER}$`, 'iu');
/** "12 rue de la Paix", "12, rue de la Paix", "221B Baker Street". */
const NUMBER_THEN_NAME = new RegExp(String.raw`^${HOUSE_NUMBER}(?:\s(?:bis|ter))?\s*,?\s+\p{L}`, 'iu');

const LEGAL_FORM = new RegExp(
  String.raw`(?<!\p{L})(?:${[
    'g?GmbH', 'mbH', 'GesmbH', 'AG', 'UG', 'KG', 'KGaA', 'OHG', 'GbR', 'PartG', 'mbB', 'e\\.\\s?K(?:fm)?\\.',
    'e\\.\\s?U\\.', 'e\\.\\s?V\\.', 'eG', 'SE', 'S\\.?A\\.?R\\.?L\\.?', 'S[àa]rl', 'SASU?', 'S\\.?A\\.?', 'EURL', 'SNC',
    'Ltd\\.?', 'LTD', 'Limited', 'LIMITED', 'LLC', 'LLP', 'Inc\\.?', 'INC', '[Pp]lc', 'PLC', 'Corp\\.?',
  ].join('|')})(?!\p{L})`,
  'u',
);

// All of the following are matched against folded text (lower case, no accents).
/** Lines that introduce the address rather than belong to it. */
const HEADING = new RegExp(
  '^(?:' +
    [
      'impressum', 'imprint', 'legal notice', 'site notice', 'legal information', 'mentions legales',
      'informations legales', 'kontakt\\w*', 'contact\\w*', 'anschrift', 'postanschrift', 'adresse', 'address',
      '(?:angaben|informationen|information) (?:gemass|nach|pursuant|according)\\b.*', 'offenlegung\\b.*',
      'diensteanbieter', 'anbieter', 'herausgeber', 'betreiber', 'editeur(?: du site)?', 'publisher',
      'proprietaire(?: du site)?', 'company details', 'operator',
    ].join('|') +
    ')$',
);
/** "Anschrift: …", "Siège social : …", "Registered office: …" — the label goes, the value stays. */
const LABEL =
  /^(?:anschrift|postanschrift|adresse|address|firma|company|unternehmen|anbieter|diensteanbieter|betreiber|herausgeber|medieninhaber|inhaber|owner|editeur|publisher|siege(?: social)?|registered office|raison sociale|societe)$/;
/** Contact, register and management lines, whose numbers and names are never part of the address. */
const NOISE = new RegExp(
  String.raw`@|https?:|\+\d|\b(?:` +
    [
      'tel', 'telefon', 'telephone', 'phone', 'fax', 'telefax', 'mobil', 'mobile', 'e-?mail', 'mail', 'courriel', 'www',
      'web', 'ust', 'ust-?id\\w*', 'uid', 'vat', 'tva', 'umsatzsteuer\\w*', 'steuernummer', 'steuer-?nr', 'handelsregister',
      'register\\w*', 'amtsgericht', 'firmenbuch\\w*', 'hrb', 'hra', 'rcs', 'siret', 'siren', 'stammkapital', 'grundkapital',
      'capital social', 'au capital', 'share capital', 'geschaftsfuhr\\w*', 'vertreten', 'represented', 'director\\w*',
      'directeur', 'gerant\\w*', 'president', 'publication', 'company number',
    ].join('|') +
    String.raw`)\b`,
);
/** Lower-case words a town's name may contain: "Frankfurt am Main", "Aix-en-Provence", "Paris Cedex 08". */
const TOWN_PARTICLES = new Set(['am', 'an', 'im', 'in', 'der', 'bei', 'ob', 'sur', 'sous', 'en', 'le', 'la', 'les', 'de', 'du', 'des', 'upon', 'on']);

/** The operator's address as an imprint page states it. `text` is the page's visible text (document.body.innerText, lines separated by \n); `jsonLd` the parsed JSON-LD blocks of the page (may be empty). */
export function extractAddress(page: { text: string; jsonLd: unknown[] }): PostalAddress {
  const fromText = addressInText(page.text);
  const fromSchema = addressInJsonLd(page.jsonLd);
  if (!fromSchema) return fromText;
  return {
    company: fromSchema.company ?? fromText.company,
    street: fromSchema.street ?? fromText.street,
    zipCode: fromSchema.zipCode ?? fromText.zipCode,
    city: fromSchema.city ?? fromText.city,
  };
}

function addressInText(text: string): PostalAddress {
  const parts = partsOf(text);
  const places = parts.map((_, i) => placeAt(parts, i)).filter((place) => place !== null);
  const found = places.map((place) => ({ place, streetAt: streetAbove(parts, place.start) }));
  // Imprints name the operator first; a postcode with a street above it is the surer find.
  const chosen = found.find((candidate) => candidate.streetAt !== null) ?? found[0];
  if (!chosen) return { company: null, street: null, zipCode: null, city: null };
  const { place, streetAt } = chosen;
  return {
    company: companyAbove(parts, streetAt ?? place.start, streetAt !== null),
    street: streetAt === null ? null : parts[streetAt]!,
    zipCode: place.zipCode,
    city: place.city,
  };
}

/**
 * The text cut into the pieces an address is written in: lines, then pieces between `|`, `·` or
 * `•`, then comma-separated pieces when one of them is a street or a place ("Beispiel GmbH,
 * Hauptstr. 5, 10115 Berlin"). Labels such as "Anschrift:" are dropped.
 */
function partsOf(text: string): string[] {
  const parts: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    for (const piece of line.split(/\s*[|·•]\s*|\s+[–—]\s+/)) {
      const value = withoutLabel(clean(piece));
      const pieces = value.split(/\s*,\s*/);
      if (pieces.length > 1 && pieces.some((p) => isStreet(p) || isPlace(p))) parts.push(...joinHouseNumbers(pieces));
      else parts.push(value);
    }
  }
  return parts.filter(Boolean);
}

/** "12", "rue de la Paix" → "12, rue de la Paix" (the French way of writing a house number). */
function joinHouseNumbers(pieces: string[]): string[] {
  const joined: string[] = [];
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i]!;
    const next = pieces[i + 1];
    if (next !== undefined && /^\d+\s?[a-z]?$/i.test(piece) && /^\p{L}/u.test(next)) {
      joined.push(`${piece}, ${next}`);
      i++;
    } else joined.push(piece);
  }
  return joined;
}

function withoutLabel(part: string): string {
  const match = /^([^:]{2,30}?)\s*:\s*(.*)$/.exec(part);
  return match && LABEL.test(fold(match[1]!)) ? match[2]! : part;
}

function placeAt(parts: string[], i: number): Place | null {
  const part = parts[i]!;
  const continental = CONTINENTAL_PLACE.exec(part);
  if (continental && isTown(continental[2]!)) return { zipCode: continental[1]!, city: continental[2]!, start: i };
  const uk = UK_PLACE.exec(part);
  if (uk && isTown(uk[1]!)) return { zipCode: uk[2]!, city: uk[1]!, start: i };
  const town = parts[i - 1];
  if (UK_POSTCODE_ONLY.test(part) && town !== undefined && isTown(town)) return { zipCode: part, city: town, start: i - 1 };
  return null;
}

function isPlace(part: string): boolean {
  return placeAt([part], 0) !== null || UK_POSTCODE_ONLY.test(part);
}

/** A town's name: capitalised words, a few particles, Cedex numbers; no sentence, no register line. */
function isTown(name: string): boolean {
  const words = name.split(/\s+/);
  if (words.length > 5 || !/^\p{Lu}/u.test(name)) return false;
  if (NOISE.test(fold(name)) || LEGAL_FORM.test(name) || /\b(?:eur|euro|chf|gbp|usd)\b/.test(fold(name))) return false;
  return words.every(
    (word) => /^[\p{Lu}(]/u.test(word) || TOWN_PARTICLES.has(word) || /^\d{1,2}$/.test(word),
  );
}

function isStreet(part: string): boolean {
  if (NOISE.test(fold(part)) || isHeading(part)) return false;
  return (NAME_THEN_NUMBER.test(part) && !CONTINENTAL_PLACE.test(part)) || (NUMBER_THEN_NAME.test(part) && !isPlace(part));
}

/** The street right above a place, allowing one line between (a district, a floor, "c/o …"). */
function streetAbove(parts: string[], start: number): number | null {
  for (let i = start - 1; i >= Math.max(0, start - 2); i--) {
    if (isHeading(parts[i]!)) return null;
    if (isStreet(parts[i]!)) return i;
  }
  return null;
}

/**
 * The nearest line with a legal form in the few lines above the address; failing that, the line
 * right above the street, if it reads like a name.
 */
function companyAbove(parts: string[], from: number, hasStreet: boolean): string | null {
  for (let i = from - 1; i >= Math.max(0, from - 4); i--) {
    const part = parts[i]!;
    if (isHeading(part)) break;
    if (!NOISE.test(fold(part)) && LEGAL_FORM.test(part)) return part;
  }
  const above = parts[from - 1];
  if (!hasStreet || above === undefined || above.length > 80 || !/\p{L}/u.test(above)) return null;
  const plain = !isHeading(above) && !NOISE.test(fold(above)) && !isStreet(above) && !isPlace(above);
  return plain ? above : null;
}

function isHeading(part: string): boolean {
  return HEADING.test(fold(part).replace(/[\s:.]+$/, ''));
}

function addressInJsonLd(blocks: unknown[]): PostalAddress | null {
  const nodes = objectsIn(blocks, 0);
  const byId = new Map(
    nodes
      .filter((node) => typeof node['@id'] === 'string' && Object.keys(node).length > 1)
      .map((node): [unknown, JsonObject] => [node['@id'], node]),
  );
  let best: PostalAddress | null = null;
  let bestCount = 0;
  for (const node of nodes) {
    if (!('address' in node)) continue;
    const candidate = schemaAddress(node, byId);
    const count = Object.values(candidate).filter((value) => value !== null).length;
    if (count > bestCount) [best, bestCount] = [candidate, count];
  }
  return best;
}

/** Every object in the JSON-LD, however nested (`@graph`, `publisher`, arrays …). */
function objectsIn(value: unknown, depth: number): JsonObject[] {
  if (depth > 10) return [];
  if (Array.isArray(value)) return value.flatMap((item) => objectsIn(item, depth + 1));
  if (typeof value !== 'object' || value === null) return [];
  return [value as JsonObject, ...Object.values(value).flatMap((child) => objectsIn(child, depth + 1))];
}

/** A node's name and `address`, which may be a PostalAddress, a reference to one, or a plain string. */
function schemaAddress(node: JsonObject, byId: Map<unknown, JsonObject>): PostalAddress {
  const company = textOf(node.legalName) ?? textOf(node.name);
  const address: unknown = Array.isArray(node.address) ? node.address[0] : node.address;
  if (typeof address === 'string') return { ...addressInText(address), company };
  if (typeof address !== 'object' || address === null) return { company, street: null, zipCode: null, city: null };
  const postal = byId.get((address as JsonObject)['@id']) ?? (address as JsonObject);
  return {
    company,
    street: textOf(postal.streetAddress),
    zipCode: textOf(postal.postalCode),
    city: textOf(postal.addressLocality),
  };
}

function textOf(value: unknown): string | null {
  if (Array.isArray(value)) return textOf(value[0]);
  if (typeof value === 'number') return String(value);
  return typeof value === 'string' && value.trim() ? clean(value) : null;
}

function clean(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Lower case without accents: "Geschäftsführer" → "geschaftsfuhrer". */
function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/ß/g, 'ss');
}
