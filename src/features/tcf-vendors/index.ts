import type { Feature } from '../feature.ts';
import { TcfVendorEntity } from './tcf-vendor.entity.ts';

/** The IAB TCF Global Vendor List, once imported: checks and names the `tcfVendor` of embeddings. */
export const tcfVendorsFeature: Feature = {
  name: 'tcf-vendors',
  entities: [TcfVendorEntity],
};
