import { registerHooks } from 'node:module';

/**
 * Loaded with `--import` before the service: writes a line to stderr for each OpenTelemetry
 * package the process resolves (by `import`, `import()` or `require`), the first time, so a test
 * sees which of them the service loaded.
 */
const LOADED_MARK = 'opentelemetry package loaded: ';

const seen = new Set<string>();
registerHooks({
  resolve(specifier, context, nextResolve) {
    const name = /^@opentelemetry\/[^/]+/.exec(specifier)?.[0];
    if (name && !seen.has(name)) {
      seen.add(name);
      process.stderr.write(`${LOADED_MARK}${name}\n`);
    }
    return nextResolve(specifier, context);
  },
});
