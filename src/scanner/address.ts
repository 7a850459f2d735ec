/**
 * Reads the operator's postal address off an imprint page: from schema.org JSON-LD when the page
 * has it, otherwise from the visible text (German, Austrian, Swiss, French, UK and US conventions).
 *
 * A US town comes back with its state, as the line reads without the ZIP code: "Mountain View, CA".
 */

export type PostalAddress = { company: string | null; street: string | null; zipCode: string | null; city: string | null };

type JsonObject = Record<string, unknown>;
/**
 * A postcode and town, found at `parts[start]` (a UK postcode or a US state and ZIP code may follow
 * the town in the next part). A US or UK place is the surer find: its pattern is specific, while a
 * continental "1600 Amphitheatre Parkway" looks like "1010 Wien".
 */
type Place = { zipCode: string; city: string; start: number; kind: 'continental' | 'uk' | 'us' };
/** The street lines of an address: from `parts[from]` on, flat, suite or door lines included. */
type Street = { from: number; text: string };

/** "D-10115", "CH-8001", "A-1010", "AT-1010", "A 1010". */
const COUNTRY_PREFIX = String.raw`(?:[A-Z]{1,3}[-–]\s?|(?:A|AT|D|DE|CH|F|FR)\s)`;
/** "10115 Berlin", "D-10115 Berlin", "CH-8001 Zürich", "1010 Wien", "A-1010 Wien", "75002 Paris". */
const CONTINENTAL_PLACE = new RegExp(String.raw`^${COUNTRY_PREFIX}?(\d{4,5})\s+(.+)$`, 'u');
/** Where a continental place starts inside a piece: "5, avenue des Champs-Élysées 75008 Paris". */
const CONTINENTAL_PLACE_INSIDE = new RegExp(String.raw`\s+(?=${COUNTRY_PREFIX}?\d{4,5}\s)`, 'gu');

/** "SW1A 2AA", "M1 1AE", "EC1V 9HX", "B33 8TH" (also written without the space). */
const UK_POSTCODE = /[A-Z]{1,2}\d[A-Z\d]?\s?\d[A-Z]{2}/;
/** "London NW1 6XE", "Manchester, M1 1AE". */
const UK_PLACE = new RegExp(`^(.+?),?\\s+(${UK_POSTCODE.source})$`, 'u');
const UK_POSTCODE_ONLY = new RegExp(`^${UK_POSTCODE.source}$`, 'u');

/** The states, DC, the territories and the military "states" AA, AE, AP. */
const US_STATE_CODES = [
  'AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'DC', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA', 'KS', 'KY', 'LA', 'ME',
  'MD', 'MA', 'MI', 'MN', 'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC', 'ND', 'OH', 'OK', 'OR', 'PA', 'RI',
  'SC', 'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA', 'WV', 'WI', 'WY', 'PR', 'GU', 'VI', 'AS', 'MP', 'AA', 'AE', 'AP',
];
const US_STATE_NAMES = [
  'Alabama', 'Alaska', 'Arizona', 'Arkansas', 'California', 'Colorado', 'Connecticut', 'Delaware', 'District of Columbia',
  'Florida', 'Georgia', 'Hawaii', 'Idaho', 'Illinois', 'Indiana', 'Iowa', 'Kansas', 'Kentucky', 'Louisiana', 'Maine',
  'Maryland', 'Massachusetts', 'Michigan', 'Minnesota', 'Mississippi', 'Missouri', 'Montana', 'Nebraska', 'Nevada',
  'New Hampshire', 'New Jersey', 'New Mexico', 'New York', 'North Carolina', 'North Dakota', 'Ohio', 'Oklahoma', 'Oregon',
  'Pennsylvania', 'Rhode Island', 'South Carolina', 'South Dakota', 'Tennessee', 'Texas', 'Utah', 'Vermont', 'Virginia',
  'Washington', 'West Virginia', 'Wisconsin', 'Wyoming', 'Puerto Rico',
];
const US_STATE = `(?:${[...US_STATE_CODES, 'D\\.C\\.', ...US_STATE_NAMES].join('|')})`;
/** Five digits or ZIP+4. */
const US_ZIP = String.raw`\d{5}(?:-\d{4})?`;
const US_COUNTRY = String.raw`(?:,?\s+(?:USA|U\.S\.A\.|US|U\.S\.|United States(?: of America)?))?`;
/** "Mountain View, CA 94043", "Springfield IL 62704-1234", "Springfield, Illinois, 62704, USA". */
const US_PLACE = new RegExp(String.raw`^(.+?),?\s+(${US_STATE}),?\s+(${US_ZIP})${US_COUNTRY}$`, 'u');
/** "CA 94043" after the town, cut off by a comma. */
const US_STATE_ZIP = new RegExp(String.raw`^(${US_STATE}),?\s+(${US_ZIP})${US_COUNTRY}$`, 'u');
const US_STATE_ONLY = new RegExp(`^${US_STATE}$`, 'u');
const US_ZIP_ONLY = new RegExp(`^${US_ZIP}$`, 'u');

