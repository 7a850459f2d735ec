import type { Feature } from '../feature.ts';
import { DomainEntity } from './domain.entity.ts';
import './domain.graphql.ts';
import { DOMAINS_TAG, domainRoutes } from './domain.routes.ts';

export const domainsFeature: Feature = {
  name: 'domains',
  entities: [DomainEntity],
  routes: domainRoutes,
  tags: [DOMAINS_TAG],
  parameters: { domainId: "The domain's id." },
};
