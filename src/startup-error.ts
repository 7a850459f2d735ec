/**
 * A reason the service (or a command) cannot start that the person starting it can act on: a
 * setting, a busy port, an unreachable database, a data directory another process holds. Its
 * message is one line naming the setting or the resource; it is printed as it is, without a stack.
 */
export class StartupError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'StartupError';
  }
}