/** "12a", "7–9", "1/3/14", "5/Stiege 3/Top 12": at most four digits a group, so no register number passes. */
const HOUSE_NUMBER = String.raw`\d{1,4}\s?[a-z]?(?:\s?[-–/]\s?(?:(?:stiege|stg\.?|top|tür)\s?)?\d{1,4}\s?[a-z]?)*`;
/** "Musterstraße 12a", "Hauptstr. 5", "Unter den Linden 77", "Mariahilfer Straße 1/3/14". */
const NAME_THEN_NUMBER = new RegExp(String.raw`^\p{L}[\p{L}\p{N} .'’\-/]*?[\p{L}.]\s*${HOUSE_NUMBER}$`, 'iu');
/** "12 rue de la Paix", "12, rue de la Paix", "221B Baker Street", "1600 Amphitheatre Parkway". */
const NUMBER_THEN_NAME =
  /^\d{1,6}[a-z]?(?:\s?[-–/]\s?\d{1,6}[a-z]?)?(?:\s(?:bis|ter|quater))?\s*,?\s+(?!(?:bis|ter|quater)(?!\p{L}))\p{L}/iu;
/** A post-office box in place of the street: "BP 123", "CS 70001", "P.O. Box 1234", "Postfach 10 20 30". */
const PO_BOX = /^(?:P\.?\s?O\.?\s?Box|BP|B\.P\.|CS|TSA|Boîte postale|Postfach|Case postale)\s*\d[\d ]{0,9}$/iu;
/** A line naming a flat, suite, floor or door, which belongs with the street: "Suite 400", "Flat 2", "Top 12", "2nd Floor". */
const UNIT = new RegExp(
  String.raw`^(?:(?:${[
    'suite', 'ste\\.?', 'apt\\.?', 'apartment', 'unit', 'flat', 'floor', 'fl\\.?', 'level', 'room', 'rm\\.?', 'building',
    'bldg\\.?', '#', 'stiege', 'stg\\.?', 'top', 'tür', 'stock', 'etage', 'étage', 'bâtiment', 'bât\\.?', 'bat\\.?',
    'appartement', 'appt\\.?', 'escalier', 'porte',
  ].join('|')})(?!\p{L})\s*#?\s*[\p{L}\p{N}][\p{L}\p{N}-]{0,5}` +
    String.raw`|\d{1,3}(?:st|nd|rd|th|e|er|ème|\.)\s*(?:floor|fl\.?|étage|etage|stock|og))$`,
  'iu',
);
/**
 * Words in an English street's name (after its first word) and never in a continental town's:
 * "Amphitheatre Parkway", "Pennsylvania Avenue NW".
 */
const STREET_SUFFIXES = new Set([
  'street', 'road', 'rd', 'avenue', 'ave', 'boulevard', 'blvd', 'drive', 'dr', 'lane', 'ln', 'way', 'court', 'ct',
  'place', 'pl', 'parkway', 'pkwy', 'highway', 'hwy', 'circle', 'cir', 'square', 'sq', 'terrace', 'trail', 'plaza',
  'crescent', 'close', 'mews', 'suite', 'ste', 'floor', 'unit',
]);
/** Words that begin a French street's name: "Rue de Rivoli". */
const STREET_PREFIXES = new Set([
  'rue', 'avenue', 'av', 'boulevard', 'bd', 'chemin', 'allee', 'impasse', 'quai', 'place', 'route', 'cours', 'passage',
]);

