import type { RestRoute } from '../src/features/feature.ts';
import { features } from '../src/features/index.ts';

/**
 * The REST compatibility layer's table: every feature's rows (src/features/<resource>/*.routes.ts),
 * in registry order. Each row names method, path, operation, body and answer schemas, success
 * status and error statuses; paths and codes are those of SERVICE.md §3.
 */
export const restRoutes: readonly RestRoute[] = features.flatMap((feature) => feature.routes ?? []);
