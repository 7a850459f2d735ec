import { startFailureLine, startService } from '../app/service.ts';
import { CliError } from './errors.ts';

/**
 * `serve`: starts the service exactly as `npm start` does; it runs until SIGTERM or SIGINT. It
 * fails as `npm start` does too: `error: cannot start: <reason>` naming the setting, exit code 1.
 */
export async function serve(): Promise<void> {
  try {
    await startService();
  } catch (error) {
    const line = startFailureLine(error);
    if (line) throw new CliError(line, 1, { cause: error });
    throw new CliError(`the service could not start: ${error instanceof Error ? error.message : String(error)}`, 1, { cause: error });
  }
}
