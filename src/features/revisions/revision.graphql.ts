import { z } from 'zod';
import { domainArgs } from '../../graphql/args.ts';
import { builder } from '../../graphql/builder.ts';
import { DomainType, scopeOf } from '../domains/domain.graphql.ts';
import type { PublishedConfiguration } from '../banner/published-configuration.ts';
import type { Revision, RevisionDiff } from './revision.contract.ts';
import { diffRevisions, getRevision, listRevisions, restoreRevision } from './revision.operations.ts';

const RevisionKeyType = builder.objectRef<NonNullable<Revision['key']>>('RevisionKey').implement({
  description: 'The API key whose write made a revision (never the key itself).',
  fields: (t) => ({
    id: t.exposeString('id', { nullable: true, description: 'Null for the administrator key of the settings or the command line.' }),
    name: t.exposeString('name'),
  }),
});


export const RevisionType = builder.objectRef<Revision>('Revision').implement({
  description: "A revision of a domain's published configuration.",
  fields: (t) => ({
    number: t.exposeInt('number', { description: "Its number within the domain: 1 for the first, counting up." }),
    hash: t.exposeString('hash', { description: 'SHA-256 (hex) of the configuration: what consent records name as the revision shown.' }),
    legalHash: t.exposeString('legalHash', { description: 'SHA-256 (hex) of what is legally relevant.' }),
    legal: t.exposeBoolean('legal', { description: 'Whether it changed what is legally relevant; false: cosmetic.' }),
    createdAt: t.exposeString('createdAt'),
    key: t.field({ type: RevisionKeyType, nullable: true, resolve: (revision) => revision.key }),
    restoredFrom: t.exposeInt('restoredFrom', { nullable: true, description: 'The revision a restore made this one equal to.' }),
  }),
});

type RevisionDetail = Revision & { configuration: PublishedConfiguration };

const RevisionDetailType = builder.objectRef<RevisionDetail>('RevisionDetail').implement({
  description: 'A revision with the configuration it holds.',
  fields: (t) => ({
    revision: t.field({ type: RevisionType, resolve: (detail) => detail }),
    configuration: t.field({
      type: 'JSON',
      description: 'The published configuration (the shape of the REST `PublishedConfiguration`).',
      resolve: (detail) => detail.configuration,
    }),
  }),
});

const RevisionPageType = builder
  .objectRef<{ revisions: Revision[]; nextCursor: string | null }>('RevisionPage')
  .implement({
    fields: (t) => ({
      revisions: t.field({ type: [RevisionType], resolve: (page) => page.revisions }),
      nextCursor: t.exposeString('nextCursor', { nullable: true, description: 'Pass as `before` for the next page.' }),
    }),
  });

const RevisionChangeType = builder.objectRef<RevisionDiff['changes'][number]>('RevisionChange').implement({
  fields: (t) => ({
    path: t.exposeString('path', { description: 'JSON pointer of what changed.' }),
    summary: t.exposeString('summary', { description: 'The change in words.' }),
  }),
});

const RevisionDiffType = builder.objectRef<RevisionDiff>('RevisionDiff').implement({
  fields: (t) => ({
    from: t.exposeInt('from'),
    to: t.exposeInt('to'),
    patch: t.field({ type: 'JSON', description: 'JSON Patch (RFC 6902) from the older to the newer.', resolve: (diff) => diff.patch }),
    changes: t.field({ type: [RevisionChangeType], resolve: (diff) => diff.changes }),
  }),
});

const revisionNumber = z.int().min(1, 'must be a revision number (1, 2, …)').max(2_147_483_647);

builder.objectFields(DomainType, (t) => ({
  revisions: t.field({
    type: RevisionPageType,
    description: "The domain's revisions, newest first.",
    args: {
      before: t.arg.int({ required: false, description: 'Only revisions numbered below this (`nextCursor`).' }).validate(revisionNumber.nullish()),
      limit: t.arg.int({ required: false, description: '1–100, default 20.' }).validate(z.int().min(1).max(100).nullish()),
    },
    resolve: (domain, { before, limit }, ctx) => listRevisions(ctx, scopeOf(domain), { before: before ?? undefined, limit: limit ?? undefined }),
  }),
  revision: t.field({
    type: RevisionDetailType,
    args: { number: t.arg.int({ required: true }).validate(revisionNumber) },
    resolve: (domain, { number }, ctx) => getRevision(ctx, scopeOf(domain), number),
  }),
  revisionDiff: t.field({
    type: RevisionDiffType,
    description: 'What changed between two revisions (`against` defaults to the one before `number`).',
    args: {
      number: t.arg.int({ required: true }).validate(revisionNumber),
      against: t.arg.int({ required: false }).validate(revisionNumber.nullish()),
    },
    resolve: (domain, { number, against }, ctx) => diffRevisions(ctx, scopeOf(domain), number, against ?? undefined),
  }),
}));

builder.mutationFields((t) => ({
  restoreRevision: t.field({
    type: RevisionType,
    description: 'Makes the configuration what the revision held, as a new revision equal to it; returns the newest revision.',
    args: { ...domainArgs(t), number: t.arg.int({ required: true }).validate(revisionNumber) },
    resolve: (_, { number, ...scope }, ctx) => restoreRevision(ctx, scope, number),
  }),
}));
