import type { DomainScope } from '../../kernel/access.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { newId } from '../../kernel/ids.ts';
import { inTransaction } from '../../db/transaction.ts';
import { requireDomain } from '../domains/domain.access.ts';
import type { DEFAULT_TEXT_PLACEHOLDERS } from '../locales/default-texts/index.ts';
import { PlaceholderEntity } from '../placeholders/placeholder.entity.ts';
import { toPlaceholder } from '../placeholders/placeholder.view.ts';
import type { Placeholder } from '../placeholders/placeholder.contract.ts';
import type { OnboardingLegalFindings, OnboardingLegalFindingsResult } from './onboarding.contract.ts';
import { missingPlaceholders } from './missing-placeholders.ts';

/**
 * Which placeholder each finding of a scan fills. They are the placeholders the default texts of
 * every locale refer to (`{Firma_Impressum}` is the imprint link of the banner, …), so a scanned
 * site's banner links to its own legal pages and names its operator without any typing.
 */
const PLACEHOLDER_OF_FINDING: Record<(typeof DEFAULT_TEXT_PLACEHOLDERS)[number], (findings: OnboardingLegalFindings) => string | null | undefined> = {
  FIRMA: (findings) => findings.address?.company,
  Firma_Ort: (findings) => findings.address?.city,
  Firma_Impressum: (findings) => findings.imprintUrl,
  Firma_Datenschutz: (findings) => findings.privacyPolicyUrl,
};

/**
 * Writes what a scan found about the operator into the domain's placeholders: each finding that
 * is there (not null, not empty) creates its placeholder or replaces its value; placeholders of
 * findings that are missing are left as they are. All or nothing, queued behind other writes of
 * the domain. Answers the placeholders written, in the order of PLACEHOLDER_OF_FINDING.
 */
export async function applyLegalFindings(ctx: RequestContext, scope: DomainScope, findings: OnboardingLegalFindings): Promise<Placeholder[]> {
  const values = Object.entries(PLACEHOLDER_OF_FINDING).flatMap(([name, valueOf]) => {
    const value = valueOf(findings)?.trim();
    return value ? [{ name, value }] : [];
  });
  return inTransaction(ctx, async (em) => {
    const domain = await requireDomain({ ...ctx, em, lock: true }, scope);
    const existing = await em.find(PlaceholderEntity, { domain, name: { $in: values.map(({ name }) => name) } });
    const rows = values.map(({ name, value }) => {
      const row = existing.find((candidate) => candidate.name === name);
      if (row) {
        row.value = value;
        return row;
      }
      return em.create(PlaceholderEntity, { id: newId(), domain, name, value });
    });
    await em.flush();
    return rows.map(toPlaceholder);
  });
}

/**
 * `applyLegalFindings`, answered with what the banner still lacks: the placeholders its active
 * locales' texts refer to that the domain does not fill, read once the write is committed.
 */
export async function applyLegalFindingsReport(
  ctx: RequestContext,
  scope: DomainScope,
  findings: OnboardingLegalFindings,
): Promise<OnboardingLegalFindingsResult> {
  const placeholders = await applyLegalFindings(ctx, scope, findings);
  return { placeholders, missingPlaceholders: await missingPlaceholders(ctx, scope) };
}
