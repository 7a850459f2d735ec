import type { Feature } from '../feature.ts';
import './revision.graphql.ts';
import { REVISIONS_TAG, revisionRoutes } from './revision.routes.ts';
import type { RevisionRecorder } from './revision-recorder.ts';

declare module '../../kernel/context.ts' {
  interface AppServices {
    /** Records the revisions writes left due, just after they commit (revision-recorder.ts). */
    revisions: RevisionRecorder;
  }
}

/** The history of every domain's published configuration (recorded by revision-recorder.ts just after every write). */
export const revisionsFeature: Feature = {
  name: 'revisions',
  routes: revisionRoutes,
  tags: [REVISIONS_TAG],
  parameters: { revisionId: "The revision's number within the domain (1, 2, …)." },
};