const LEGAL_FORM = new RegExp(
  String.raw`(?<!\p{L})(?:${[
    'g?GmbH', 'mbH', 'GesmbH', 'Ges\\.m\\.b\\.H\\.', 'AG', 'UG', 'KG', 'KGaA', 'OHG', 'OG', 'KEG', 'GbR', 'PartG', 'mbB',
    'e\\.\\s?K(?:fm)?\\.', 'e\\.\\s?U\\.', 'e\\.\\s?V\\.', 'eG', 'SE', 'S\\.?A\\.?R\\.?L\\.?', 'S[àa]rl', 'SASU?', 'S\\.?A\\.?',
    'EURL', 'SNC', 'SCI', 'Ltd\\.?', 'LTD', 'Limited', 'LIMITED', 'LLC', 'L\\.L\\.C\\.', 'LLP', 'Inc\\.?', 'INC', 'Incorporated',
    'Corporation', '[Pp]lc', 'PLC', 'Corp\\.?', 'Co\\.',
  ].join('|')})(?!\p{L})`,
  'u',
);

// All of the following are matched against folded text (lower case, no accents).
/** Headings that announce the address itself; the company may stand above them. */
const ADDRESS_HEADINGS = [
  'anschrift', 'postanschrift', 'adresse', 'address', 'adresse postale', 'postal address', 'mailing address',
  'registered office', 'registered address', 'head office', 'headquarters', 'siege social', 'sitz', 'firmensitz',
];
const ADDRESS_HEADING = new RegExp(`^(?:${ADDRESS_HEADINGS.join('|')})$`);
/** Lines that introduce the address rather than belong to it. */
const HEADING = new RegExp(
  '^(?:' +
    [
      'impressum', 'imprint', 'legal notice', 'site notice', 'legal information', 'mentions legales',
      'informations legales', 'kontakt\\w*', 'contact\\w*', ...ADDRESS_HEADINGS,
      '(?:angaben|informationen|information) (?:gemass|nach|pursuant|according)\\b.*', 'offenlegung\\b.*',
      'diensteanbieter', 'anbieter', 'herausgeber', 'betreiber', 'editeur(?: du site)?', 'publisher',
      'proprietaire(?: du site)?', 'company details', 'company information', 'operator', 'coordonnees',
    ].join('|') +
    ')$',
);
/** "Anschrift: …", "Siège social : …", "Registered office: …" — the label goes, the value stays. */
const LABEL = new RegExp(
  `^(?:${[
    ...ADDRESS_HEADINGS, 'firma', 'company', 'unternehmen', 'anbieter', 'diensteanbieter', 'betreiber', 'herausgeber',
    'medieninhaber', 'inhaber', 'owner', 'editeur', 'publisher', 'siege', 'raison sociale', 'societe', 'company name',
  ].join('|')})$`,
);
/** Contact, register and management lines, whose numbers and names are never part of the address. */
const NOISE = new RegExp(
  String.raw`@|©|https?:|\+\d|\b(?:` +
    [
      // contact
      'tel', 'telefon', 'telephone', 'phone', 'fax', 'telefax', 'mobil', 'mobile', 'e-?mail', 'mail', 'courriel', 'www',
      'web', 'call us', 'copyright',
      // tax and register numbers: DE, AT ("FN 123456a", ZVR, GISA), FR, UK, US ("EIN 12-3456789")
      'ust', 'ust-?id\\w*', 'uid', 'vat', 'tva', 'umsatzsteuer\\w*', 'steuernummer', 'steuer-?nr', 'handelsregister',
      'register\\w*', 'amtsgericht', 'hrb', 'hra', 'firmenbuch\\w*', 'fn\\.?\\s?\\d+\\s?[a-z]', 'zvr', 'gisa', 'rcs',
      'siret', 'siren', 'naf', 'ape', 'companies house', 'company (?:no|number|reg\\w*)', 'employer identification',
      'ein\\s*(?:no\\.?|number|#)?\\s*:?\\s*\\d{2}-?\\d{7}', 'tax(?: ?id)?', 'duns',
      // bank and capital
      'iban', 'bic', 'swift', 'bankverbindung', 'bank (?:account|details)', 'stammkapital', 'grundkapital',
      'capital social', 'au capital', 'share capital',
      // management
      'geschaftsfuhr\\w*', 'vertreten', 'represented', 'director\\w*', 'directeur', 'gerant\\w*', 'president',
      'publication',
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
  const found = places.map((place) => ({ place, street: streetAbove(parts, place) }));
  // "1000 Broadway" above "New York, NY 10001" is a street, not a place of its own.
  const streetLines = new Set(
    found.flatMap(({ place, street }) => (place.kind === 'continental' || street === null ? [] : range(street.from, place.start))),
  );
  const candidates = found.filter(({ place }) => place.kind !== 'continental' || !streetLines.has(place.start));
  // Imprints name the operator first; a postcode with a street above it is the surer find.
  const chosen = candidates.find((candidate) => candidate.street !== null) ?? candidates[0];
  if (!chosen) return { company: null, street: null, zipCode: null, city: null };
  const { place, street } = chosen;
  return {
    company: companyAbove(parts, street?.from ?? place.start, street !== null),
    street: street?.text ?? null,
    zipCode: place.zipCode,
    city: place.city,
  };
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from }, (_, k) => from + k);
}

