import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import { MAX_INT32 } from '../../kernel/contract/fields.ts';
import { TcfVendorEntity } from './tcf-vendor.entity.ts';

/**
 * Imports an IAB Europe Global Vendor List (`vendor-list.json`, format v3) that an operator
 * downloaded: the service has no network access, and the list's licence does not let the
 * project ship it. The list replaces the stored TCF vendors, all or nothing: a newer list is the
 * truth, vendors it no longer has are removed, vendors it marks deleted are stored as deleted.
 * An older list than the stored one is refused. Embeddings that refer to a vendor of the new list
 * take its name as their `vendor` (CCM19: `tcfVendor` overwrites `vendor` with the vendor's name).
 * The list is also kept whole by version (`tcf_vendor_list`): TCF domains ask for its vendors and
 * show its texts, and every TCF domain gets a revision due (published-tcf.ts), so its banner is
 * built again from the new list.
 */

export class GlobalVendorListError extends Error {}

const timestamp = z.iso.datetime({ offset: true });

/** Only what the service uses of each vendor is checked; the list's other fields may be anything. */
const vendorSchema = z.object({
  id: z.int().min(1).max(MAX_INT32),
  name: z.string().trim().min(1),
  /** Present: the vendor counts as deleted from this date/time on. */
  deletedDate: timestamp.nullish(),
});

const section = z.record(z.string(), z.unknown());

const listSchema = z
  .object({
    gvlSpecificationVersion: z.literal(3, {
      error: 'must be 3: only format v3 lists (https://vendor-list.consensu.org/v3/vendor-list.json) are supported',
    }),
    vendorListVersion: z.int().min(1).max(MAX_INT32),
    tcfPolicyVersion: z.int().min(1),
    lastUpdated: timestamp,
    purposes: section,
    specialPurposes: section,
    features: section,
    specialFeatures: section,
    stacks: section.optional(),
    dataCategories: section.optional(),
    vendors: z.record(z.string(), vendorSchema),
  })
  .superRefine((list, ctx) => {
    for (const [key, vendor] of Object.entries(list.vendors)) {
      if (key !== String(vendor.id)) {
        ctx.addIssue({ code: 'custom', path: ['vendors', key, 'id'], message: `is ${vendor.id}, not the vendor's key ${key}` });
      }
    }
    if (Object.keys(list.vendors).length === 0) ctx.addIssue({ code: 'custom', path: ['vendors'], message: 'has no vendors' });
  });

export type GlobalVendorList = z.output<typeof listSchema>;

const MAX_LISTED_PROBLEMS = 3;

/** The file's text → the list; throws GlobalVendorListError (one line) when it is not a Global Vendor List. */
export function parseGlobalVendorList(text: string): GlobalVendorList {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    // The parser's message quotes the file, newlines and all.
    throw new GlobalVendorListError(`not a JSON file: ${(error as Error).message.replace(/\s+/g, ' ').trim()}`);
  }
  const result = listSchema.safeParse(value);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `${issue.path.map(String).join('.') || 'the file'}: ${issue.message}`);
  const more = problems.length - MAX_LISTED_PROBLEMS;
  throw new GlobalVendorListError(
    `not an IAB Europe Global Vendor List (vendor-list.json, format v3): ${problems.slice(0, MAX_LISTED_PROBLEMS).join('; ')}` +
      (more > 0 ? ` (and ${more} more problem${more === 1 ? '' : 's'})` : ''),
  );
}

export type GlobalVendorListImportSummary = {
  vendorListVersion: number;
  /** The version that was stored before, or null when this is the first import. */
  previousVersion: number | null;
  /** Vendors stored, the deleted ones included. */
  vendors: number;
  /** Of those, the ones deleted (as of the import). */
  deleted: number;
  /** Embeddings whose `vendor` became their TCF vendor's name. */
  renamedEmbeddings: number;
  /** Embeddings that refer to a TCF vendor the list does not have, or has as deleted (left as they are). */
  unmatchedEmbeddings: number;
  /** The domains with `tcfEnabled`: each has a revision due (record them: `services.revisions.settle`). */
  tcfDomains: string[];
};

const BATCH = 500;

const isDeleted = (deletedDate: Date | null, now: Date) => deletedDate !== null && deletedDate <= now;

