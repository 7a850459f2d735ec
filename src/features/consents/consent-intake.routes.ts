import express, { type RequestHandler } from 'express';
import { invalidPayload, parsePayload } from '../../kernel/contract/validate.ts';
import { notFound } from '../../kernel/errors.ts';
import { problem, PROBLEM_TYPE } from '../../kernel/problem.ts';
import { CONSENT_BODY_LIMIT, consentIntake } from './consent.contract.ts';
import { domainExists, storeConsentRecord } from './consent-records.ts';
import type { MikroORM } from '@mikro-orm/postgresql';
import { truncatedAddress } from './visitor-address.ts';
import type { ConsentMaintenance } from './consent-maintenance.ts';
import { originBelongs } from './page-origin.ts';
import { recordProblems, UNKNOWN_REVISION } from './record-check.ts';

/** PostgreSQL's check_violation, which an insert into a month without a partition raises. */
const NO_PARTITION = '23514';

/** The headers of a key-less intake the banner posts to: it answers pages of any site (the banner runs on the operator's pages). */
export const PUBLIC_INTAKE_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'POST',
  'Access-Control-Allow-Headers': 'Content-Type',
  'Access-Control-Max-Age': '86400',
  'Cross-Origin-Resource-Policy': 'cross-origin',
  'Cache-Control': 'no-store',
};

/**
 * POST /consent: the banner's record of one choice (consent.contract.ts). No key and no cookie;
 * limited per visitor address (`limit`, given by the HTTP edge). Answers 201 only once the record
 * is stored; bad input 400 and a body over the limit 413 store nothing; an unknown domain 404.
 * The body may come as `text/plain` (a request a browser sends without a CORS preflight) or JSON.
 *
 * A record must name a revision the domain published and only services and categories that
 * revision offered (else 400); whether its page belongs to the domain is kept with it
 * (`origin_matches`), and a foreign page's record is stored all the same: refusing it would lose
 * the records of a site the operator forgot to list among the consent-sharing domains.
 */
export function consentIntakeRouter(orm: MikroORM, maintenance: ConsentMaintenance, limit: RequestHandler): express.Router {
  const router = express.Router();
  const { revisions } = maintenance;
  router.use('/consent', (_req, res, next) => {
    res.set(PUBLIC_INTAKE_HEADERS);
    next();
  });
  router.options('/consent', (_req, res) => void res.status(204).end());
  router.post('/consent', limit, express.json({ type: ['application/json', 'text/plain'], limit: CONSENT_BODY_LIMIT }), async (req, res) => {
    const parsed = parsePayload(consentIntake, req.body);
    // One spelling of the domain id (PostgreSQL reads any), so the revision cache keeps one entry per domain.
    const intake = { ...parsed, domain: parsed.domain.toLowerCase() };
    const revision = await revisions.lookup(orm.em.fork(), intake.domain, intake.revision);
    if (!revision) {
      if (!(await domainExists(orm, intake.domain))) throw notFound(`domain ${intake.domain}`);
      throw invalidPayload([UNKNOWN_REVISION]);
    }
    const problems = recordProblems(intake, revision);
    if (problems.length > 0) throw invalidPayload(problems);
    const page = new URL(intake.url);
    const seen = { origin: page.origin, path: page.pathname, address: truncatedAddress(req.ip), originMatches: originBelongs(page.origin, revision.site) };
    const receipt = await storeConsentRecord(orm, intake, seen).catch(async (error: unknown) => {
      // No partition for this month yet (a new month began between two maintenance runs): make it, once.
      if ((error as { code?: string }).code !== NO_PARTITION) throw error;
      await maintenance.ensure();
      return storeConsentRecord(orm, intake, seen);
    });
    if (!receipt) throw notFound(`domain ${intake.domain}`);
    maintenance.figures.recordsStored++;
    res.status(201).json(receipt);
  });
  router.all('/consent', (req, res) => {
    res.setHeader('Allow', 'POST, OPTIONS');
    res.status(405).type(PROBLEM_TYPE).send(JSON.stringify(problem(405, `${req.method} is not allowed here; the banner POSTs its records`)));
  });
  return router;
}
