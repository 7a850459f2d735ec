import type { MikroORM } from '@mikro-orm/postgresql';
import type { Request, Response } from 'express';
import type { Logger } from '../logger.ts';
import type { Scanner } from '../scanner/scan.ts';

/** A check that failed, with what the public answer may say about it (the cause goes to the log). */
class NotReady extends Error {}

/** What the readiness answer looks at: the database, and whether the process is on its way out. */
export type ReadinessSources = {
  orm: MikroORM;
  scanner: Scanner;
  logger: Logger;
  /** True from SIGTERM on: the answer is 503 at once, so a load balancer stops sending traffic before the server closes. */
  stopping?: () => boolean;
};

/**
 * GET /readyz: whether the service can do its work — the database answers and every migration
 * is applied. 200 with each check, or 503 naming what is not ready; 503 `stopping` from SIGTERM
 * on. The scanner's browser is an optional part: it is checked (launched by the first check, not
 * again after) and reported under `optional`, but a browser that does not start makes scans
 * answer 503, not the whole API unready. The answer is public, so it says what is wrong in a few
 * fixed words; the cause (a driver's message, a path) goes to the log. `/healthz` only says the
 * process is alive.
 */
export function readiness({ orm, scanner, logger, stopping = () => false }: ReadinessSources) {
  const check = async (name: string, failure: string, probe: () => Promise<unknown>) => {
    try {
      await probe();
      return [name, 'ok'] as const;
    } catch (error) {
      if (error instanceof NotReady) return [name, error.message] as const;
      logger.warn({ check: name, err: error }, `readiness: ${name} ${failure}`);
      return [name, failure] as const;
    }
  };
  return async (_req: Request, res: Response) => {
    if (stopping()) {
      res.status(503).json({ status: 'stopping', checks: {} });
      return;
    }
    const [database, migrations, browser] = await Promise.all([
      check('database', 'not reachable', () => orm.em.fork().execute('select 1')),
      check('migrations', 'could not be checked', async () => {
        const pending = await orm.migrator.getPending();
        if (pending.length > 0) throw new NotReady(`${pending.length} pending: ${pending.map((m) => m.name).join(', ')}`);
      }),
      check('browser', 'does not start', () => scanner.warmUp()),
    ]);
    const checks = Object.fromEntries([database, migrations]);
    const ready = Object.values(checks).every((result) => result === 'ok');
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not ready', checks, optional: Object.fromEntries([browser]) });
  };
}
