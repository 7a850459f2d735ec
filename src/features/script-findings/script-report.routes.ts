import express, { type RequestHandler } from 'express';
import type { MikroORM } from '@mikro-orm/postgresql';
import { parsePayload } from '../../kernel/contract/validate.ts';
import { forbidden, notFound } from '../../kernel/errors.ts';
import { problem, PROBLEM_TYPE } from '../../kernel/problem.ts';
import { PUBLIC_INTAKE_HEADERS } from '../consents/consent-intake.routes.ts';
import { originBelongs } from '../consents/page-origin.ts';
import { RecentReports } from './recent-reports.ts';
import { findingAddress, SCRIPT_REPORT_BODY_LIMIT, scriptReport } from './script-finding.contract.ts';
import { recordScriptFindings, reportingDomain } from './script-findings.ts';

/** Where the banner sends its reports (the runtime's `scriptReportUrl`). */
export const SCRIPT_REPORT_PATH = '/script-report';


/**
 * POST /script-report: the banner's report of scripts on a page that no embedding knows
 * (script-finding.contract.ts), as `POST /consent` takes records: no key and no cookie, limited
 * per visitor address (`limit`, given by the HTTP edge), JSON in a `text/plain` or JSON body.
 * 204 once stored; bad input 400 and a body over the limit 413 store nothing; an unknown domain
 * 404. Refused (403): a domain that does not record scripts (`recordScriptsOnWebsite` off), and
 * a page (or a request `Origin`) that is not on the domain's site or its consent-sharing domains,
 * so that nobody fills a domain's list from elsewhere. A script counts once per visitor in a
 * session (RecentReports); its query and fragment are never kept.
 */
export function scriptReportRouter(orm: MikroORM, limit: RequestHandler): express.Router {
  const router = express.Router();
  const recent = new RecentReports();
  router.use(SCRIPT_REPORT_PATH, (_req, res, next) => {
    res.set(PUBLIC_INTAKE_HEADERS);
    next();
  });
  router.options(SCRIPT_REPORT_PATH, (_req, res) => void res.status(204).end());
  router.post(SCRIPT_REPORT_PATH, limit, express.json({ type: ['application/json', 'text/plain'], limit: SCRIPT_REPORT_BODY_LIMIT }), async (req, res) => {
    const report = parsePayload(scriptReport, req.body);
    const domainId = report.domain.toLowerCase();
    const domain = await reportingDomain(orm, domainId);
    if (!domain) throw notFound(`domain ${domainId}`);
    if (!domain.recording) throw forbidden(`domain ${domainId} does not record the scripts on its website (recordScriptsOnWebsite)`);
    const page = new URL(report.url);
    const origin = req.get('origin');
    if (!originBelongs(page.origin, domain.site) || (origin !== undefined && !originBelongs(origin, domain.site))) {
      throw forbidden(`the page is not on the site of domain ${domainId}`);
    }
    const scripts = [...new Set(report.scripts.flatMap((script) => findingAddress(script) ?? []))];
    const fresh = recent.fresh(domainId, req.ip ?? '', scripts);
    if (fresh.length > 0) await recordScriptFindings(orm, domainId, page.pathname, fresh);
    res.status(204).end();
  });
  router.all(SCRIPT_REPORT_PATH, (req, res) => {
    res.setHeader('Allow', 'POST, OPTIONS');
    res.status(405).type(PROBLEM_TYPE).send(JSON.stringify(problem(405, `${req.method} is not allowed here; the banner POSTs its reports`)));
  });
  return router;
}
