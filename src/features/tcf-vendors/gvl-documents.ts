import type { EntityManager } from '@mikro-orm/postgresql';
import { LRUCache } from 'lru-cache';

/**
 * Imported lists and translations, parsed once per process: a stored version's document changes
 * only when it is imported again, and then its content hash changes with it, which the cache goes by.
 */

export type GvlVendor = Record<string, unknown> & { id: number; name: string; deletedDate?: string | null };

export type GvlDocument = Record<string, unknown> & {
  vendorListVersion: number;
  tcfPolicyVersion: number;
  lastUpdated: string;
  vendors: Record<string, GvlVendor>;
};

/** A translation file (`purposes-xx.json`): the list's texts in one language. */
export type GvlTranslation = Record<string, unknown>;

/** A real list is some 1-2 MB parsed; a process needs the newest and a base or two. */
const lists = new LRUCache<string, GvlDocument>({ max: 4 });
const translations = new LRUCache<string, GvlTranslation>({ max: 32 });

const parsed = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);

/** The stored lists of these versions (and content hashes, or their first 16 characters), by version; one statement for those not parsed yet. */
export async function vendorListDocuments(em: EntityManager, wanted: { version: number; hash: string }[]): Promise<Map<number, GvlDocument>> {
  const found = new Map<number, GvlDocument>();
  const missing: number[] = [];
  for (const { version, hash } of wanted) {
    const cached = lists.get(`${version}:${hash.slice(0, 16)}`);
    if (cached) found.set(version, cached);
    else missing.push(version);
  }
  if (missing.length > 0) {
    const rows = await em.execute<{ version: number; hash: string; document: GvlDocument | string }[]>(
      `select "vendor_list_version" as "version", "content_hash" as "hash", "document" from "tcf_vendor_list" where "vendor_list_version" = any(?::int[])`,
      [`{${missing.join(',')}}`],
    );
    for (const row of rows) {
      const document = parsed(row.document);
      lists.set(`${row.version}:${row.hash.slice(0, 16)}`, document);
      found.set(row.version, document);
    }
  }
  for (const { version } of wanted) if (!found.has(version)) throw new Error(`Global Vendor List version ${version} is not stored`);
  return found;
}

/** The stored translations named (language → its list version and short content hash), by language. */
export async function translationDocuments(
  em: EntityManager,
  wanted: Record<string, { vendorListVersion: number; hash: string }>,
): Promise<Map<string, GvlTranslation>> {
  const found = new Map<string, GvlTranslation>();
  const missing: [string, number][] = [];
  for (const [language, { vendorListVersion, hash }] of Object.entries(wanted)) {
    const cached = translations.get(`${language}:${vendorListVersion}:${hash}`);
    if (cached) found.set(language, cached);
    else missing.push([language, vendorListVersion]);
  }
  if (missing.length > 0) {
    const rows = await em.execute<{ language: string; version: number; hash: string; document: GvlTranslation | string }[]>(
      `select t."language", t."vendor_list_version" as "version", left(t."content_hash", 16) as "hash", t."document"
       from "tcf_translation" t join json_to_recordset(?::json) as w("language" text, "version" int)
         on w."language" = t."language" and w."version" = t."vendor_list_version"`,
      [JSON.stringify(missing.map(([language, version]) => ({ language, version })))],
    );
    for (const row of rows) {
      const document = parsed(row.document);
      translations.set(`${row.language}:${row.version}:${row.hash}`, document);
      found.set(row.language, document);
    }
  }
  return found;
}
