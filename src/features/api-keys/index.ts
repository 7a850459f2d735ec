import type { Feature } from '../feature.ts';
import { ApiKeyEntity } from './api-key.entity.ts';
import './api-key.graphql.ts';
import { API_KEYS_TAG, apiKeyRoutes } from './api-key.routes.ts';
import type { KeyRing } from './key-ring.ts';

declare module '../../kernel/context.ts' {
  interface AppServices {
    /** Who a presented key belongs to; forgets revoked keys at once. */
    keys: KeyRing;
  }
}

export const apiKeysFeature: Feature = {
  name: 'api-keys',
  entities: [ApiKeyEntity],
  routes: apiKeyRoutes,
  tags: [API_KEYS_TAG],
  parameters: { keyId: "The API key's id." },
};
