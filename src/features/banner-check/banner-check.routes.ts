import { DOMAIN_PATH, route } from '../feature.ts';
import { bannerWarnings } from './banner-check.operations.ts';
import { bannerWarningListResponse } from './banner-warning.contract.ts';

export const BANNER_CHECK_TAG = {
  name: 'Banner check',
  description:
    "What a domain's banner shows that is hard to read (WCAG 2.1 AA contrast), nudges visitors towards accepting, or leaves a placeholder unfilled. This service's own, not CCM19's.",
};
const TAG = BANNER_CHECK_TAG.name;

export const bannerCheckRoutes = [
  route({ tag: TAG, method: 'GET', path: `${DOMAIN_PATH}/bannerWarnings`, summary: 'Check the banner (contrast, nudging, unfilled placeholders)',
    response: bannerWarningListResponse,
    operation: (ctx, p) => bannerWarnings(ctx, p), status: 200, errors: [404] }),
];
