import { pipeline } from 'node:stream/promises';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Request, Response } from 'express';
import { backupStream } from '../db/embedded-backup.ts';
import { embeddedDatabaseAt } from '../db/embedded.ts';
import { problem } from '../kernel/problem.ts';
import type { Logger } from '../logger.ts';
import { callerOf } from './authentication.ts';
import { sendProblem } from './problems.ts';

/** Where the administrator fetches a backup of the embedded database from the running service. */
export const BACKUP_PATH = '/admin/backup';

/** `20261208T001500Z`: a backup's time in its file name. */
const stamp = (date: Date) => date.toISOString().replace(/[-:]/g, '').replace(/\.\d+/, '');

/**
 * GET /admin/backup, for the administrator key only (like /metrics: others get 404): a backup of
 * the embedded database while the service runs, as `consent-config backup --from` fetches it
 * (db/embedded-backup.ts: a gzipped tar of the data directory, consistent as of one moment). The
 * embedded database is locked by this process, so no other process can read it. A service on a
 * PostgreSQL server answers 409: that database is backed up with pg_dump.
 */
export function backupHandler(orm: MikroORM, logger: Logger) {
  return async (req: Request, res: Response): Promise<void> => {
    if (callerOf(req)?.kind !== 'admin') return sendProblem(res, problem(404, `no resource at ${req.method} ${req.path}`));
    const db = embeddedDatabaseAt(String(orm.config.get('clientUrl')));
    if (!db) return sendProblem(res, problem(409, 'the service runs on a PostgreSQL server: back it up with pg_dump -Fc'));
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Content-Disposition', `attachment; filename="consent-config-backup-${stamp(new Date())}.tar.gz"`);
    res.type('application/gzip');
    // A HEAD says what a GET would send without making a copy.
    if (req.method === 'HEAD') return void res.end();
    const started = performance.now();
    const archive = await backupStream(db);
    let bytes = 0;
    archive.on('data', (chunk: Buffer) => (bytes += chunk.length));
    await pipeline(archive, res);
    logger.info({ bytes, ms: Math.round(performance.now() - started) }, 'backup of the embedded database sent');
  };
}
