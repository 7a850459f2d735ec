import type { DomainScope } from '../../kernel/access.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { notFound } from '../../kernel/errors.ts';
import type { RawAnswer } from '../feature.ts';
import { revisionByHash } from '../revisions/revision.operations.ts';
import { type ConsentEvidence, consentEvidence, consentEvidenceHtml } from './consent-evidence.ts';
import { getConsent } from './consent-log.operations.ts';

/**
 * What the visitor of a consent saw: the record (the newest of the consent, or `recordId`) and
 * the configuration revision it names, rendered in the visitor's locale, with every record of the
 * consent (oldest first), so that a later record never hides an earlier one. 404 if the consent has
 * no such record, or if no revision of the domain has the record's hash (a record from before
 * revisions were kept).
 */
export async function getConsentEvidence(ctx: RequestContext, scope: DomainScope, consentId: string, recordId?: string): Promise<ConsentEvidence> {
  const records = await getConsent(ctx, scope, consentId);
  const found = recordId === undefined ? records[0] : records.find((record) => record.id === recordId);
  if (!found) throw notFound(`record ${recordId} of consent ${consentId}`);
  const revision = await revisionByHash(ctx, scope.domainId, found.revision);
  if (!revision) throw notFound(`the configuration revision ${found.revision} that consent ${consentId} names`);
  const { id: _id, ...record } = found;
  return consentEvidence(
    record,
    { number: revision.number, hash: revision.hash, createdAt: revision.createdAt, legal: revision.legal, keyName: revision.key?.name ?? null },
    revision.configuration,
    records.toReversed(),
  );
}

/** The same as a printable page. */
export async function getConsentEvidencePage(ctx: RequestContext, scope: DomainScope, consentId: string, recordId?: string): Promise<RawAnswer> {
  return { body: consentEvidenceHtml(await getConsentEvidence(ctx, scope, consentId, recordId)) };
}
