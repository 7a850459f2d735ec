import type { RequestContext } from '../../kernel/context.ts';
import type { DomainScope } from '../../kernel/access.ts';
import { notFound } from '../../kernel/errors.ts';
import { isId } from '../../kernel/ids.ts';
import type { RawAnswer } from '../feature.ts';
import { reachDomain } from '../domains/domain.access.ts';
import type { ConsentDayCount, ConsentListQuery, ConsentRange, ConsentRecord, ConsentRecordPage } from './consent-log.contract.ts';
import { consentHistory, countConsentsPerDay, exportConsentCsv, listConsentRecords } from './consent-log.ts';

/**
 * The consent log of a domain, for its operators: the caller must reach the domain (a client key
 * only its own client's; anything else is 404, as for every item of a domain). The queries come
 * parsed by their contract schemas (consent-log.contract.ts).
 */

/** A page of the domain's consent records, newest first. */
export async function listConsents(ctx: RequestContext, scope: DomainScope, query: ConsentListQuery): Promise<ConsentRecordPage> {
  const domain = await reachDomain(ctx, scope);
  return listConsentRecords(ctx.em, domain.id, query);
}

/** The domain's consent records per UTC day of the range and choice. */
export async function countConsents(ctx: RequestContext, scope: DomainScope, range: ConsentRange): Promise<ConsentDayCount[]> {
  const domain = await reachDomain(ctx, scope);
  return countConsentsPerDay(ctx.em, domain.id, range);
}

/** Every record of one consent id, newest first; 404 when it has none in the domain (or is no UUID). */
export async function getConsent(ctx: RequestContext, scope: DomainScope, consentId: string): Promise<ConsentRecord[]> {
  const domain = await reachDomain(ctx, scope);
  const records = isId(consentId) ? await consentHistory(ctx.em, domain.id, consentId) : [];
  if (records.length === 0) throw notFound(`consent ${consentId}`);
  return records;
}

/** `2026-11-24` for a UTC midnight, else `2026-11-24T093000Z`: a bound as a file name may hold it. */
function fileStamp(instant: string): string {
  const iso = new Date(instant).toISOString();
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.replace(/\.\d+Z$/, 'Z').replaceAll(':', '');
}

/**
 * The domain's consent records of the range as CSV, streamed (the access is checked before the
 * first byte): `consents-<domainId>-<from>-<to>.csv`.
 */
export async function exportConsents(
  ctx: RequestContext,
  scope: DomainScope,
  range: ConsentRange,
): Promise<RawAnswer & { body: AsyncIterable<string>; filename: string }> {
  const domain = await reachDomain(ctx, scope);
  return {
    body: exportConsentCsv(ctx.em, domain.id, range),
    filename: `consents-${domain.id}-${fileStamp(range.from)}-${fileStamp(range.to)}.csv`,
  };
}
