import { builder } from '../../graphql/builder.ts';
import { payloadObjectFields } from '../../graphql/field-list.ts';
import { DomainType, scopeOf } from '../domains/domain.graphql.ts';
import { bannerWarnings } from './banner-check.operations.ts';
import { type BannerWarning, bannerWarningFields } from './banner-warning.contract.ts';

const BannerWarningType = builder.objectRef<BannerWarning>('BannerWarning').implement({
  description: "Something in the domain's configuration that makes its banner hard to read, nudges visitors towards accepting, or shows a placeholder unfilled.",
  fields: (t) => payloadObjectFields(t, bannerWarningFields, {}),
});

builder.objectFields(DomainType, (t) => ({
  bannerWarnings: t.field({
    type: [BannerWarningType],
    description:
      "What the domain's banner shows that is hard to read (contrast below WCAG 2.1 AA), nudges towards accepting (no decline button beside accept, a decline button styled otherwise), or leaves a placeholder unfilled. By kind, then path; empty when there is nothing to warn about.",
    resolve: (domain, _, ctx) => bannerWarnings(ctx, scopeOf(domain)),
  }),
}));
