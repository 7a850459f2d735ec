import { SettingsError } from '../config.ts';
import { startService } from '../service.ts';
import { CliError } from './errors.ts';

/** `serve`: starts the service exactly as `npm start` does; it runs until SIGTERM or SIGINT. */
export async function serve(): Promise<void> {
  try {
    await startService();
  } catch (error) {
    if (error instanceof SettingsError) throw new CliError(error.message);
    throw new CliError(`the service could not start: ${error instanceof Error ? error.message : String(error)}`, 1, { cause: error });
  }
}
