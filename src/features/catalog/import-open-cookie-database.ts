import { parse } from 'csv-parse/sync';
import type { EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import type { PurposeId } from '../../kernel/contract/fields.ts';
import { ImportedCookieEntity, ImportedServiceEntity, type ImportedServiceRow } from './imported.entity.ts';

/**
 * Imports a CSV in the Open Cookie Database format into the catalog: each platform becomes a
 * service (preset ids from 100000), each row one of its cookies. Importing the same file again
 * updates what is there; nothing is deleted.
 */

const FIRST_IMPORTED_PRESET_ID = 100_000;

const COLUMNS = {
  id: 'ID',
  platform: 'Platform',
  category: 'Category',
  name: 'Cookie / Data Key name',
  domain: 'Domain',
  description: 'Description',
  retention: 'Retention period',
  controller: 'Data Controller',
  privacyUrl: 'User Privacy & GDPR Rights Portals',
  wildcard: 'Wildcard match',
} as const;

const rowSchema = z.object({
  [COLUMNS.id]: z.string().min(1),
  [COLUMNS.platform]: z.string().min(1),
  [COLUMNS.category]: z.string(),
  [COLUMNS.name]: z.string().min(1),
  [COLUMNS.domain]: z.string(),
  [COLUMNS.description]: z.string(),
  [COLUMNS.retention]: z.string(),
  [COLUMNS.controller]: z.string(),
  [COLUMNS.privacyUrl]: z.string(),
  [COLUMNS.wildcard]: z.enum(['0', '1', '']),
});

/** The file's categories → purpose ids. */
const PURPOSE_BY_CATEGORY: Record<string, PurposeId> = {
  necessary: '41ba25c',
  security: '41ba25c',
  functional: '41ba25c',
  analytics: 'a717ff5',
  marketing: 'cdcbd7c',
  personalization: '7c19e32',
};
const purposeForCategory = (category: string): PurposeId =>
  PURPOSE_BY_CATEGORY[category.trim().toLowerCase()] ?? '15c61c3';

export type ImportSummary = { rows: number; services: number; newServices: number; skipped: { line: number; reason: string }[] };

export class CatalogImportError extends Error {}

type Row = z.infer<typeof rowSchema>;

/** Parses the file; throws CatalogImportError when it is not in the expected format. */
function parseOpenCookieDatabase(csv: string): { rows: Row[]; skipped: ImportSummary['skipped'] } {
  let records: Record<string, string>[];
  try {
    records = parse(csv, { columns: true, skip_empty_lines: true, trim: true, bom: true, relax_column_count: true });
  } catch (error) {
    throw new CatalogImportError(`not a readable CSV file: ${(error as Error).message}`);
  }
  const missing = Object.values(COLUMNS).filter((column) => records.length > 0 && !(column in records[0]!));
  if (records.length === 0 || missing.length > 0) {
    throw new CatalogImportError(
      records.length === 0 ? 'the file has no rows' : `not in the Open Cookie Database format: missing column(s) ${missing.join(', ')}`,
    );
  }
  const rows = new Map<string, Row>(); // by ID: a repeated ID counts once, the last row wins
  const skipped: ImportSummary['skipped'] = [];
  records.forEach((record, index) => {
    const parsed = rowSchema.safeParse(record);
    if (parsed.success) rows.set(parsed.data[COLUMNS.id], parsed.data);
    else skipped.push({ line: index + 2, reason: parsed.error.issues.map((i) => `${String(i.path[0])}: ${i.message}`).join('; ') });
  });
  return { rows: [...rows.values()], skipped };
}

/**
 * A service is technically necessary only when all its cookies are; otherwise its purpose is
 * that of the most common of its other cookies (Hotjar: analytics, though many of its rows say
 * "Functional").
 */
function purposeForRows(rows: Row[]): PurposeId {
  const purposes = rows.map((row) => purposeForCategory(row[COLUMNS.category]));
  const optional = purposes.filter((purpose) => purpose !== '41ba25c');
  return (mostCommon(optional.length > 0 ? optional : purposes) || '15c61c3') as PurposeId;
}

function mostCommon(values: string[]): string {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '';
}

export async function importOpenCookieDatabase(
  em: EntityManager,
  csv: string,
  onProgress: (done: number, total: number) => void = () => {},
): Promise<ImportSummary> {
  const { rows, skipped } = parseOpenCookieDatabase(csv);
  const byPlatform = Map.groupBy(rows, (row) => row[COLUMNS.platform]);
  return em.transactional(async (tx) => {
    const existing = new Map((await tx.find(ImportedServiceEntity, {})).map((service) => [service.platform, service]));
    let nextId = Math.max(FIRST_IMPORTED_PRESET_ID - 1, ...[...existing.values()].map((service) => service.id)) + 1;
    let newServices = 0;
    const services = new Map<string, ImportedServiceRow>();
    for (const [platform, platformRows] of byPlatform) {
      const fields = {
        vendor: mostCommon(platformRows.map((row) => row[COLUMNS.controller]).filter(Boolean)) || platform,
        purpose: purposeForRows(platformRows),
        privacyPolicyUrl: mostCommon(platformRows.map((row) => row[COLUMNS.privacyUrl]).filter(Boolean)),
      };
      let service = existing.get(platform);
      if (service) tx.assign(service, fields);
      else {
        service = tx.create(ImportedServiceEntity, { id: nextId++, platform, ...fields });
        newServices++;
      }
      services.set(platform, service);
    }
    await tx.flush();
    const BATCH = 500;
    for (let start = 0; start < rows.length; start += BATCH) {
      const batch = rows.slice(start, start + BATCH);
      await tx.upsertMany(
        ImportedCookieEntity,
        batch.map((row) => ({
          id: row[COLUMNS.id],
          service: services.get(row[COLUMNS.platform])!,
          name: row[COLUMNS.name],
          wildcard: row[COLUMNS.wildcard] === '1',
          category: row[COLUMNS.category],
          domain: row[COLUMNS.domain],
          description: row[COLUMNS.description],
          retention: row[COLUMNS.retention],
        })),
      );
      onProgress(Math.min(start + BATCH, rows.length), rows.length);
    }
    return { rows: rows.length, services: byPlatform.size, newServices, skipped };
  });
}
