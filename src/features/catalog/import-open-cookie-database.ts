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

const NECESSARY: PurposeId = '41ba25c';
const PERSONALISATION: PurposeId = '7c19e32';
const ANALYTICS: PurposeId = 'a717ff5';

/** The file's categories → purpose ids ("Functional" is decided row by row: functionalPurpose). */
const PURPOSE_BY_CATEGORY: Record<string, PurposeId> = {
  necessary: NECESSARY,
  security: NECESSARY,
  analytics: ANALYTICS,
  marketing: 'cdcbd7c',
  personalization: PERSONALISATION,
};

/**
 * What a "Functional" row's description says it is for. Functional is not "technically
 * necessary": only a row whose description names what the ePrivacy exemption covers — keeping
 * the visitor's consent choice, security (bots, fraud, CSRF, challenges, rate limits), spreading
 * load, signing in, a server session, the basket — is necessary; one that counts or measures is
 * analytics; every other one (a chat widget, a player, a payment button, a preference) needs
 * consent, as personalisation.
 */
const NECESSARY_USE =
  /consent|opt[- ]?(?:out|in)\b|cookie (?:banner|notice|preferences?|choices?|settings|categor)|\bbanner\b|csrf|xsrf|secur|fraud|\bbots?\b|automated traffic|captcha|challenge|spam|ddos|rate[- ]?limit|trusted (?:web )?traffic|load[- ]?balanc|server[- ]?cluster|session affinity|sticky|authenticat|\blog(?:ged)?[- ]?in\b|signed in|sign[- ]?in|session (?:on|with) the server|session instance|php session|shopping (?:cart|basket)|\bcart\b|\bbasket\b|checkout/i;
const MEASURING_USE = /statistic|analytic|telemetry|a\/b test|experiment|\bcount(?:s|ing)?\b|\bmeasur/i;

function functionalPurpose(description: string): PurposeId {
  if (MEASURING_USE.test(description)) return ANALYTICS;
  if (NECESSARY_USE.test(description)) return NECESSARY;
  return PERSONALISATION;
}

/** A row's purpose; `inferred`: a "Functional" row whose description says nothing more. */
function purposeOfRow(row: Row): { purpose: PurposeId; inferred: boolean } {
  const category = row[COLUMNS.category].trim().toLowerCase();
  if (category !== 'functional') return { purpose: PURPOSE_BY_CATEGORY[category] ?? '15c61c3', inferred: false };
  const purpose = functionalPurpose(row[COLUMNS.description]);
  return { purpose, inferred: purpose === PERSONALISATION };
}

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
 * A service is technically necessary when all its cookies are, or when most are and the rest only
 * remember the visitor's interface choices (language, currency: "user-interface customisation",
 * which the ePrivacy exemption covers too). Otherwise its purpose is the most common one its other
 * cookies state (Hotjar: analytics, though many of its rows say only "Functional"); a service whose
 * other cookies are all "Functional" and say nothing more (a chat or payment widget, a player) is
 * personalisation, which needs consent.
 */
function purposeForRows(rows: Row[]): PurposeId {
  const purposes = rows.map(purposeOfRow);
  const optional = purposes.filter(({ purpose }) => purpose !== NECESSARY);
  if (optional.length === 0) return NECESSARY;
  if (optional.length * 2 < purposes.length && optional.every(({ purpose }) => purpose === PERSONALISATION)) return NECESSARY;
  const stated = optional.filter(({ inferred }) => !inferred);
  return stated.length > 0 ? (mostCommon(stated.map(({ purpose }) => purpose)) as PurposeId) : PERSONALISATION;
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
