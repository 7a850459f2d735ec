import fc from 'fast-check';
import { type GraphQLInputType, getNullableType, isInputObjectType, isListType, isNonNullType } from 'graphql';

/**
 * fast-check generators shared by the property suites: hostile strings (odd Unicode, lone
 * surrogates, NUL, huge), odd ids and path segments, names, hostile values written as JSON or
 * GraphQL literals, and values of a GraphQL input type, valid or not.
 */

// ── strings ─────────────────────────────────────────────────────────────────

/** Strings that have broken parsers, encoders, databases and templates before. */
const WEIRD_STRINGS = [
  '', ' ', '\t\n', '\u0000', 'a\u0000b', '\ud800', '\udfff', 'x\udc00y', '\ud83d', '😀', '\u202e\u202d', '\uffff',
  '\ufeff', 'ä', 'Ω≈ç√', '𝔘𝔫𝔦𝔠𝔬𝔡𝔢', 'ﷺ', '\u0301', '../../etc/passwd', '<script>alert(1)</script>',
  "'; drop table client; --", '${7*7}', '{{7*7}}', '%00', '#zzzzzz', '#FFFFFF', 'javascript:alert(1)', 'https://',
  'de_DE', '6cd2721', 'cookie', 'true', 'null', '__proto__',
];

/** One UTF-16 surrogate on its own: no valid Unicode, not encodable as UTF-8. */
const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code));

/** Odd text: the weird strings, any UTF-16 units (NUL included), whole graphemes, a lone surrogate inside text. */
export const unicodeText = fc.oneof(
  fc.constantFrom(...WEIRD_STRINGS),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.tuple(fc.string({ maxLength: 8 }), loneSurrogate, fc.string({ maxLength: 8 })).map(([a, s, b]) => a + s + b),
);

/** 1,000 to ~100,000 UTF-16 units of one repeated unit. */
export const hugeText = fc
  .tuple(fc.integer({ min: 1_000, max: 100_000 }), fc.constantFrom('a', 'é', '😀', '\u0000', '\ud800', '"', '\\', ' ', '<', '-', '0'))
  .map(([length, unit]) => unit.repeat(Math.ceil(length / unit.length)));

// ── ids and path segments ───────────────────────────────────────────────────

/** Ids as sent in a body or GraphQL variable: empty, dot steps, NUL, nearly-UUIDs, prototype names… */
const ODD_IDS = [
  '', ' ', '.', '..', '../..', '%2F', '%2e%2e', 'a/b', '/', '\\', '%00', '\u0000', 'a\u0000b', '\ud800', '😀', 'ä', 'null',
  'undefined', '0', '-1', 'NaN', 'true', '*', '%', '\n', "' OR '1'='1", '__proto__', 'constructor', 'prototype', 'toString',
  'hasOwnProperty', '00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff',
  '01900000-0000-7000-8000-000000000000', '01900000-0000-7000-8000-00000000000', '{01900000-0000-7000-8000-000000000000}',
  'urn:uuid:01900000-0000-7000-8000-000000000000', '01900000-0000-7000-8000-000000000000\u0000',
];

/** An id that names nothing or is malformed. */
export const oddId = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...ODD_IDS) },
  { weight: 2, arbitrary: unicodeText },
  { weight: 1, arbitrary: fc.uuid() },
  { weight: 1, arbitrary: hugeText },
);

/** Path segments as sent, i.e. already percent-encoded (some wrongly). */
const ODD_PATH_SEGMENTS = [
  '..', '.', '%2e%2e', '%2E', '.%2e', '%2F', 'a%2Fb', '..%2F..%2F..', '%2F..%2F', '%5C..%5C', '%00', '%', '%zz',
  '%E0%A4%A', '%ED%A0%80', '%C0%AF', '%FF%FE', 'null', 'undefined', '0', '-1', 'NaN', 'true',
  '00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff', '01900000-0000-7000-8000-000000000000',
  '01900000-0000-7000-8000-00000000000', '{01900000-0000-7000-8000-000000000000}', 'urn:uuid:01900000-0000-7000-8000-000000000000',
  '%20', '+', '*', '~', "'", '%27%20OR%20%271%27%3D%271', '%3Cscript%3E', '__proto__', 'constructor', 'prototype',
  'hasOwnProperty', 'toString', '%7B%7D', '%5B%5D', ';', ',', '@', '$', '!', '(', ')', '%0A', '%0D%0A', '%09',
];

