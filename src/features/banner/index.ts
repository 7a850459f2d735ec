import type { Feature } from '../feature.ts';
import type { BannerDelivery } from './banner-delivery.ts';
import { WidgetDisplayEntity } from './widget-display.entity.ts';

declare module '../../kernel/context.ts' {
  interface AppServices {
    /** The public banner of each domain, built once per configuration, and its load counter. */
    banner: BannerDelivery;
  }
}

export const bannerFeature: Feature = {
  name: 'banner',
  entities: [WidgetDisplayEntity],
};
