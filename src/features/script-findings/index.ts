import type { Feature } from '../feature.ts';
import './script-finding.graphql.ts';
import { ScriptFindingEntity } from './script-finding.entity.ts';
import { SCRIPT_FINDINGS_TAG, scriptFindingRoutes } from './script-finding.routes.ts';

/**
 * Scripts the banner finds on a domain's pages that no embedding knows (`recordScriptsOnWebsite`):
 * reported by the runtime (runtime/script-report.ts) to `POST /script-report`
 * (script-report.routes.ts), read by the operators.
 */
export const scriptFindingsFeature: Feature = {
  name: 'script-findings',
  entities: [ScriptFindingEntity],
  routes: scriptFindingRoutes,
  tags: [SCRIPT_FINDINGS_TAG],
};