/** encodeURIComponent, with lone surrogates written as their (invalid) 3-byte UTF-8 forms. */
function encodeSegment(value: string): string {
  let out = '';
  for (const char of value) {
    const code = char.codePointAt(0)!;
    if (code >= 0xd800 && code <= 0xdfff) {
      out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        .map((byte) => `%${byte.toString(16).toUpperCase()}`)
        .join('');
    } else out += encodeURIComponent(char);
  }
  return out;
}

/**
 * A long encoded segment, kept under ~8,000 characters: Node's HTTP server refuses a request
 * head over 16 KiB with 431 before the service sees it.
 */
const longSegment = fc
  .tuple(fc.integer({ min: 100, max: 8_000 }), fc.constantFrom('a', '0', 'é', '😀', '\ud800', '/', '..', '-', '%'))
  .map(([length, unit]) => {
    const encoded = encodeSegment(unit);
    return encoded.repeat(Math.max(1, Math.floor(length / encoded.length)));
  });

/** A path segment in place of an id, as sent: never empty. */
export const oddPathSegment = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...ODD_PATH_SEGMENTS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }).map(encodeSegment) },
  { weight: 1, arbitrary: fc.tuple(fc.string({ maxLength: 6 }), loneSurrogate).map(([a, s]) => encodeSegment(a + s)) },
  { weight: 1, arbitrary: fc.uuid() },
  { weight: 2, arbitrary: longSegment },
);

// ── names ───────────────────────────────────────────────────────────────────

/** Short names of name characters, leaning on the dot, which URL parsers treat specially (`.`, `..`, `a..`). */
export const dotHeavyName = fc.string({ unit: fc.constantFrom('.', '.', '.', '-', '_', 'a', 'Z', '0'), minLength: 1, maxLength: 6 });

// ── colours ─────────────────────────────────────────────────────────────────

/** A theme colour as the contract takes it, `#rrggbb`, in either case. */
export const hexColour = fc
  .tuple(fc.integer({ min: 0, max: 0xffffff }), fc.boolean())
  .map(([value, upper]) => {
    const hex = `#${value.toString(16).padStart(6, '0')}`;
    return upper ? hex.toUpperCase() : hex;
  });

// ── values, as JSON text or GraphQL literals ────────────────────────────────

/**
 * A value written out by hand rather than by JSON.stringify, so `__proto__` keys and duplicate
 * keys survive; a leaf holds its JSON text and its GraphQL literal.
 */
export type JsonTree =
  | { kind: 'leaf'; json: string; gql: string }
  | { kind: 'list'; items: JsonTree[] }
  | { kind: 'object'; entries: [string, JsonTree][] };

export const leaf = (json: string, gql = json): JsonTree => ({ kind: 'leaf', json, gql });
export const list = (items: JsonTree[]): JsonTree => ({ kind: 'list', items });
export const object = (entries: [string, JsonTree][]): JsonTree => ({ kind: 'object', entries });
export const NULL = leaf('null');

/** JSON string escapes are GraphQL string escapes too (lone surrogates aside: a parse error). */
export function treeOf(value: unknown): JsonTree {
  if (Array.isArray(value)) return list(value.map(treeOf));
  if (value !== null && typeof value === 'object') return object(Object.entries(value).map(([k, v]) => [k, treeOf(v)]));
  return leaf(JSON.stringify(value) ?? 'null');
}

export function jsonOf(tree: JsonTree): string {
  if (tree.kind === 'leaf') return tree.json;
  if (tree.kind === 'list') return `[${tree.items.map(jsonOf).join(',')}]`;
  return `{${tree.entries.map(([key, value]) => `${JSON.stringify(key)}:${jsonOf(value)}`).join(',')}}`;
}

/** As a GraphQL literal; a key that is no GraphQL name makes the document unparsable, as it should. */
export function literalOf(tree: JsonTree): string {
  if (tree.kind === 'leaf') return tree.gql;
  if (tree.kind === 'list') return `[${tree.items.map(literalOf).join(', ')}]`;
  return `{${tree.entries.map(([key, value]) => `${key}: ${literalOf(value)}`).join(', ')}}`;
}

/** Keys that reach Object.prototype when code copies objects carelessly. */
export const PROTO_KEYS = ['__proto__', 'constructor', 'prototype'] as const;

/** Number literals JavaScript cannot hold exactly, or at all, and 32-bit edges. */
export const NUMBER_TEXTS = ['0', '-0', '-1', '1.5', '1e400', '-1e400', '1e-400', '2147483648', '-2147483649', '9007199254740993', '123456789012345678901234567890'];

