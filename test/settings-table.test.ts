import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { clientFields } from '../src/features/clients/client.contract.ts';
import { domainFields } from '../src/features/domains/domain.contract.ts';
import { assetFields } from '../src/features/embeddings/embedding-asset.contract.ts';
import { embeddingFields } from '../src/features/embeddings/embedding.contract.ts';
import { localeFields } from '../src/features/locales/locale.contract.ts';
import { themeFields } from '../src/features/themes/theme.contract.ts';
import type { FieldList } from '../src/kernel/contract/field-list.ts';

/** The table of what each setting does, read from the repository. */
const TABLE = new URL('../docs/SETTINGS.md', import.meta.url);
const REPOSITORY = new URL('../', import.meta.url);

/** Each heading of docs/SETTINGS.md with the contract its rows describe. */
const RESOURCES: Record<string, FieldList> = {
  Client: clientFields,
  Domain: domainFields,
  Theme: themeFields,
  Locale: localeFields,
  Embedding: embeddingFields,
  'Embedding asset': assetFields,
};

/** The one setting whose row may say it is kept without effect: the README documents why it is not enforced. */
const DOCUMENTED_DECISIONS = new Set(['Client.widgetDisplayMaxCount']);

type Row = { resource: string; setting: string; effect: string; shownBy: string; line: number };

/** The rows of the tables under each `## ` heading; a table line that is no row of three cells is a problem. */
function readTable(): { rows: Row[]; headings: string[]; problems: string[] } {
  const rows: Row[] = [];
  const headings: string[] = [];
  const problems: string[] = [];
  let resource: string | null = null;
  readFileSync(TABLE, 'utf8')
    .split('\n')
    .forEach((text, index) => {
      const line = index + 1;
      const heading = /^## (.+?)\s*$/.exec(text);
      if (heading) {
        resource = heading[1]!;
        headings.push(resource);
        return;
      }
      if (!text.startsWith('|') || resource === null) return;
      if (/^\|\s*Setting\s*\|/.test(text) || /^\|[-\s|]+\|$/.test(text)) return;
      const row = /^\| `([^`]+)` \| (.+?) \| (.+?) \|$/.exec(text);
      if (!row) {
        problems.push(`line ${line}: not a row of three cells with the setting in backticks: ${text}`);
        return;
      }
      rows.push({ resource, setting: row[1]!, effect: row[2]!, shownBy: row[3]!, line });
    });
  return { rows, headings, problems };
}

/** The fields a write may set: those with `write` that are not read-only. */
const writable = (list: FieldList) =>
  Object.entries(list)
    .filter(([, field]) => field.write !== undefined && !field.readOnly)
    .map(([name]) => name);

/** The paths a `Shown by` cell names: backticked, separated by commas; `—` names none. */
function pathsOf(cell: string): string[] | null {
  if (cell === '—') return [];
  if (!/^`[^`]+`(, `[^`]+`)*$/.test(cell)) return null;
  return [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);
}

describe('docs/SETTINGS.md', () => {
  const { rows, headings, problems } = readTable();

  it('has a heading for each resource, and every table line under one is a row', () => {
    expect(headings).toEqual(expect.arrayContaining(Object.keys(RESOURCES)));
    expect(problems).toEqual([]);
  });

  it.each(Object.keys(RESOURCES))('has one row under "## %s" for each writable field of its contract, and none for another field', (resource) => {
    const named = rows.filter((row) => row.resource === resource).map((row) => row.setting);
    const fields = writable(RESOURCES[resource]!);
    expect(fields.length, `${resource}: writable fields`).toBeGreaterThan(0);
    expect(
      fields.filter((field) => !named.includes(field)),
      `${resource}: writable fields without a row`,
    ).toEqual([]);
    expect(
      named.filter((setting) => !fields.includes(setting)),
      `${resource}: rows naming no writable field of the contract`,
    ).toEqual([]);
    expect(
      named.filter((setting, index) => named.indexOf(setting) !== index),
      `${resource}: settings with more than one row`,
    ).toEqual([]);
  });

  it('has no row that calls a setting "stored only" (but the documented decision on widgetDisplayMaxCount)', () => {
    const storedOnly = rows
      .filter((row) => /stored\s+only/i.test(`${row.effect} ${row.shownBy}`))
      .map((row) => `${row.resource}.${row.setting}`)
      .filter((name) => !DOCUMENTED_DECISIONS.has(name));
    expect(storedOnly).toEqual([]);
  });

  it('names for every setting the test files that show it, and each of them exists (or is being written)', () => {
    const malformed = rows.filter((row) => pathsOf(row.shownBy) === null).map((row) => `line ${row.line}: ${row.shownBy}`);
    expect(malformed, 'Shown by: backticked paths separated by commas, or —').toEqual([]);
    // Only a setting that does not act yet may name no test.
    const unshown = rows.filter((row) => pathsOf(row.shownBy)?.length === 0 && !/^Not yet\b/.test(row.effect));
    expect(unshown.map((row) => `${row.resource}.${row.setting}`)).toEqual([]);
    const missing = rows.flatMap((row) =>
      (pathsOf(row.shownBy) ?? [])
        .filter((path) => !existsSync(new URL(path, REPOSITORY)))
        .map((path) => `${row.resource}.${row.setting}: ${path}`),
    );
    expect(missing).toEqual([]);
    const notTests = rows.flatMap((row) => (pathsOf(row.shownBy) ?? []).filter((path) => !/^test\/.+\.test\.ts$/.test(path)));
    expect(notTests, 'Shown by names test files').toEqual([]);
  });
});
