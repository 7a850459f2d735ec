import { changeCount, describePlan, planImport } from '../features/config-as-code/configuration-import.ts';
import { isId } from '../kernel/ids.ts';
import { withAdminContext } from './database.ts';
import { readDocumentFile } from './document-file.ts';
import { CliError, usageError } from './errors.ts';
import { type Output, stdio } from './output.ts';

export type ImportOptions = { client?: string; domain?: string; yes?: boolean };

/** The exit code of an import without `--yes` that would change something: a script can tell "up to date" (0) from "changes pending". */
export const CHANGES_PENDING_EXIT_CODE = 3;

/**
 * `import <file>`: reads a document (an export of a domain or a client), prints what it would
 * change here and, with `--yes`, applies it through the service's operations
 * (configuration-import.ts). Without `--yes` nothing is written: exit code 0 when nothing would
 * change, 3 when changes are pending. After applying, the file is compared again: what the service
 * stored otherwise than the file says (so that the next import would change it again) fails the
 * command (exit code 1).
 */
export async function importCommand(file: string, options: ImportOptions, output: Output = stdio): Promise<void> {
  const document = await readDocumentFile(file);
  if (options.client !== undefined && !isId(options.client)) throw usageError(`--client: must be a client id (a UUID), not "${options.client}"`);
  if (options.domain !== undefined && !isId(options.domain)) throw usageError(`--domain: must be a domain id (a UUID), not "${options.domain}"`);
  if (document.kind === 'domain' && options.client === undefined) throw usageError(`${file} holds a domain: name the client it goes into with --client <clientId>`);
  if (document.kind === 'client' && options.domain !== undefined) throw usageError(`${file} holds a client with its domains: --domain is for a domain's file`);
  const target = { clientId: options.client, domainId: options.domain };

  const code = await withAdminContext(async (ctx) => {
    const plan = await planImport(ctx, document, target);
    for (const line of describePlan(plan)) output.out(`${line}\n`);
    const count = changeCount(plan);
    if (count === 0) return 0;
    if (!options.yes) {
      output.err(`nothing written: run again with --yes to apply ${count === 1 ? 'the change' : `the ${count} changes`}\n`);
      return CHANGES_PENDING_EXIT_CODE;
    }
    for (const message of await plan.apply(ctx)) output.out(`${message}\n`);
    const left = changeCount(await planImport(ctx, document, target));
    if (left > 0) {
      throw new CliError(`applied, but ${left} ${left === 1 ? 'difference remains' : 'differences remain'}: the service stored other values than the file has (import again without --yes to see them)`);
    }
    output.out(`applied ${count} ${count === 1 ? 'change' : 'changes'}\n`);
    return 0;
  });
  if (code !== 0) process.exitCode = code;
}
