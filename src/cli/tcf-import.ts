import { readFile } from 'node:fs/promises';
import {
  GlobalVendorListError,
  type GlobalVendorListImportSummary,
  importGlobalVendorList,
} from '../features/tcf-vendors/import-global-vendor-list.ts';
import { withDatabase } from './database.ts';
import { CliError } from './errors.ts';
import { type Output, progress, stdio } from './output.ts';

const count = (n: number) => n.toLocaleString('en-US');
const plural = (n: number, one: string, many: string) => `${count(n)} ${n === 1 ? one : many}`;

/** The summary line: what was imported, and what it did to the embeddings that refer to TCF vendors. */
function describeImport(summary: GlobalVendorListImportSummary, into: string): string {
  const deleted = summary.deleted > 0 ? ` (${count(summary.deleted)} of them deleted)` : '';
  const replaced = summary.previousVersion === null ? '' : `, replacing version ${summary.previousVersion}`;
  const renamed = summary.renamedEmbeddings > 0
    ? `; ${plural(summary.renamedEmbeddings, 'embedding', 'embeddings')} took their TCF vendor's name as vendor`
    : '';
  const unmatched = summary.unmatchedEmbeddings > 0
    ? `; ${plural(summary.unmatchedEmbeddings, 'embedding refers', 'embeddings refer')} to a TCF vendor that is not a valid vendor of this list (left as is)`
    : '';
  return (
    `imported ${plural(summary.vendors, 'TCF vendor', 'TCF vendors')}${deleted} of Global Vendor List version ` +
    `${summary.vendorListVersion} into ${into}${replaced}${renamed}${unmatched}`
  );
}

/**
 * `tcf import <vendor-list.json>`: imports an IAB Europe Global Vendor List (format v3) into the
 * configured database, replacing the stored TCF vendors. All or nothing.
 */
export async function tcfImport(file: string, output: Output = stdio): Promise<void> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read ${file}: ${(error as Error).message}`);
  }
  await withDatabase(async (database) => {
    const line = progress(output);
    try {
      const summary = await importGlobalVendorList(database.orm.em.fork(), text, (done, total) => {
        line.update(`importing TCF vendors: ${count(done)}/${count(total)}`);
      });
      line.done();
      output.out(`${describeImport(summary, database.description)}\n`);
    } catch (error) {
      line.done();
      if (error instanceof GlobalVendorListError) throw new CliError(`cannot import ${file}: ${error.message}`, 1, { cause: error });
      throw error;
    }
  });
}
