import type { Feature } from '../feature.ts';
import { PlaceholderEntity } from './placeholder.entity.ts';
import './placeholder.graphql.ts';
import { PLACEHOLDERS_TAG, placeholderRoutes } from './placeholder.routes.ts';

export const placeholdersFeature: Feature = {
  name: 'placeholders',
  entities: [PlaceholderEntity],
  routes: placeholderRoutes,
  tags: [PLACEHOLDERS_TAG],
  parameters: { placeholderName: "The placeholder's name." },
};
