import type { EntityManager } from '@mikro-orm/postgresql';
import { type GvlDocument, vendorListDocuments } from './gvl-documents.ts';

/**
 * What a TCF domain publishes of IAB TCF (part of its revisions, banner/published-configuration.ts):
 * the Global Vendor List version its vendors come from and, for each vendor, what the vendor
 * declares in that list. A new list that changes the domain's vendors or their declarations
 * changes the domain's legal revision (its visitors are asked again); one that changes nothing
 * for the domain changes only the content revision (the version it names).
 */

/** A vendor as far as consent is concerned: the purposes, features and special features it declares. */
export type TcfDeclaredVendor = {
  id: number;
  purposes: number[];
  legIntPurposes: number[];
  flexiblePurposes: number[];
  specialPurposes: number[];
  features: number[];
  specialFeatures: number[];
};

export type PublishedTcf = {
  vendorListVersion: number;
  policyVersion: number;
  /** The list as imported (a hash of its text): a list of the same version imported again with other texts is new content. */
  listHash: string;
  /** The domain's vendors, ascending by id. */
  vendors: TcfDeclaredVendor[];
  /** Language (ISO 639-1) of a domain locale → the imported translation of the list's texts shown in it (none: English). */
  translations: Record<string, { vendorListVersion: number; hash: string }>;
};

/** The language of a locale name (`de_DE` → `de`). */
export const languageOf = (locale: string): string => locale.split(/[_-]/)[0]!.toLowerCase();

const DECLARED = ['purposes', 'legIntPurposes', 'flexiblePurposes', 'specialPurposes', 'features', 'specialFeatures'] as const;

const ids = (value: unknown): number[] => (Array.isArray(value) ? value.filter((id): id is number => Number.isInteger(id)).sort((a, b) => a - b) : []);

export const declaredOf = (vendor: Record<string, unknown>): TcfDeclaredVendor => ({
  id: vendor.id as number,
  ...(Object.fromEntries(DECLARED.map((field) => [field, ids(vendor[field])])) as Omit<TcfDeclaredVendor, 'id'>),
});

/** Whether a vendor of a list counts as valid at `now`: not deleted, or deleted only later. */
export const isValidVendor = (vendor: { deletedDate?: unknown } | undefined, now: Date): boolean =>
  vendor !== undefined && (typeof vendor.deletedDate !== 'string' || new Date(vendor.deletedDate) > now);

type Selection = { version: number; hash: string; base: number | null; baseHash: string | null; embedded: number[]; translations: Record<string, { vendorListVersion: number; hash: string }> };

/**
 * One statement: the newest imported list, the domain's base list, its active embeddings' TCF
 * vendors and the newest imported translation per language.
 */
const SELECTION = `select l."vendor_list_version" as "version", l."content_hash" as "hash",
    bl."vendor_list_version" as "base", bl."content_hash" as "baseHash",
    (select coalesce(json_agg(distinct e."tcf_vendor"), '[]'::json) from "embedding" e
      where e."domain_id" = ? and e."active" and e."tcf_vendor" is not null) as "embedded",
    (select coalesce(json_object_agg(t."language", json_build_object('vendorListVersion', t."vendor_list_version", 'hash', left(t."content_hash", 16))), '{}'::json)
      from (select distinct on ("language") "language", "vendor_list_version", "content_hash" from "tcf_translation"
            order by "language", "vendor_list_version" desc) t) as "translations"
  from (select "vendor_list_version", "content_hash" from "tcf_vendor_list" order by "vendor_list_version" desc limit 1) l
  left join "tcf_domain_base" b on b."domain_id" = ?
  left join "tcf_vendor_list" bl on bl."vendor_list_version" = b."vendor_list_version"`;

const parsed = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);

/**
 * The domain's TCF part, for a domain with `tcfEnabled`; undefined when no list was ever imported
 * (the banner then works as without TCF). The domain's vendors: the newest list's valid vendors,
 * minus `tcfVendorBlacklist`, minus (without `tcfEnableNewVendorsAfterGvlUpdate`) those its base
 * list lacks, plus its active embeddings' `tcfVendor` where the list has it as valid. One
 * statement, and one more for a list this process has not parsed yet.
 */
/** The domain's settings the selection reads (its `Domain`, as the API shows it). */
export type TcfDomainSettings = { tcfVendorBlacklist: readonly number[]; tcfEnableNewVendorsAfterGvlUpdate: boolean; locales: readonly string[] };

export async function readPublishedTcf(em: EntityManager, domainId: string, domain: TcfDomainSettings, now = new Date()): Promise<PublishedTcf | undefined> {
  const [row] = await em.execute<Selection[]>(SELECTION, [domainId, domainId]);
  if (!row) return undefined;
  const wanted = [{ version: row.version, hash: row.hash }];
  if (row.base !== null && row.baseHash !== null && row.base !== row.version) wanted.push({ version: row.base, hash: row.baseHash });
  const lists = await vendorListDocuments(em, wanted);
  const list = lists.get(row.version)!;
  const base = row.base === null ? undefined : lists.get(row.base);
  const chosen = selectVendors(list, {
    blacklist: domain.tcfVendorBlacklist,
    newVendors: domain.tcfEnableNewVendorsAfterGvlUpdate,
    base,
    embedded: parsed(row.embedded),
    now,
  });
  const languages = new Set(domain.locales.map(languageOf));
  const translations = Object.fromEntries(
    Object.entries(parsed(row.translations))
      .filter(([language]) => languages.has(language))
      .sort(([a], [b]) => (a < b ? -1 : 1)),
  );
  return {
    vendorListVersion: row.version,
    policyVersion: list.tcfPolicyVersion,
    listHash: row.hash.slice(0, 16),
    vendors: chosen.map((id) => declaredOf(list.vendors[String(id)]!)),
    translations,
  };
}

/** The vendor ids a domain asks for (see `readPublishedTcf`), ascending. */
export function selectVendors(
  list: GvlDocument,
  rules: { blacklist: readonly number[]; newVendors: boolean; base: GvlDocument | undefined; embedded: readonly number[]; now: Date },
): number[] {
  const valid = (id: number) => isValidVendor(list.vendors[String(id)], rules.now);
  const blacklisted = new Set(rules.blacklist);
  const chosen = new Set<number>();
  for (const vendor of Object.values(list.vendors)) {
    if (!valid(vendor.id) || blacklisted.has(vendor.id)) continue;
    if (!rules.newVendors && rules.base && !(String(vendor.id) in rules.base.vendors)) continue;
    chosen.add(vendor.id);
  }
  for (const id of rules.embedded) if (valid(id)) chosen.add(id);
  return [...chosen].sort((a, b) => a - b);
}
