import { z } from 'zod';
import { DOMAIN_PATH, domainAddress, route } from '../feature.ts';
import { themeCreate, themeResponse, themeUpdate } from './theme.contract.ts';
import * as themes from './theme.operations.ts';

export const THEMES_TAG = { name: 'Themes', description: "The consent banner's look; at most one default theme per domain." };
const TAG = THEMES_TAG.name;

export const themeRoutes = [
  route({ tag: TAG, method: 'POST', path: `${DOMAIN_PATH}/theme`, summary: 'Create theme', body: themeCreate,
    response: themeResponse,
    operation: (ctx, p, body) => themes.createTheme(ctx, p, body), status: 201, errors: [400, 404],
    location: (p, theme) => `${domainAddress(p)}/theme/${theme.id}` }),
  route({ tag: TAG, method: 'GET', path: `${DOMAIN_PATH}/theme`, summary: 'Read all themes',
    response: z.array(themeResponse),
    operation: (ctx, p) => themes.listThemes(ctx, p), status: 200, errors: [404] }),
  route({ tag: TAG, method: 'GET', path: `${DOMAIN_PATH}/theme/:themeId`, summary: 'Read theme',
    response: themeResponse,
    operation: (ctx, p) => themes.getTheme(ctx, p), status: 200, errors: [404] }),
  route({ tag: TAG, method: 'PUT', path: `${DOMAIN_PATH}/theme/:themeId`, summary: 'Update theme', body: themeUpdate,
    response: themeResponse,
    operation: (ctx, p, body) => themes.updateTheme(ctx, p, body), status: 200, errors: [400, 404] }),
  route({ tag: TAG, method: 'DELETE', path: `${DOMAIN_PATH}/theme/:themeId`, summary: 'Delete theme',
    operation: (ctx, p) => themes.deleteTheme(ctx, p), status: 204, errors: [404] }),
];
