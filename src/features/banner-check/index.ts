import type { Feature } from '../feature.ts';
import './banner-check.graphql.ts';
import { BANNER_CHECK_TAG, bannerCheckRoutes } from './banner-check.routes.ts';

/** Warnings about a domain's banner: contrast, nudging, unfilled placeholders (read-only, nothing stored). */
export const bannerCheckFeature: Feature = {
  name: 'banner-check',
  routes: bannerCheckRoutes,
  tags: [BANNER_CHECK_TAG],
};
