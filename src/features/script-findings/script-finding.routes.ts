import { DOMAIN_PATH, route } from '../feature.ts';
import { scriptFindingListResponse } from './script-finding.contract.ts';
import { listScriptFindings } from './script-finding.operations.ts';

export const SCRIPT_FINDINGS_TAG = {
  name: 'Script findings',
  description:
    'Scripts the banner found on the site that no embedding knows (`recordScriptsOnWebsite`): address without query, the page first found on, first and last seen, how many visitor sessions saw it.',
};

export const scriptFindingRoutes = [
  route({ tag: SCRIPT_FINDINGS_TAG.name, method: 'GET', path: `${DOMAIN_PATH}/script-findings`,
    summary: 'List the scripts the banner found that no embedding knows (last seen first)',
    response: scriptFindingListResponse,
    operation: (ctx, p) => listScriptFindings(ctx, p), status: 200, errors: [404] }),
];
