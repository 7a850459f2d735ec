import type { EntityManager } from '@mikro-orm/postgresql';
import type { Feature } from '../feature.ts';
import { LocaleEntity } from './locale.entity.ts';
import './locale.graphql.ts';
import { LOCALES_TAG, localeRoutes } from './locale.routes.ts';

declare module '../../kernel/context.ts' {
  interface AppServices {
    /**
     * Makes the domain's locales match its `locales` list: those named active (created from
     * default texts where missing), the others inactive. The domains feature calls it in the
     * transaction of a write of `locales`; it is a service because locales build on domains and
     * the domains feature may not import them (the house has no circle).
     */
    syncLocalesOfDomain: (em: EntityManager, domainId: string, names: readonly string[]) => Promise<void>;
  }
}

export const localesFeature: Feature = {
  name: 'locales',
  entities: [LocaleEntity],
  routes: localeRoutes,
  tags: [LOCALES_TAG],
  parameters: {
    localeName: 'The locale: a language and region such as `de_DE`, or a bare language such as `fr`. A malformed name answers 400.',
  },
};
