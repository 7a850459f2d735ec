import { z } from 'zod';
import { assetCreate, assetResponse } from './embedding-asset.contract.ts';
import {
  createSchema,
  defaultsOf,
  fieldList,
  generatedId,
  responseSchema,
  updateSchema,
} from '../../kernel/contract/field-list.ts';
import {
  list,
  MAX_INT32,
  nameText,
  PURPOSES,
  purposeId,
  text,
  translations,
  uniqueList,
} from '../../kernel/contract/fields.ts';
import { LINK_ADDRESS_DESCRIPTION, linkAddress } from '../../kernel/contract/link-address.ts';

/** Embedding: a third-party service on the site, with its purpose and assets (SERVICE.md §2). */

export const GOOGLE_CONSENT_MODES = [
  'ad_storage',
  'analytics_storage',
  'functionality_storage',
  'personalization_storage',
  'security_storage',
] as const;
export type GoogleConsentMode = (typeof GOOGLE_CONSENT_MODES)[number];

export const embeddingTranslation = z.strictObject({
  name: text().optional(),
  description: text().optional(),
  privacyPolicyUrl: linkAddress().optional(),
  whatDataIsCollected: text().optional(),
  purposeOfDataCollection: text().optional(),
  legalBasis: text().optional(),
  placeOfProcessing: text().optional(),
  blockedContentTitle: text().optional(),
  blockedContentText: text().optional(),
  blockedContentButtonText: text().optional(),
});

const purposeList = Object.entries(PURPOSES)
  .map(([id, meaning]) => `\`${id}\` ${meaning}`)
  .join(', ');

export const embeddingFields = fieldList({
  id: generatedId(),
  name: { write: nameText(), required: true },
  active: { write: z.boolean().meta({ description: 'Default true.' }), default: true },
  purpose: { write: purposeId.meta({ description: `The purpose id: ${purposeList}.` }), required: true },
  vendor: { write: text(), default: '' },
  scriptHtmlCode: {
    write: text().meta({
      description:
        "Code injection by design (as in CCM19): HTML and scripts the banner runs on every visitor's page once the embedding's purpose is accepted (at once for a technically necessary one, before any consent). Whoever may write it runs code in the site's visitors' browsers. A client key may set or change it only while its client's feature `canUseScripts` is on (the default); changing it is legally relevant in revisions.",
    }),
    default: '',
  },
  scriptLoaderGroup: { write: text(), default: '' },
  scriptMarkers: { write: list(text()), default: [] },
  iframeMarkers: { write: list(text()), default: [] },
  hideIframesUntilConsent: { write: z.boolean(), default: false },
  excludeUrlsMode: {
    write: text().meta({
      description:
        "How `excludeFromUrls` is read: `whitelist` loads the embedding only on the listed pages (none listed: on no page); anything else (`blacklist`, empty: CCM19's documented meaning) never on them. Default empty.",
    }),
    default: '',
  },
  excludeFromUrls: {
    write: list(text()).meta({
      description:
        "Pages, one per entry: a full http(s) address or a path on the site (`/checkout`); exact, or a prefix with `*` at the end (CCM19). The fragment, a trailing slash and the case of scheme and host do not count; other entries name no page. On a page the embedding is kept off, nothing of it loads, whatever the visitor chose: its scripts, pixels and iframes stay held (its iframes hidden) and its `scriptHtmlCode` is not injected; it stays in the banner, and the consent still counts on other pages.",
    }),
    default: [],
  },
  description: { write: text(), default: '' },
  privacyPolicyUrl: { write: linkAddress().meta({ description: LINK_ADDRESS_DESCRIPTION }), default: '' },
  whatDataIsCollected: { write: text(), default: '' },
  purposeOfDataCollection: { write: text(), default: '' },
  legalBasis: { write: text(), default: '' },
  placeOfProcessing: { write: text(), default: '' },
  translations: {
    write: translations(embeddingTranslation).meta({ description: 'Locale name (`de_DE`, `en_US`, `zh`, …) → texts.' }),
    default: {},
  },
  tcfVendor: {
    write: z.int().min(1).max(MAX_INT32).nullable().meta({
      description:
        "IAB TCF vendor id, or null. Once a Global Vendor List is imported it must be a vendor of it that is not deleted, and it overwrites `vendor` with that vendor's name.",
    }),
    default: null,
  },
  tcfPurposes: {
    write: uniqueList(z.int().min(1).max(11)).meta({ description: 'IAB TCF purposes (1–11), each at most once.' }),
    default: [],
  },
  tcfSpecialFeatures: {
    write: uniqueList(z.int().min(1).max(2)).meta({ description: 'IAB TCF special features (1–2), each at most once.' }),
    default: [],
  },
  googleConsentMode: {
    write: uniqueList(z.enum(GOOGLE_CONSENT_MODES)).meta({ description: 'Google Consent Mode types, each at most once.' }),
    default: [],
  },
  /** No default: a create without assets makes none. */
  assets: {
    write: list(assetCreate).meta({
      description: 'Always in responses. In a write it REPLACES every asset of the embedding, in the order sent (an asset sent with the id of a current one keeps it).',
    }),
    read: z.array(assetResponse).meta({ description: 'The assets ("cookies") of the embedding, in order.' }),
  },
});

export const embeddingCreate = createSchema(embeddingFields).meta({
  id: 'EmbeddingCreate',
  examples: [
    {
      name: 'YouTube',
      purpose: '6cd2721',
      vendor: 'Google Ireland Limited',
      privacyPolicyUrl: 'https://policies.google.com/privacy',
      iframeMarkers: ['youtube.com/embed', 'youtube-nocookie.com/embed'],
      assets: [{ name: 'VISITOR_INFO1_LIVE', lifetime: '6 months', description: 'Estimates the bandwidth.' }],
    },
  ],
});
export const embeddingUpdate = updateSchema(embeddingFields).meta({ id: 'EmbeddingUpdate', examples: [{ active: false }] });
/** An embedding as the service sends it: every field, defaults filled in, with its assets. */
export const embeddingResponse = responseSchema(embeddingFields).meta({ id: 'Embedding' });

export const embeddingDefaults = defaultsOf(embeddingFields);

export type EmbeddingTranslation = z.infer<typeof embeddingTranslation>;
export type EmbeddingCreate = z.infer<typeof embeddingCreate>;
export type EmbeddingUpdate = z.infer<typeof embeddingUpdate>;
export type Embedding = z.output<typeof embeddingResponse>;
