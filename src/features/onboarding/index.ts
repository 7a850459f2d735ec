import type { Scanner } from '../../scanner/scan.ts';
import type { Feature } from '../feature.ts';
import './onboarding.graphql.ts';
import { ONBOARDING_TAG, onboardingRoutes } from './onboarding.routes.ts';
import type { ScanGate } from './scan-gate.ts';

declare module '../../kernel/context.ts' {
  interface AppServices {
    scanner: Scanner;
    /** At most so many scans at once, one per domain. */
    scanGate: ScanGate;
    /** Where the service is reachable from the outside (code snippets point here). */
    publicBaseUrl: string;
  }
}

export const onboardingFeature: Feature = {
  name: 'onboarding',
  routes: onboardingRoutes,
  tags: [ONBOARDING_TAG],
};
