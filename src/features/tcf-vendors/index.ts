import type { Feature } from '../feature.ts';
import type { TcfCmp } from './tcf-cmp.ts';
import { TcfDomainBaseEntity, TcfTranslationEntity, TcfVendorListEntity } from './tcf-vendor-list.entity.ts';
import { TcfVendorEntity } from './tcf-vendor.entity.ts';

declare module '../../kernel/context.ts' {
  interface AppServices {
    /** The CMP the banner's TC strings name (TCF_CMP_ID, TCF_CMP_VERSION; tcf-cmp.ts). */
    tcfCmp: TcfCmp;
  }
}

/**
 * The IAB TCF Global Vendor List, once imported: checks and names the `tcfVendor` of embeddings,
 * and gives TCF domains their vendors and texts (kept by version).
 */
export const tcfVendorsFeature: Feature = {
  name: 'tcf-vendors',
  entities: [TcfVendorEntity, TcfVendorListEntity, TcfTranslationEntity, TcfDomainBaseEntity],
};
