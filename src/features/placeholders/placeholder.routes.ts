import { z } from 'zod';
import { DOMAIN_PATH, domainAddress, route } from '../feature.ts';
import { placeholderCreate, placeholderReplaceAll, placeholderResponse, placeholderUpdate } from './placeholder.contract.ts';
import * as placeholders from './placeholder.operations.ts';

export const PLACEHOLDERS_TAG = { name: 'Placeholders', description: 'Named text variables of a domain.' };
const TAG = PLACEHOLDERS_TAG.name;

export const placeholderRoutes = [
  route({ tag: TAG, method: 'POST', path: `${DOMAIN_PATH}/placeholder`, summary: 'Create placeholder', body: placeholderCreate,
    response: placeholderResponse,
    operation: (ctx, p, body) => placeholders.createPlaceholder(ctx, p, body), status: 201, errors: [400, 404, 409],
    location: (p, placeholder) => `${domainAddress(p)}/placeholder/${encodeURIComponent(placeholder.name)}` }),
  route({ tag: TAG, method: 'PUT', path: `${DOMAIN_PATH}/placeholder`, summary: 'Replace all placeholders', body: placeholderReplaceAll,
    response: z.array(placeholderResponse),
    operation: (ctx, p, body) => placeholders.replacePlaceholders(ctx, p, body), status: 201, errors: [400, 404] }),
  route({ tag: TAG, method: 'GET', path: `${DOMAIN_PATH}/placeholder`, summary: 'Read all placeholders',
    response: z.array(placeholderResponse),
    operation: (ctx, p) => placeholders.listPlaceholders(ctx, p), status: 200, errors: [404] }),
  route({ tag: TAG, method: 'GET', path: `${DOMAIN_PATH}/placeholder/:placeholderName`, summary: 'Read placeholder',
    response: placeholderResponse,
    operation: (ctx, p) => placeholders.getPlaceholder(ctx, p, p.placeholderName), status: 200, errors: [404] }),
  route({ tag: TAG, method: 'PUT', path: `${DOMAIN_PATH}/placeholder/:placeholderName`, summary: 'Update placeholder', body: placeholderUpdate,
    response: placeholderResponse,
    operation: (ctx, p, body) => placeholders.updatePlaceholder(ctx, p, p.placeholderName, body), status: 200, errors: [400, 404] }),
  route({ tag: TAG, method: 'DELETE', path: `${DOMAIN_PATH}/placeholder/:placeholderName`, summary: 'Delete placeholder',
    operation: (ctx, p) => placeholders.deletePlaceholder(ctx, p, p.placeholderName), status: 204, errors: [404] }),
];
