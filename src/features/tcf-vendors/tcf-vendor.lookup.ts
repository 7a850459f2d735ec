import type { EntityManager } from '@mikro-orm/postgresql';
import { invalidPayload } from '../../kernel/contract/validate.ts';

/**
 * CCM19: an embedding's `tcfVendor` "takes precedence over the `vendor` property and overwrites it
 * with the respective vendor's name". Once an operator has imported a Global Vendor List
 * (`consent-config tcf import`), a write that sets `tcfVendor` must name a vendor of it that is
 * not deleted, and its `vendor` becomes that vendor's name. Without an imported list any id is
 * taken and `vendor` stays as sent; `tcfVendor: null` (or leaving it out) changes no `vendor`.
 */

type Found = {
  /** Version of the imported list. */
  version: number;
  /** null: the list has no vendor with this id. */
  name: string | null;
  deleted: boolean;
  deletedOn: string | null;
};

/**
 * One statement, by primary key: the vendor and the imported list's version (no row: no list
 * imported; every stored vendor comes from the same list, so any row tells its version).
 */
const LOOKUP =
  'select list.vendor_list_version as "version", v.name as "name", ' +
  '(v.deleted_date is not null and v.deleted_date <= now()) as "deleted", ' +
  `to_char(v.deleted_date at time zone 'UTC', 'YYYY-MM-DD') as "deletedOn" ` +
  'from (select vendor_list_version from tcf_vendor limit 1) as list left join tcf_vendor as v on v.id = ?';

/**
 * The write's fields with `vendor` set to the name of the TCF vendor `tcfVendor` names; as they
 * are when they set no `tcfVendor` (no statement then) or no list has been imported. Throws the
 * validation error of a payload (400, BAD_USER_INPUT) for an id that is not a valid vendor of
 * the imported list. Run it inside the write's transaction.
 */
export async function withTcfVendorName<T extends { tcfVendor?: number | null | undefined; vendor?: string | undefined }>(
  em: EntityManager,
  fields: T,
): Promise<T> {
  const id = fields.tcfVendor;
  if (id === undefined || id === null) return fields;
  const [found] = await em.execute<Found[]>(LOOKUP, [id]);
  if (!found) return fields;
  const notInList = `is not a vendor of the imported Global Vendor List (version ${found.version})`;
  if (found.name === null) throw invalidPayload([{ path: '/tcfVendor', message: notInList }]);
  if (found.deleted) throw invalidPayload([{ path: '/tcfVendor', message: `${notInList}: it was deleted on ${found.deletedOn}` }]);
  return { ...fields, vendor: found.name };
}
