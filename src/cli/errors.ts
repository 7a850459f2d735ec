import { CommanderError } from 'commander';
import { SettingsError } from '../config.ts';
import { type FieldProblem, ServiceError } from '../kernel/errors.ts';
import { type Output, stdio } from './output.ts';

/** A failure the user can act on: printed as one line, `error: <message>`, with `exitCode`. */
export class CliError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode = 1, options?: ErrorOptions) {
    super(message, options);
    this.name = 'CliError';
    this.exitCode = exitCode;
  }
}

/** A bad argument or option value: exit code 2. */
export const usageError = (message: string) => new CliError(message, 2);

/** Problems of a payload (JSON pointers such as `/emailAddress`) → one usage error naming the options. */
export function invalidOptions(problems: FieldProblem[], optionOf: Record<string, string>): CliError {
  const lines = problems.map(({ path, message }) => {
    const field = path.replace(/^\//, '');
    return `${optionOf[field] ?? (field || 'input')}: ${message}`;
  });
  return usageError(`invalid ${lines.join('; ')}`);
}

/**
 * Turns what a command threw into one line on stderr (`error: …`; the stack too with DEBUG=1)
 * and returns the exit code: 2 for usage and validation errors, 1 for every other failure.
 */
export function reportFailure(error: unknown, output: Output = stdio, debug = process.env.DEBUG === '1'): number {
  // Commander has already printed its message (or the help, or the version).
  if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
  let code = 1;
  let message: string;
  if (error instanceof CliError) {
    code = error.exitCode;
    message = error.message;
  } else if (error instanceof ServiceError) {
    code = error.kind === 'validation' ? 2 : 1;
    message = [error.message, ...error.problems.map((problem) => `${problem.path || '/'}: ${problem.message}`)].join('; ');
  } else if (error instanceof SettingsError) {
    message = error.message;
  } else {
    message = error instanceof Error ? error.message : String(error);
  }
  output.err(`error: ${message.replace(/\s+/g, ' ').trim()}\n`);
  if (debug) {
    const cause = error instanceof Error && error.cause !== undefined ? error.cause : error;
    output.err(`${cause instanceof Error ? cause.stack : String(cause)}\n`);
  }
  return code;
}
