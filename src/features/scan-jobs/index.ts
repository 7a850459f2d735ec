import type { Feature } from '../feature.ts';
import './scan-job.graphql.ts';
import { ScanJobEntity } from './scan-job.entity.ts';
import { SCANS_TAG, scanJobRoutes } from './scan-job.routes.ts';
import type { ScanJobs } from './scan-jobs.service.ts';

declare module '../../kernel/context.ts' {
  interface AppServices {
    scanJobs: ScanJobs;
  }
}

/** Scans as stored jobs: started without waiting, run by workers, watched, read back and compared. */
export const scanJobsFeature: Feature = {
  name: 'scan-jobs',
  entities: [ScanJobEntity],
  routes: scanJobRoutes,
  tags: [SCANS_TAG],
  parameters: { scanId: 'The id of a scan of the domain.' },
};
