import { clientCreate } from '../features/clients/client.contract.ts';
import { toProblems } from '../kernel/contract/validate.ts';
import { createClient } from '../features/clients/client.operations.ts';
import { withAdminContext } from './database.ts';
import { type Output, stdio } from './output.ts';
import { invalidOptions } from './errors.ts';

export type ClientCreateOptions = {
  username: string;
  email: string;
  password?: string;
  passwordHash?: string;
  firstName?: string;
  lastName?: string;
  company?: string;
  active?: boolean;
};

/** The payload field each option fills, for error messages. */
const OPTION_OF: Record<string, string> = {
  username: '--username',
  emailAddress: '--email',
  password: '--password',
  passwordHash: '--password-hash',
  firstName: '--first-name',
  lastName: '--last-name',
  company: '--company',
  active: '--active',
};

/** `client create`: creates a client as `POST /hosting/api/client` does (same schema, same operation); prints it as JSON. */
export async function clientCreateCommand(options: ClientCreateOptions, output: Output = stdio): Promise<void> {
  const payload = {
    username: options.username,
    emailAddress: options.email,
    password: options.password,
    passwordHash: options.passwordHash,
    firstName: options.firstName,
    lastName: options.lastName,
    company: options.company,
    active: options.active,
  };
  const parsed = clientCreate.safeParse(Object.fromEntries(Object.entries(payload).filter(([, value]) => value !== undefined)));
  if (!parsed.success) throw invalidOptions(toProblems(parsed.error.issues), OPTION_OF);
  const client = await withAdminContext((ctx) => createClient(ctx, parsed.data));
  output.out(`${JSON.stringify(client, null, 2)}\n`);
}
