import { builder } from '../../graphql/builder.ts';
import { DomainType, scopeOf } from '../domains/domain.graphql.ts';
import { getConsentEvidence } from './consent-evidence.operations.ts';

builder.objectFields(DomainType, (t) => ({
  consentEvidence: t.field({
    type: 'JSON',
    description:
      "Proof of consent: the record (the consent's newest, or `recordId`) and the configuration revision it names, in the visitor's locale, with the consent's whole `history` (oldest first) and whether each page was on the domain's site (`originMatches`) — the REST `ConsentEvidence`. NOT_FOUND when the consent, the record or the revision is unknown.",
    args: { consentId: t.arg.string({ required: true }), recordId: t.arg.string({ required: false }) },
    resolve: (domain, { consentId, recordId }, ctx) => getConsentEvidence(ctx, scopeOf(domain), consentId, recordId ?? undefined),
  }),
}));
