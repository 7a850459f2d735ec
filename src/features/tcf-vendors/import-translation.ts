import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import { GlobalVendorListError, noteTcfDomainsDue } from './import-global-vendor-list.ts';

/**
 * Imports a translation of the Global Vendor List's texts that an operator downloaded (IAB Europe
 * publishes them beside the list as `purposes-xx.json`: purposes, special purposes, features,
 * special features, stacks and data categories in one language). It is kept per language and the
 * list version it names (or, when it names none, the newest imported list's); the banner of a TCF
 * domain with a locale in that language shows the newest imported translation of the language,
 * section by section, the list's English where it has none. Every TCF domain gets a revision due.
 */

const entry = z.object({ id: z.int(), name: z.string(), description: z.string() }).loose();
const section = z.record(z.string(), entry);

const translationSchema = z.object({
  vendorListVersion: z.int().min(1).optional(),
  purposes: section,
  specialPurposes: section.optional(),
  features: section.optional(),
  specialFeatures: section.optional(),
  stacks: section.optional(),
  dataCategories: section.optional(),
}).loose();

/** ISO 639-1 (two letters), as IAB names its translation files. */
const LANGUAGE = /^[a-z]{2}$/;

export type TranslationImportSummary = { language: string; vendorListVersion: number; replaced: boolean; tcfDomains: string[] };

export function parseTranslation(text: string): z.output<typeof translationSchema> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new GlobalVendorListError(`not a JSON file: ${(error as Error).message.replace(/\s+/g, ' ').trim()}`);
  }
  const result = translationSchema.safeParse(value);
  if (result.success) return result.data;
  const problems = result.error.issues.slice(0, 3).map((issue) => `${issue.path.map(String).join('.') || 'the file'}: ${issue.message}`);
  throw new GlobalVendorListError(`not a translation of the Global Vendor List (purposes-xx.json): ${problems.join('; ')}`);
}

export async function importTranslation(em: EntityManager, language: string, text: string): Promise<TranslationImportSummary> {
  const lang = language.toLowerCase();
  if (!LANGUAGE.test(lang)) throw new GlobalVendorListError(`${JSON.stringify(language)} is not a language: give its two-letter ISO 639-1 code (de, fr, …)`);
  const translation = parseTranslation(text);
  return em.transactional(async (tx) => {
    const [newest] = await tx.execute<{ version: number }[]>(`select max("vendor_list_version") as "version" from "tcf_vendor_list"`);
    const vendorListVersion = translation.vendorListVersion ?? newest?.version ?? null;
    if (vendorListVersion === null) {
      throw new GlobalVendorListError('the file names no vendorListVersion and no Global Vendor List has been imported: import the list first (tcf import)');
    }
    const [stored] = await tx.execute<{ replaced: boolean }[]>(
      `insert into "tcf_translation" ("language", "vendor_list_version", "content_hash", "document", "created_at", "updated_at")
       values (?, ?, ?, ?::json, now(), now())
       on conflict ("language", "vendor_list_version") do update set "content_hash" = excluded."content_hash", "document" = excluded."document", "updated_at" = now()
       returning (xmax <> 0) as "replaced"`,
      [lang, vendorListVersion, createHash('sha256').update(text).digest('hex'), text],
    );
    const tcfDomains = await noteTcfDomainsDue(tx, 'tcf_translation');
    return { language: lang, vendorListVersion, replaced: stored?.replaced === true, tcfDomains };
  });
}
