import type { Feature } from '../feature.ts';
import './catalog.graphql.ts';
import { ImportedCookieEntity, ImportedServiceEntity } from './imported.entity.ts';

/** The services the onboarding recognises: built in, plus those imported from the Open Cookie Database. */
export const catalogFeature: Feature = {
  name: 'catalog',
  entities: [ImportedServiceEntity, ImportedCookieEntity],
};
