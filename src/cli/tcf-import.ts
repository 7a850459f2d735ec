import { readFile } from 'node:fs/promises';
import {
  GlobalVendorListError,
  type GlobalVendorListImportSummary,
  importGlobalVendorList,
} from '../features/tcf-vendors/import-global-vendor-list.ts';
import { importTranslation } from '../features/tcf-vendors/import-translation.ts';
import { withAdminContext, withDatabase } from './database.ts';
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

async function readText(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read ${file}: ${(error as Error).message}`);
  }
}

/**
 * Records the revisions an import left due for the TCF domains, so that their banners (in every
 * running process, which hears of the new revisions) are built again from it now, not at the
 * service's next sweep of due revisions.
 */
async function publishTcfDomains(domainIds: string[], output: Output): Promise<void> {
  if (domainIds.length === 0) return;
  await withAdminContext((ctx) => ctx.services.revisions.settle(domainIds));
  output.out(`published the banners of ${plural(domainIds.length, 'TCF domain', 'TCF domains')} again\n`);
}

/**
 * `tcf import <vendor-list.json>`: imports an IAB Europe Global Vendor List (format v3) into the
 * configured database, replacing the stored TCF vendors and keeping the list by version. All or
 * nothing. The domains with TCF publish their banners again from it.
 */
export async function tcfImport(file: string, output: Output = stdio): Promise<void> {
  const text = await readText(file);
  const domains = await withDatabase(async (database) => {
    const line = progress(output);
    try {
      const summary = await importGlobalVendorList(database.orm.em.fork(), text, (done, total) => {
        line.update(`importing TCF vendors: ${count(done)}/${count(total)}`);
      });
      line.done();
      output.out(`${describeImport(summary, database.description)}\n`);
      return summary.tcfDomains;
    } catch (error) {
      line.done();
      if (error instanceof GlobalVendorListError) throw new CliError(`cannot import ${file}: ${error.message}`, 1, { cause: error });
      throw error;
    }
  });
  await publishTcfDomains(domains, output);
}

/**
 * `tcf import-translation <language> <purposes-xx.json>`: imports IAB Europe's translation of the
 * list's texts into one language; TCF domains with a locale in it show it.
 */
export async function tcfImportTranslation(language: string, file: string, output: Output = stdio): Promise<void> {
  const text = await readText(file);
  const domains = await withDatabase(async (database) => {
    try {
      const summary = await importTranslation(database.orm.em.fork(), language, text);
      output.out(
        `imported the ${summary.language} translation of Global Vendor List version ${summary.vendorListVersion} into ${database.description}` +
          `${summary.replaced ? ', replacing the one imported before' : ''}\n`,
      );
      return summary.tcfDomains;
    } catch (error) {
      if (error instanceof GlobalVendorListError) throw new CliError(`cannot import ${file}: ${error.message}`, 1, { cause: error });
      throw error;
    }
  });
  await publishTcfDomains(domains, output);
}
