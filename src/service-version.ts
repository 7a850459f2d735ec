import { readFileSync } from 'node:fs';

/** The service's version (package.json), for log lines and the resource of its traces. */
export const SERVICE_VERSION: string = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
