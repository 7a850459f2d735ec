import { builder } from '../../graphql/builder.ts';
import { shapeObjectFields } from '../../graphql/field-list.ts';
import { parsePayload } from '../../kernel/contract/validate.ts';
import { DomainType, scopeOf } from '../domains/domain.graphql.ts';
import {
  type ConsentDayCount,
  consentCountQuery,
  consentDayCount,
  consentListArgs,
  type ConsentRecord,
  consentRecord,
  type ConsentRecordPage,
  consentRecordPage,
  MAX_COUNT_DAYS,
  MAX_PAGE_SIZE,
} from './consent-log.contract.ts';
import { countConsents, getConsent, listConsents } from './consent-log.operations.ts';

/**
 * The consent log on the domain type: the same operations and contract schemas as the REST rows
 * (consent-log.routes.ts). The arguments are parsed by the REST query's schemas, so a bad one is
 * the same BAD_USER_INPUT with the argument named (`/from`, `/first`, …).
 */

export const ConsentRecordType = builder.objectRef<ConsentRecord>('ConsentRecord').implement({
  description: consentRecord.description,
  fields: (t) => shapeObjectFields(t, consentRecord.shape),
});

const ConsentRecordPageType = builder.objectRef<ConsentRecordPage>('ConsentRecordPage').implement({
  description: consentRecordPage.description,
  fields: (t) => ({
    records: t.expose('records', { type: [ConsentRecordType], description: consentRecordPage.shape.records.description }),
    ...shapeObjectFields(t, { nextCursor: consentRecordPage.shape.nextCursor }),
  }),
});

const ConsentDayCountType = builder.objectRef<ConsentDayCount>('ConsentDayCount').implement({
  description: consentDayCount.description,
  fields: (t) => shapeObjectFields(t, consentDayCount.shape),
});

/** The arguments given: GraphQL's null for an optional argument means "not given", as an absent query parameter. */
const given = (args: Record<string, unknown>) => Object.fromEntries(Object.entries(args).filter(([, value]) => value != null));

const RANGE = 'ISO 8601 date-time with its offset, or a date (its midnight in UTC)';

builder.objectFields(DomainType, (t) => ({
  consents: t.field({
    type: ConsentRecordPageType,
    description: 'The consent records of the range, newest first, a page at a time: pass `nextCursor` as `after` for the next page.',
    args: {
      from: t.arg.string({ description: `The first instant (inclusive): ${RANGE}. Default: 30 days before \`to\`.` }),
      to: t.arg.string({ description: `The end (exclusive): ${RANGE}. Default: now.` }),
      after: t.arg.string({ description: 'The `nextCursor` of the previous page.' }),
      first: t.arg.int({ description: `How many records: 1 to ${MAX_PAGE_SIZE}. Default 100.` }),
    },
    resolve: (domain, args, ctx) => listConsents(ctx, scopeOf(domain), parsePayload(consentListArgs, given(args))),
  }),
  consentCounts: t.field({
    type: [ConsentDayCountType],
    description: `The consent records per UTC day and choice: every day of the range, oldest first, with zeros; at most ${MAX_COUNT_DAYS} days.`,
    args: {
      from: t.arg.string({ description: `The first instant (inclusive): ${RANGE}. Default: 30 days before \`to\`.` }),
      to: t.arg.string({ description: `The end (exclusive): ${RANGE}. Default: now.` }),
    },
    resolve: (domain, args, ctx) => countConsents(ctx, scopeOf(domain), parsePayload(consentCountQuery, given(args))),
  }),
  consent: t.field({
    type: [ConsentRecordType],
    description: 'Every record of one consent id, newest first; NOT_FOUND when the domain has none.',
    args: { consentId: t.arg.string({ required: true }) },
    resolve: (domain, { consentId }, ctx) => getConsent(ctx, scopeOf(domain), consentId),
  }),
}));
