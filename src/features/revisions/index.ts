import type { Feature } from '../feature.ts';
import './revision.graphql.ts';
import { REVISIONS_TAG, revisionRoutes } from './revision.routes.ts';

/** The history of every domain's published configuration (recorded by revision-recorder.ts in every write). */
export const revisionsFeature: Feature = {
  name: 'revisions',
  routes: revisionRoutes,
  tags: [REVISIONS_TAG],
  parameters: { revisionId: "The revision's number within the domain (1, 2, …)." },
};