/** A number, boolean, null or odd string. */
const hostileScalar = fc.oneof(
  fc.oneof(fc.integer(), fc.double(), fc.boolean(), fc.constant(null)).map(treeOf),
  fc.constantFrom(...NUMBER_TEXTS).map((number) => leaf(number)),
  unicodeText.map(treeOf),
);

/** 50–5,000 levels of lists or objects. */
const deepNesting = fc.tuple(fc.integer({ min: 50, max: 5_000 }), fc.boolean()).map(([depth, lists]) =>
  lists
    ? leaf('['.repeat(depth) + ']'.repeat(depth))
    : leaf('{"a":'.repeat(depth) + 'null' + '}'.repeat(depth), '{a: '.repeat(depth) + 'null' + '}'.repeat(depth)),
);

/** `{ polluted: true }`: what a prototype-pollution attempt plants. */
export const polluted = object([['polluted', leaf('true')]]);

/** Objects that try to pollute Object.prototype. */
export const pollution = fc.oneof(
  fc.constantFrom(
    object([['__proto__', polluted]]),
    object([['constructor', object([['prototype', polluted]])]]),
    object([['__proto__', object([['__proto__', polluted]])]]),
    list([object([['__proto__', polluted]])]),
  ),
  fc.tuple(fc.constantFrom(...PROTO_KEYS), hostileScalar).map(([key, value]) => object([[key, value]])),
);

/** 1,001 copies of one item: one more than any list the service takes. */
export const thousandAndOne = (item: JsonTree) => list(Array.from({ length: 1_001 }, () => item));

/** Any value, mostly of the wrong type for wherever it lands. */
export const hostileValue: fc.Arbitrary<JsonTree> = fc.oneof(
  { weight: 6, arbitrary: hostileScalar },
  { weight: 1, arbitrary: hugeText.map(treeOf) },
  { weight: 1, arbitrary: deepNesting },
  { weight: 2, arbitrary: pollution },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }).map(treeOf) },
  { weight: 2, arbitrary: fc.array(hostileScalar, { maxLength: 6 }).map(list) },
  { weight: 1, arbitrary: hostileScalar.map(thousandAndOne) },
  { weight: 1, arbitrary: fc.constant(NULL) },
);

// ── values of a GraphQL input type ──────────────────────────────────────────

/** A valid value of an input type (optional fields sometimes left out). */
export function validInputValue(type: GraphQLInputType, depth = 0): fc.Arbitrary<unknown> {
  if (isNonNullType(type)) return validInputValue(type.ofType, depth);
  if (isListType(type)) return fc.array(validInputValue(type.ofType as GraphQLInputType, depth + 1), { maxLength: depth > 2 ? 0 : 3 });
  if (isInputObjectType(type)) {
    const fields = Object.values(type.getFields());
    const requiredKeys = fields.filter((field) => isNonNullType(field.type) && field.defaultValue === undefined).map((field) => field.name);
    const model = Object.fromEntries(fields.map((field) => [field.name, validInputValue(field.type, depth + 1)]));
    return fc.record(model, { requiredKeys } as { requiredKeys: never[] });
  }
  switch (type.name) {
    case 'Int':
      return fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 });
    case 'Float':
      return fc.double({ noNaN: true, noDefaultInfinity: true });
    case 'Boolean':
      return fc.boolean();
    case 'ID':
      return fc.oneof(fc.string({ maxLength: 8 }), fc.nat());
    default:
      return fc.string({ maxLength: 8 });
  }
}

/**
 * A value no coercion to `type` accepts, with the problem at the value itself: for a list, no
 * array (its items would be at fault), but a value its single item would not take either.
 */
export function wrongInputValue(type: GraphQLInputType): fc.Arbitrary<unknown> {
  if (isNonNullType(type)) return fc.oneof(fc.constant(null), wrongInputValue(type.ofType));
  const inList = isListType(type);
  const named = inList ? getNullableType(type.ofType as GraphQLInputType) : type;
  const notArrays = (values: unknown[]) => fc.constantFrom(...values.filter((value) => !(inList && Array.isArray(value))));
  if (isListType(named)) return fc.constant('not a list');
  if (isInputObjectType(named)) return notArrays(['text', 42, true, [1]]);
  switch (named.name) {
    case 'Int':
      return notArrays([1.5, 'one', true, 2 ** 31, {}, -(2 ** 31) - 1, [1]]);
    case 'Float':
      return notArrays(['1.5', false, {}, [1, 2]]);
    case 'Boolean':
      return notArrays(['yes', 0, 1, {}, 'true', [true]]);
    case 'ID':
      return notArrays([true, 1.5, {}, [1, 2]]);
    default:
      return notArrays([5, true, {}, [1, 2], 1.5]);
  }
}
