import { apiKeyCreate } from '../features/api-keys/api-key.contract.ts';
import { toProblems } from '../kernel/contract/validate.ts';
import { createApiKey } from '../features/api-keys/api-key.operations.ts';
import { isId } from '../kernel/ids.ts';
import { withAdminContext } from './database.ts';
import { type Output, stdio } from './output.ts';
import { invalidOptions, usageError } from './errors.ts';

export type KeyCreateOptions = { client: string; name: string };

/**
 * `key create`: creates an API key of a client as `POST /hosting/api/client/{id}/apikey` does.
 * The key goes to stdout alone (so it can be captured), the warning to keep it to stderr.
 */
export async function keyCreateCommand(options: KeyCreateOptions, output: Output = stdio): Promise<void> {
  if (!isId(options.client)) throw usageError(`invalid --client: must be a client id (a UUID), got "${options.client}"`);
  const parsed = apiKeyCreate.safeParse({ name: options.name });
  if (!parsed.success) throw invalidOptions(toProblems(parsed.error.issues), { name: '--name' });
  const created = await withAdminContext((ctx) => createApiKey(ctx, options.client, parsed.data));
  output.err(
    `Created API key "${created.name}" (id ${created.id}) for client ${options.client}.\n` +
      `Store it now: it is kept only as a hash and will not be shown again.\n`,
  );
  output.out(`${created.key}\n`);
}
