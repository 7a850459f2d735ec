import { isDeepStrictEqual } from 'node:util';
import { createPatch, type Operation, Pointer } from 'rfc6902';
import { CATEGORY_OF_PURPOSE, type PurposeId } from '../banner/banner-config.ts';
import type { PublishedTcf } from '../tcf-vendors/published-tcf.ts';
import type { PublishedConfiguration } from '../banner/published-configuration.ts';
import type { Embedding } from '../embeddings/embedding.contract.ts';
import { THEME_COLORS } from '../themes/theme.contract.ts';

/**
 * What changed between two published configurations of a domain: a JSON Patch (RFC 6902) from the
 * older to the newer, and one short sentence per change for people, e.g.
 * `embedding YouTube: purpose social_media → marketing`.
 */

export type ConfigurationChange = {
  /** JSON pointer of the changed part: in the newer configuration, or in the older one for what was removed. */
  path: string;
  summary: string;
};

export type ConfigurationDiff = { patch: Operation[]; changes: ConfigurationChange[] };

export function diffConfigurations(older: PublishedConfiguration, newer: PublishedConfiguration): ConfigurationDiff {
  return {
    patch: createPatch(older, newer),
    changes: [
      ...fieldChanges(older.domain, newer.domain, samePlace(['domain']), { subject: () => 'domain settings' }),
      ...embeddingChanges(older.embeddings, newer.embeddings),
      ...listChanges(older.placeholders, newer.placeholders, samePlace(['placeholders']), {
        kind: 'placeholder',
        keys: [(placeholder) => placeholder.name],
        nameOf: (placeholder) => placeholder.name,
        changesOf: (before, after, at) => fieldChanges(before, after, at, { subject: () => `placeholder ${after.name}` }),
      }),
      ...themeChanges(older.theme, newer.theme),
      ...listChanges(older.locales, newer.locales, samePlace(['locales']), {
        kind: 'locale',
        keys: [(locale) => locale.name],
        nameOf: (locale) => locale.name,
        changesOf: (before, after, at) => fieldChanges(before, after, at, { subject: () => `locale ${after.name}`, label: localeTextLabel }),
      }),
      ...tcfChanges(older.tcf, newer.tcf),
    ],
  };
}

const vendors = (ids: number[]) => `${ids.length === 1 ? 'vendor' : 'vendors'} ${ids.join(', ')}`;

/** A TCF domain's vendors (tcf-vendors/published-tcf.ts): one summary of what a new list or a setting changed. */
function tcfChanges(older: PublishedTcf | undefined, newer: PublishedTcf | undefined): ConfigurationChange[] {
  if (JSON.stringify(older) === JSON.stringify(newer)) return [];
  if (!newer) return [{ path: '/tcf', summary: 'TCF vendors removed' }];
  if (!older) return [{ path: '/tcf', summary: `TCF vendors added: ${newer.vendors.length} of Global Vendor List version ${newer.vendorListVersion}` }];
  const before = new Map(older.vendors.map((vendor) => [vendor.id, JSON.stringify(vendor)]));
  const after = new Map(newer.vendors.map((vendor) => [vendor.id, JSON.stringify(vendor)]));
  const added = [...after.keys()].filter((id) => !before.has(id));
  const removed = [...before.keys()].filter((id) => !after.has(id));
  const redeclared = [...after.keys()].filter((id) => before.has(id) && before.get(id) !== after.get(id));
  const parts = [
    ...(older.vendorListVersion !== newer.vendorListVersion ? [`Global Vendor List version ${older.vendorListVersion} → ${newer.vendorListVersion}`] : []),
    ...(older.policyVersion !== newer.policyVersion ? [`TCF policy version ${older.policyVersion} → ${newer.policyVersion}`] : []),
    ...(added.length > 0 ? [`${vendors(added)} added`] : []),
    ...(removed.length > 0 ? [`${vendors(removed)} removed`] : []),
    ...(redeclared.length > 0 ? [`${vendors(redeclared)} ${redeclared.length === 1 ? 'declares' : 'declare'} other purposes or features`] : []),
    ...(JSON.stringify(older.translations) !== JSON.stringify(newer.translations) ? ["translations of the list's texts changed"] : []),
  ];
  return [{ path: '/tcf', summary: `TCF: ${parts.length > 0 ? parts.join('; ') : 'the imported list changed'}` }];
}

// ── lists of named things ───────────────────────────────────────────────────

type Tokens = readonly (string | number)[];
/** Where a part is in the older and in the newer configuration (an embedding's assets move with it). */
type Where = { older: Tokens; newer: Tokens };

const samePlace = (tokens: Tokens): Where => ({ older: tokens, newer: tokens });
// A Pointer's first token is the empty one before the leading `/`.
const pointer = (tokens: Tokens) => new Pointer(['', ...tokens.map(String)]).toString();

