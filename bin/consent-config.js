#!/usr/bin/env node
/**
 * The `consent-config` command. The command line itself (consent-config.ts) is TypeScript,
 * which Node.js runs as it is from version 24 on. When an older `node` comes first in PATH,
 * this hands over to the Node.js 24 the project pins as a dev dependency.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import nodeModule from 'node:module';
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('./consent-config.ts', import.meta.url));
const major = Number(process.versions.node.split('.')[0]);

if (major >= 24) {
  // Later runs load the compiled TypeScript from Node's cache instead of stripping it again (src/main.ts says why).
  nodeModule.enableCompileCache();
  await import(cli);
} else {
  const pinned = fileURLToPath(new URL('../node_modules/node/bin/node', import.meta.url));
  if (!existsSync(pinned)) {
    console.error(`error: consent-config needs Node.js 24 or later, this is ${process.version}; run \`npm ci\` in the project or put Node.js 24 first in PATH`);
    process.exit(1);
  }
  // This launcher again, under Node.js 24: the compile cache goes on there.
  const child = spawn(pinned, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit' });
  // A supervisor's signal goes to this process only; the CLI must get it to shut down cleanly.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? 128 + (signal ? constants.signals[signal] : 0)));
}
