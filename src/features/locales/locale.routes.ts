import { z } from 'zod';
import { DOMAIN_PATH, domainAddress, route } from '../feature.ts';
import { localeCreate, localeResponse, localeUpdate } from './locale.contract.ts';
import * as locales from './locale.operations.ts';

export const LOCALES_TAG = {
  name: 'Locales',
  description:
    "The texts of a domain's consent banner, one locale per language. A new locale starts from the default texts of its language " +
    "(German, English, French, Spanish, Italian, Dutch and Polish; English for any other). The domain's `locales` lists the active ones.",
};
const TAG = LOCALES_TAG.name;

export const localeRoutes = [
  route({ tag: TAG, method: 'POST', path: `${DOMAIN_PATH}/locale`, summary: 'Create locale', body: localeCreate,
    response: localeResponse,
    operation: (ctx, p, body) => locales.createLocale(ctx, p, body), status: 201, errors: [400, 404, 409],
    location: (p, locale) => `${domainAddress(p)}/locale/${locale.name}` }),
  route({ tag: TAG, method: 'GET', path: `${DOMAIN_PATH}/locale`, summary: 'Read all locales',
    response: z.array(localeResponse),
    operation: (ctx, p) => locales.listLocales(ctx, p), status: 200, errors: [404] }),
  route({ tag: TAG, method: 'GET', path: `${DOMAIN_PATH}/locale/:localeName`, summary: 'Read locale',
    response: localeResponse,
    operation: (ctx, p) => locales.getLocale(ctx, p, p.localeName), status: 200, errors: [400, 404] }),
  route({ tag: TAG, method: 'PUT', path: `${DOMAIN_PATH}/locale/:localeName`, summary: 'Update locale', body: localeUpdate,
    response: localeResponse,
    operation: (ctx, p, body) => locales.updateLocale(ctx, p, p.localeName, body), status: 200, errors: [400, 404, 409] }),
  route({ tag: TAG, method: 'DELETE', path: `${DOMAIN_PATH}/locale/:localeName`, summary: 'Delete locale',
    operation: (ctx, p) => locales.deleteLocale(ctx, p, p.localeName), status: 204, errors: [400, 404, 409] }),
];