/**
 * The text cut into the pieces an address is written in: lines, then pieces between `|`, `·` or
 * `•`, then comma-separated pieces when one of them is a street or a place ("Beispiel GmbH,
 * Hauptstr. 5, 10115 Berlin"); a place written right after its street is cut off it too
 * ("5, avenue des Champs-Élysées 75008 Paris"). Labels such as "Anschrift:" are dropped.
 */
function partsOf(text: string): string[] {
  const parts: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    for (const piece of line.split(/\s*[|·•]\s*|\s+[–—]\s+/)) {
      const value = withoutLabel(clean(piece));
      const pieces = joinHouseNumbers(value.split(/\s*,\s*/)).flatMap(streetThenPlace);
      if (pieces.length > 1 && pieces.some((p) => isStreet(p) || isPlace(p))) parts.push(...pieces);
      else parts.push(value);
    }
  }
  return parts.filter(Boolean);
}

/** "12", "rue de la Paix" → "12, rue de la Paix"; "3 bis", "rue …" likewise (the French way of writing a house number). */
function joinHouseNumbers(pieces: string[]): string[] {
  const joined: string[] = [];
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i]!;
    const next = pieces[i + 1];
    if (next !== undefined && /^\d+\s?[a-z]?(?:\s(?:bis|ter|quater))?$/i.test(piece) && /^\p{L}/u.test(next)) {
      joined.push(`${piece}, ${next}`);
      i++;
    } else joined.push(piece);
  }
  return joined;
}

/** "Musterweg 3 04109 Leipzig" → "Musterweg 3", "04109 Leipzig"; anything else stays whole. */
function streetThenPlace(piece: string): string[] {
  for (const match of piece.matchAll(CONTINENTAL_PLACE_INSIDE)) {
    const street = piece.slice(0, match.index);
    const place = piece.slice(match.index + match[0].length);
    if (isStreet(street) && placeAt([place], 0)?.kind === 'continental') return [street, place];
  }
  return [piece];
}

function withoutLabel(part: string): string {
  const match = /^([^:]{2,30}?)\s*:\s*(.*)$/.exec(part);
  return match && LABEL.test(fold(match[1]!)) ? match[2]! : part;
}

function placeAt(parts: string[], i: number): Place | null {
  const part = parts[i]!;
  const before = parts[i - 1];
  const us = US_PLACE.exec(part);
  if (us && isTown(us[1]!)) return { zipCode: us[3]!, city: `${us[1]}, ${us[2]}`, start: i, kind: 'us' };
  const stateZip = US_STATE_ZIP.exec(part);
  if (stateZip && before !== undefined && isTown(before)) {
    return { zipCode: stateZip[2]!, city: `${before}, ${stateZip[1]}`, start: i - 1, kind: 'us' };
  }
  const town = parts[i - 2];
  if (US_ZIP_ONLY.test(part) && before !== undefined && US_STATE_ONLY.test(before) && town !== undefined && isTown(town)) {
    return { zipCode: part, city: `${town}, ${before}`, start: i - 2, kind: 'us' };
  }
  const continental = CONTINENTAL_PLACE.exec(part);
  if (continental && isTown(continental[2]!) && !namesStreet(continental[2]!)) {
    return { zipCode: continental[1]!, city: continental[2]!, start: i, kind: 'continental' };
  }
  const uk = UK_PLACE.exec(part);
  if (uk && isTown(uk[1]!)) return { zipCode: ukPostcode(uk[2]!), city: uk[1]!, start: i, kind: 'uk' };
  if (UK_POSTCODE_ONLY.test(part) && before !== undefined && isTown(before)) {
    return { zipCode: ukPostcode(part), city: before, start: i - 1, kind: 'uk' };
  }
  return null;
}