type ListOptions<T> = {
  /** What one item is called in a summary: `embedding`, `cookie`, … */
  kind: string;
  /** How the older item of a newer one is found: by the first key, then among those left by the next. */
  keys: ((item: T) => string)[];
  nameOf: (item: T) => string;
  changesOf: (older: T, newer: T, at: Where) => ConfigurationChange[];
  /** Put before every summary of the list itself (`embedding YouTube: ` before `cookie _ga added`). */
  subject?: string;
};

/** Changes of kept items and added ones in the newer order, then removed ones, then a reorder. */
function listChanges<T>(older: readonly T[], newer: readonly T[], at: Where, options: ListOptions<T>): ConfigurationChange[] {
  const olderIndexOf = pairUp(older, newer, options.keys);
  const subject = options.subject ?? '';
  const changes = newer.flatMap((item, index): ConfigurationChange[] => {
    const olderIndex = olderIndexOf[index];
    if (olderIndex === undefined) {
      return [{ path: pointer([...at.newer, index]), summary: `${subject}${options.kind} ${options.nameOf(item)} added` }];
    }
    return options.changesOf(older[olderIndex]!, item, { older: [...at.older, olderIndex], newer: [...at.newer, index] });
  });
  const kept = olderIndexOf.filter((index) => index !== undefined);
  const keptSet = new Set(kept);
  older.forEach((item, index) => {
    if (!keptSet.has(index)) {
      changes.push({ path: pointer([...at.older, index]), summary: `${subject}${options.kind} ${options.nameOf(item)} removed` });
    }
  });
  if (kept.some((index, position) => position > 0 && index < kept[position - 1]!)) {
    changes.push({ path: pointer(at.newer), summary: `${subject}${options.kind}s reordered` });
  }
  return changes;
}

/** For each newer item, the index of the older item it is (undefined: it is new); each older item pairs once. */
function pairUp<T>(older: readonly T[], newer: readonly T[], keys: ((item: T) => string)[]): (number | undefined)[] {
  const olderIndexOf: (number | undefined)[] = newer.map(() => undefined);
  const paired = new Set<number>();
  for (const keyOf of keys) {
    const waiting = new Map<string, number[]>();
    older.forEach((item, index) => {
      if (paired.has(index)) return;
      const key = keyOf(item);
      waiting.set(key, [...(waiting.get(key) ?? []), index]);
    });
    newer.forEach((item, index) => {
      if (olderIndexOf[index] !== undefined) return;
      const match = waiting.get(keyOf(item))?.shift();
      if (match === undefined) return;
      olderIndexOf[index] = match;
      paired.add(match);
    });
  }
  return olderIndexOf;
}

function embeddingChanges(older: readonly Embedding[], newer: readonly Embedding[]): ConfigurationChange[] {
  return listChanges(older, newer, samePlace(['embeddings']), {
    kind: 'embedding',
    keys: [(embedding) => embedding.id],
    nameOf: (embedding) => embedding.name,
    changesOf: (before, after, at) => {
      const { assets: olderAssets, ...olderFields } = before;
      const { assets: newerAssets, ...newerFields } = after;
      return [
        ...fieldChanges(olderFields, newerFields, at, {
          subject: (field) => `embedding ${field === 'name' ? before.name : after.name}`,
          format: (path, value) => (path[0] === 'purpose' ? categoryName(value) : undefined),
        }),
        ...listChanges(olderAssets, newerAssets, { older: [...at.older, 'assets'], newer: [...at.newer, 'assets'] }, {
          kind: 'cookie',
          keys: [(asset) => asset.id, (asset) => asset.name],
          nameOf: (asset) => asset.name,
          subject: `embedding ${after.name}: `,
          changesOf: (olderAsset, newerAsset, assetAt) =>
            fieldChanges(olderAsset, newerAsset, assetAt, {
              subject: (field) => `embedding ${after.name}: cookie ${field === 'name' ? olderAsset.name : newerAsset.name}`,
            }),
        }),
      ];
    },
  });
}

function themeChanges(older: PublishedConfiguration['theme'], newer: PublishedConfiguration['theme']): ConfigurationChange[] {
  if (older === null && newer === null) return [];
  if (older === null) return [{ path: '/theme', summary: `theme ${newer!.name} added` }];
  if (newer === null) return [{ path: '/theme', summary: `theme ${older.name} removed` }];
  if (older.id !== newer.id) return [{ path: '/theme', summary: `theme ${older.name} → theme ${newer.name}` }];
  const isColour = (path: readonly string[]) => path.length === 1 && THEME_COLOR_NAMES.has(path[0]!);
  return fieldChanges(older, newer, samePlace(['theme']), {
    subject: (field) => `theme ${field === 'name' ? older.name : newer.name}`,
    label: (path) => (isColour(path) ? colourLabel(path[0]!) : path.join('.')),
    // Colours read best bare: `#0a0a0a → #222222`.
    format: (path, value) => (isColour(path) && typeof value === 'string' ? value : undefined),
  });
}

// ── fields ──────────────────────────────────────────────────────────────────