/** A vendor valid now: in the list and not deleted (yet). SQL, for `tcf_vendor` as `v`. */
const VALID_NOW = 'v.deleted_date is null or v.deleted_date > now()';

export async function importGlobalVendorList(
  em: EntityManager,
  text: string,
  onProgress: (done: number, total: number) => void = () => {},
): Promise<GlobalVendorListImportSummary> {
  const list = parseGlobalVendorList(text);
  const vendors = Object.values(list.vendors).map((vendor) => ({
    id: vendor.id,
    name: vendor.name,
    deletedDate: vendor.deletedDate ? new Date(vendor.deletedDate) : null,
    vendorListVersion: list.vendorListVersion,
  }));
  return em.transactional(async (tx) => {
    // One import at a time (they queue here); reads, and so embedding writes, go on meanwhile and
    // see the old list until this one commits.
    await tx.execute('lock table tcf_vendor in share row exclusive mode', [], 'run');
    const [stored] = await tx.execute<{ version: number }[]>('select vendor_list_version as version from tcf_vendor limit 1');
    const previousVersion = stored?.version ?? null;
    if (previousVersion !== null && previousVersion > list.vendorListVersion) {
      throw new GlobalVendorListError(
        `it is version ${list.vendorListVersion} of the Global Vendor List, older than the imported version ${previousVersion}`,
      );
    }
    await tx.nativeDelete(TcfVendorEntity, {});
    for (let start = 0; start < vendors.length; start += BATCH) {
      for (const vendor of vendors.slice(start, start + BATCH)) tx.create(TcfVendorEntity, vendor);
      await tx.flush();
      onProgress(Math.min(start + BATCH, vendors.length), vendors.length);
    }
    const renamed = await tx.execute<{ affectedRows: number }>(
      `update embedding as e set vendor = v.name, updated_at = now() from tcf_vendor as v
       where e.tcf_vendor = v.id and (${VALID_NOW}) and e.vendor <> v.name`,
      [],
      'run',
    );
    const [unmatched] = await tx.execute<{ count: string | number }[]>(
      `select count(*) as count from embedding as e where e.tcf_vendor is not null
       and not exists (select 1 from tcf_vendor as v where v.id = e.tcf_vendor and (${VALID_NOW}))`,
    );
    await tx.execute(
      `insert into "tcf_vendor_list" ("vendor_list_version", "tcf_policy_version", "last_updated", "content_hash", "document", "created_at", "updated_at")
       values (?, ?, ?, ?, ?::json, now(), now())
       on conflict ("vendor_list_version") do update set "tcf_policy_version" = excluded."tcf_policy_version",
         "last_updated" = excluded."last_updated", "content_hash" = excluded."content_hash", "document" = excluded."document", "updated_at" = now()`,
      [list.vendorListVersion, list.tcfPolicyVersion, list.lastUpdated, createHash('sha256').update(text).digest('hex'), text],
      'run',
    );
    const tcfDomains = await noteTcfDomainsDue(tx, 'tcf_vendor_list');
    // Domains that got TCF while no list was imported: this one is what they began with.
    await tx.execute(`update "tcf_domain_base" set "vendor_list_version" = ?, "updated_at" = now() where "vendor_list_version" is null`, [list.vendorListVersion], 'run');
    const now = new Date();
    return {
      vendorListVersion: list.vendorListVersion,
      previousVersion,
      vendors: vendors.length,
      deleted: vendors.filter((vendor) => isDeleted(vendor.deletedDate, now)).length,
      renamedEmbeddings: renamed.affectedRows,
      unmatchedEmbeddings: Number(unmatched?.count ?? 0),
      tcfDomains,
    };
  });
}

/**
 * A revision due (`revision_due`, naming `table` as what changed) for every domain with
 * `tcfEnabled`: its recording reads the domain's TCF part again. Answers their ids.
 */
export async function noteTcfDomainsDue(tx: EntityManager, table: string): Promise<string[]> {
  const rows = await tx.execute<{ domainId: string }[]>(
    `insert into "revision_due" ("domain_id", "tables") select "id", array[?]::text[] from "domain" where "tcf_enabled" returning "domain_id" as "domainId"`,
    [table],
  );
  return rows.map((row) => row.domainId);
}
