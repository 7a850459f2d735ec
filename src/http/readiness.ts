import type { MikroORM } from '@mikro-orm/postgresql';
import type { Request, Response } from 'express';
import type { Scanner } from '../onboarding/scanner/scan.ts';

/**
 * GET /readyz: whether the service can do its work — the database answers, every migration is
 * applied, the scanner's browser runs (launched on the first check, kept warm after). 200 with
 * each check, or 503 naming what is not ready. `/healthz` only says the process is alive.
 */
export function readiness(orm: MikroORM, scanner: Scanner) {
  const check = async (name: string, probe: () => Promise<unknown>) => {
    try {
      await probe();
      return [name, 'ok'] as const;
    } catch (error) {
      return [name, error instanceof Error ? error.message : String(error)] as const;
    }
  };
  return async (_req: Request, res: Response) => {
    const checks = Object.fromEntries(
      await Promise.all([
        check('database', () => orm.em.fork().execute('select 1')),
        check('migrations', async () => {
          const pending = await orm.migrator.getPending();
          if (pending.length > 0) throw new Error(`${pending.length} pending: ${pending.map((m) => m.name).join(', ')}`);
        }),
        check('browser', () => scanner.warmUp()),
      ]),
    );
    const ready = Object.values(checks).every((result) => result === 'ok');
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not ready', checks });
  };
}
