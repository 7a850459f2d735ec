import type { Feature } from '../feature.ts';
import { ThemeEntity } from './theme.entity.ts';
import './theme.graphql.ts';
import { THEMES_TAG, themeRoutes } from './theme.routes.ts';

export const themesFeature: Feature = {
  name: 'themes',
  entities: [ThemeEntity],
  routes: themeRoutes,
  tags: [THEMES_TAG],
  parameters: { themeId: "The theme's id." },
};
