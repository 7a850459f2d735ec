import { builder } from '../../graphql/builder.ts';
import { shapeObjectFields } from '../../graphql/field-list.ts';
import { DomainType, scopeOf } from '../domains/domain.graphql.ts';
import { type ScriptFinding, scriptFindingListResponse, scriptFindingResponse } from './script-finding.contract.ts';
import { listScriptFindings } from './script-finding.operations.ts';

const ScriptFindingType = builder.objectRef<ScriptFinding>('ScriptFinding').implement({
  description: scriptFindingResponse.description,
  fields: (t) => shapeObjectFields(t, scriptFindingResponse.shape),
});

builder.objectFields(DomainType, (t) => ({
  scriptFindings: t.field({
    type: [ScriptFindingType],
    description: `Scripts the banner found on the site that no embedding knows (\`recordScriptsOnWebsite\`). ${scriptFindingListResponse.description}`,
    resolve: (domain, _, ctx) => listScriptFindings(ctx, scopeOf(domain)),
  }),
}));
