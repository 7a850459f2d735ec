/**
 * `npm run prepare` (run by `npm ci` and `npm install`): makes the empty PGlite data directory
 * that first starts on the embedded database unpack instead of running initdb
 * (src/db/pglite-template.ts). Never fails the install: without it first starts are only slower.
 */
import { PGlite } from '@electric-sql/pglite';
import { readTemplate, TEMPLATE_PATH, writeTemplate } from '../src/db/pglite-template.ts';

try {
  if (await readTemplate()) {
    console.log(`PGlite template present: ${TEMPLATE_PATH}`);
  } else {
    const db = await PGlite.create('memory://');
    const dump = await db.dumpDataDir('gzip');
    await db.close();
    console.log(`made the PGlite template ${await writeTemplate(dump)}`);
  }
} catch (error) {
  console.warn(`could not make the PGlite template (first starts will run initdb): ${error instanceof Error ? error.message : String(error)}`);
}