type FieldOptions = {
  /** Who a change is about, by the field it is in: `embedding YouTube`. */
  subject: (field: string) => string;
  label?: (path: readonly string[]) => string;
  /** A value as a field wants it shown; undefined: as any value is. */
  format?: (path: readonly string[], value: unknown) => string | undefined;
};

/**
 * One change per differing leaf (nested objects are walked, lists are values), e.g.
 * `translations.en_US.name "A" → "B"`. A difference no leaf shows (an empty object appeared)
 * still gives one, so no difference goes unsaid.
 */
function fieldChanges(older: object, newer: object, at: Where, options: FieldOptions): ConfigurationChange[] {
  const label = options.label ?? ((path) => path.join('.'));
  const olderLeaves = new Map(leavesOf(older).map((leaf) => [pointer(leaf.path), leaf]));
  const newerLeaves = new Map(leavesOf(newer).map((leaf) => [pointer(leaf.path), leaf]));
  const changes: ConfigurationChange[] = [];
  for (const key of new Set([...newerLeaves.keys(), ...olderLeaves.keys()])) {
    const before = olderLeaves.get(key);
    const after = newerLeaves.get(key);
    if (before && after && isDeepStrictEqual(before.value, after.value)) continue;
    const path = (after ?? before)!.path;
    const [from, to] = formatPair(before?.value, after?.value);
    changes.push({
      path: pointer([...(after ? at.newer : at.older), ...path]),
      summary:
        `${options.subject(path[0]!)}: ${label(path)} ` +
        `${options.format?.(path, before?.value) ?? from} → ${options.format?.(path, after?.value) ?? to}`,
    });
  }
  if (changes.length === 0 && !isDeepStrictEqual(older, newer)) {
    changes.push({ path: pointer(at.newer), summary: `${options.subject('')} changed` });
  }
  return changes;
}

type Leaf = { path: string[]; value: unknown };

function leavesOf(value: object, path: string[] = []): Leaf[] {
  return Object.entries(value).flatMap(([key, inner]): Leaf[] => {
    if (inner === undefined) return [];
    if (isPlainObject(inner)) return leavesOf(inner, [...path, key]);
    return [{ path: [...path, key], value: inner }];
  });
}

const isPlainObject = (value: unknown): value is object => typeof value === 'object' && value !== null && !Array.isArray(value);

// ── words ───────────────────────────────────────────────────────────────────

const MAX_TEXT = 60;
/** Characters kept before the first difference when a long text is cut to show it. */
const CONTEXT = 20;

/** A value as short text: strings quoted, lists joined, yes/no, none for null. */
function formatValue(value: unknown): string {
  if (value === null || value === undefined) return 'none';
  if (typeof value === 'string') return JSON.stringify(excerpt([...value], 0));
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (Array.isArray(value)) return value.length === 0 ? 'none' : excerpt([...value.map(formatValue).join(', ')], 0);
  if (typeof value === 'object') return excerpt([...JSON.stringify(value)], 0);
  return String(value);
}

/** Two values as text; two long texts are cut at the same place, near where they first differ, so the difference shows. */
function formatPair(older: unknown, newer: unknown): [string, string] {
  if (typeof older !== 'string' || typeof newer !== 'string') return [formatValue(older), formatValue(newer)];
  const before = [...older];
  const after = [...newer];
  let common = 0;
  while (common < before.length && common < after.length && before[common] === after[common]) common++;
  const fits = Math.max(before.length, after.length) <= MAX_TEXT;
  const start = fits || common < MAX_TEXT - CONTEXT ? 0 : common - CONTEXT;
  return [JSON.stringify(excerpt(before, start)), JSON.stringify(excerpt(after, start))];
}

function excerpt(characters: readonly string[], start: number): string {
  const end = start + MAX_TEXT;
  return `${start > 0 ? '…' : ''}${characters.slice(start, end).join('')}${end < characters.length ? '…' : ''}`;
}

/** `cdcbd7c` → `marketing`; undefined for what is no purpose id. */
const categoryName = (purpose: unknown): string | undefined =>
  typeof purpose === 'string' && Object.hasOwn(CATEGORY_OF_PURPOSE, purpose) ? CATEGORY_OF_PURPOSE[purpose as PurposeId] : undefined;

const THEME_COLOR_NAMES: ReadonlySet<string> = new Set(THEME_COLORS);

/** `primaryButtonBackgroundColor` → `primary button background colour`. */
const colourLabel = (field: string) => `${field.replace(/Color$/, '').replace(/[A-Z]/g, (letter) => ` ${letter.toLowerCase()}`)} colour`;

/** `purposeNames.cdcbd7c` → `purposeNames.marketing`: purposes by the category names people know. */
const localeTextLabel = (path: readonly string[]) =>
  path.map((token, index) => (index === 1 && /^purpose(Names|Descriptions)$/.test(path[0]!) ? (categoryName(token) ?? token) : token)).join('.');
