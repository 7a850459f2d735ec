import type { DomainScope } from '../../kernel/access.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { reachDomain } from '../domains/domain.access.ts';
import type { ScriptFinding } from './script-finding.contract.ts';
import { scriptFindingsOf } from './script-findings.ts';

/** The scripts the domain's banner found that no embedding knows, last seen first. */
export async function listScriptFindings(ctx: RequestContext, scope: DomainScope): Promise<ScriptFinding[]> {
  const domain = await reachDomain(ctx, scope);
  return scriptFindingsOf(ctx.em, domain.id);
}