/** A place by itself, or the postcode part of one whose town went into the piece before. */
function isPlace(part: string): boolean {
  return placeAt([part], 0) !== null || UK_POSTCODE_ONLY.test(part) || US_STATE_ZIP.test(part);
}

/** "SW1A2AA" → "SW1A 2AA": the inward code is always the last three characters. */
function ukPostcode(code: string): string {
  const compact = code.replace(/\s+/g, '').toUpperCase();
  return `${compact.slice(0, -3)} ${compact.slice(-3)}`;
}

/** A town's name: capitalised words, a few particles, Cedex numbers; no sentence, no register line. */
function isTown(name: string): boolean {
  const words = name.split(/\s+/);
  if (words.length > 5 || !/^\p{Lu}/u.test(name)) return false;
  if (NOISE.test(fold(name)) || LEGAL_FORM.test(name) || /\b(?:eur|euro|chf|gbp|usd)\b/.test(fold(name))) return false;
  return words.every(
    (word) =>
      /^[\p{Lu}(]/u.test(word) || /^[dl]['’]\p{Lu}/u.test(word) || TOWN_PARTICLES.has(word) || /^\d{1,2}$/.test(word),
  );
}

/** What follows "1600" in "1600 Amphitheatre Parkway" or "1211 Avenue of the Americas": a street, not a town. */
function namesStreet(name: string): boolean {
  const words = fold(name).split(/\s+/).map((word) => word.replace(/[.,]$/, ''));
  // "St" ends "Main St" but begins "St. Pölten" and sits inside "Bad St. Leonhard im Lavanttal".
  if (STREET_PREFIXES.has(words[0]!) || words.slice(1).some((word) => STREET_SUFFIXES.has(word))) return true;
  return words.length > 1 && words.at(-1) === 'st';
}

/**
 * A street and house number, or a post-office box. Above a US or UK place, "1000 Broadway" is a
 * street although it reads like a continental postcode and town (`besideForeignPlace`).
 */
function isStreet(part: string, besideForeignPlace = false): boolean {
  if (NOISE.test(fold(part)) || isHeading(part) || UNIT.test(part) || part.length > 80) return false;
  if (PO_BOX.test(part)) return true;
  if (NAME_THEN_NUMBER.test(part) && !CONTINENTAL_PLACE.test(part) && !US_STATE_ZIP.test(part)) return true;
  if (!NUMBER_THEN_NAME.test(part)) return false;
  if (!besideForeignPlace) return !isPlace(part);
  const place = placeAt([part], 0);
  return place === null || place.kind === 'continental';
}

/**
 * The street right above a place, allowing one line between (a district, "c/o …") and flat, suite
 * or door lines above, below or between, which go with the street: "Flat 2, 14 High Street",
 * "123 Main St., Suite 400". A post-office box counts when no street stands right above it
 * ("10 avenue de France" over "CS 70001" over "75013 Paris" gives the avenue).
 */
function streetAbove(parts: string[], place: Place): Street | null {
  let others = 0;
  let poBox: Street | null = null;
  for (let i = place.start - 1; i >= Math.max(0, place.start - 4); i--) {
    const part = parts[i]!;
    if (isHeading(part)) break;
    if (UNIT.test(part)) continue;
    if (PO_BOX.test(part) && poBox === null) {
      poBox = { from: i, text: part };
      continue;
    }
    if (isStreet(part, place.kind !== 'continental')) {
      let from = i;
      while (from > 0 && from > i - 2 && UNIT.test(parts[from - 1]!)) from--;
      const lines = parts.slice(from, place.start).filter((line, k) => from + k <= i || UNIT.test(line));
      return { from, text: lines.join(', ') };
    }
    if (poBox !== null || ++others > 1) break;
  }
  return poBox;
}

/**
 * The nearest line with a legal form in the few lines above the address; failing that, the line
 * right above the street, if it reads like a name. A heading such as "Registered office" between
 * the company and its address is passed over.
 */
function companyAbove(parts: string[], from: number, hasStreet: boolean): string | null {
  let top = from;
  while (top > 0 && ADDRESS_HEADING.test(headingText(parts[top - 1]!))) top--;
  for (let i = top - 1; i >= Math.max(0, top - 4); i--) {
    const part = parts[i]!;
    if (isHeading(part)) break;
    if (!NOISE.test(fold(part)) && !UNIT.test(part) && LEGAL_FORM.test(part)) return part;
  }
  const above = parts[top - 1];
  if (!hasStreet || above === undefined || above.length > 80 || !/\p{L}/u.test(above)) return null;
  const plain = !isHeading(above) && !NOISE.test(fold(above)) && !isStreet(above) && !isPlace(above) && !UNIT.test(above);
  return plain ? above : null;
}

function isHeading(part: string): boolean {
  return HEADING.test(headingText(part));
}

function headingText(part: string): string {
  return fold(part).replace(/[\s:.]+$/, '');
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
  const country = countryOf(postal.addressCountry);
  const zipCode = postalCodeOf(postal.postalCode, country);
  const locality = textOf(postal.addressLocality);
  const region = textOf(postal.addressRegion);
  const american =
    country === 'US' || (country === null && region !== null && US_STATE_ONLY.test(region) && US_ZIP_ONLY.test(zipCode ?? ''));
  // A US town carries its state, as it does when read from the text.
  const withState = american && locality !== null && region !== null && !locality.endsWith(region);
  return { company, street: streetOf(postal.streetAddress), zipCode, city: withState ? `${locality}, ${region}` : locality };
}

/** `streetAddress`, whose lines ("Flat 2", "14 High Street") are joined the way the text writes them. */
function streetOf(value: unknown): string | null {
  const lines = (Array.isArray(value) ? value : [value]).flatMap((item) => (typeof item === 'string' ? item.split(/\r?\n/) : [item]));
  const texts = lines.map(textOf).filter((line) => line !== null);
  return texts.length ? texts.join(', ') : null;
}

/** `addressCountry` as a code ("US", "GB", "FR", "AT", "DE", "CH"), whether written as a code, a name or a Country. */
function countryOf(value: unknown): string | null {
  const name = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject).name : value;
  const text = textOf(name);
  if (text === null) return null;
  const folded = fold(text).replace(/\./g, '');
  const names: Record<string, string[]> = {
    US: ['usa', 'united states', 'united states of america'],
    GB: ['uk', 'united kingdom', 'great britain', 'england', 'scotland', 'wales', 'northern ireland'],
    FR: ['fra', 'france'],
    AT: ['aut', 'austria', 'osterreich', 'oesterreich'],
    DE: ['deu', 'germany', 'deutschland'],
    CH: ['che', 'switzerland', 'schweiz', 'suisse'],
  };
  const code = Object.keys(names).find((key) => key.toLowerCase() === folded || names[key]!.includes(folded));
  return code ?? text.toUpperCase();
}

/**
 * `postalCode` as the text would give it: without a country prefix ("A-1010" → "1010"), a UK
 * postcode spaced, and the leading zero a number lost put back where postcodes have five digits.
 */
function postalCodeOf(value: unknown, country: string | null): string | null {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) {
    return country === 'US' || country === 'FR' || country === 'DE' ? String(value).padStart(5, '0') : String(value);
  }
  const code = textOf(value);
  if (code === null) return null;
  const prefixed = /^[A-Z]{1,3}[-–]\s?(\d{4,5})$/iu.exec(code);
  if (prefixed) return prefixed[1]!;
  if (country === 'GB' && UK_POSTCODE_ONLY.test(code.toUpperCase())) return ukPostcode(code);
  return code;
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
