/**
 * `npm run prepare` (run by `npm ci` and `npm install`): makes the empty PGlite data directory
 * that first starts on the embedded database copy instead of running initdb
 * (src/db/pglite-template.ts), as a directory and as a tarball, readable by every user (the
 * container image makes it as root and runs the service as `node`). Never fails the install:
 * without it first starts are only slower.
 */
import { PGlite } from '@electric-sql/pglite';
import { hasTemplateDir, readTemplate, TEMPLATE_DIR, TEMPLATE_PATH, writeTemplate, writeTemplateDir } from '../src/db/pglite-template.ts';
import { shareTemplateDir } from '../src/db/template-copy.ts';

try {
  if ((await readTemplate()) && (await hasTemplateDir())) {
    // One made before templates were shared would keep a service running as another user from copying it.
    await shareTemplateDir(TEMPLATE_DIR).catch((error: unknown) =>
      console.warn(`could not make the PGlite template readable by every user: ${error instanceof Error ? error.message : String(error)}`),
    );
    console.log(`PGlite template present: ${TEMPLATE_DIR} (and ${TEMPLATE_PATH})`);
  } else {
    let dump: Blob | undefined;
    // initdb writes the files straight into the directory; the tarball is the same data directory.
    await writeTemplateDir(async (directory) => {
      const db = await PGlite.create(directory);
      dump = await db.dumpDataDir('gzip');
      await db.close();
    });
    console.log(`made the PGlite template ${TEMPLATE_DIR}`);
    console.log(`made the PGlite template ${await writeTemplate(dump!)}`);
  }
} catch (error) {
  console.warn(`could not make the PGlite template (first starts will run initdb): ${error instanceof Error ? error.message : String(error)}`);
}
