import { z } from 'zod';
import { STORAGE_TYPES } from '../embeddings/embedding-asset.contract.ts';
import { GOOGLE_CONSENT_MODES } from '../embeddings/embedding.contract.ts';
import { isHttpUrl, purposeId } from '../../kernel/contract/fields.ts';

/**
 * A preset: a well-known service the catalog can recognise on a website and turn into an
 * embedding. The built-in presets are the project's own work (src/features/catalog/services/);
 * operators extend recognition by importing Open Cookie Database files (catalog import).
 */

/** Canonical English lifetime: "session", "persistent", or "<n> <unit>" (e.g. "2 years", "1 day"). */
const LIFETIME_PATTERN = /^(?:session|persistent|\d+ (?:second|minute|hour|day|week|month|year)s?)$/;

const texts = z.strictObject({
  de_DE: z.string().min(1),
  en_US: z.string().min(1),
});

/**
 * Where a service shows itself in a page: `host` or `host/path-prefix`. The host matches itself
 * and its subdomains (`google-analytics.com` matches `www.google-analytics.com`); the path, when
 * given, must start the URL's path.
 */
const URL_SIGNAL_PATTERN = /^(?:[a-z0-9-]+\.)+[a-z]{2,}(?:\/[^\s]*)?$/;

/**
 * Where a service sends its hits: a URL signal as above (`facebook.com/tr`), whose path must be the
 * URL's path or start a segment of it, or a path alone (`/matomo.php`) for a service each site
 * hosts itself, which matches a URL on any host whose path ends so.
 */
const BEACON_SIGNAL_PATTERN = /^(?:(?:[a-z0-9-]+\.)+[a-z]{2,})?\/[^\s]*$|^(?:[a-z0-9-]+\.)+[a-z]{2,}$/;

/** A host name such as `facebook.com` or `m.stripe.com`. */
const HOST_PATTERN = /^(?:[a-z0-9-]+\.)+[a-z]{2,}$/;

export const presetCookieSchema = z.strictObject({
  /** The exact name, or with `wildcard` a pattern in which `*` stands for any run of characters. */
  name: z.string().min(1),
  wildcard: z.boolean(),
  storageType: z.enum(STORAGE_TYPES),
  lifetime: z.string().regex(LIFETIME_PATTERN),
  description: texts,
  /**
   * Other presets (by id) whose code sets a cookie of the same name without declaring it, such as
   * gtag.js (Google Analytics 4) setting Universal Analytics' `_gid`. Where one of them is found
   * on a site, the name goes to it instead of counting as evidence of this preset.
   */
  alsoSetBy: z.array(z.int().min(1).max(99_999)).optional(),
});

export const PRESET_CATEGORIES = [
  'analytics',
  'tag-manager',
  'advertising',
  'social-media',
  'video',
  'audio',
  'maps',
  'chat',
  'fonts-and-cdn',
  'consent',
  'payment',
  'security',
  'forms-and-booking',
  'personalisation',
  'other',
] as const;

export const presetSchema = z.strictObject({
  /** Stable across releases: embeddings and clients refer to it. Built-in ids are below 100000. */
  id: z.int().min(1).max(99_999),
  name: z.string().min(1),
  vendor: z.string().min(1),
  purpose: purposeId,
  category: z.enum(PRESET_CATEGORIES),
  privacyPolicyUrl: z.string().refine(isHttpUrl, 'must be an absolute http(s) URL'),
  translations: z.strictObject({
    de_DE: z.strictObject({ name: z.string().min(1), description: z.string().min(20) }),
    en_US: z.strictObject({ name: z.string().min(1), description: z.string().min(20) }),
  }),
  cookies: z.array(presetCookieSchema),
  signals: z.strictObject({
    /** Script sources that reveal the service. */
    scripts: z.array(z.string().regex(URL_SIGNAL_PATTERN)),
    /** Iframe sources that reveal the service. */
    iframes: z.array(z.string().regex(URL_SIGNAL_PATTERN)),
    /** Stylesheet and font sources that reveal the service (web fonts, CDNs); none when absent. */
    resources: z.array(z.string().regex(URL_SIGNAL_PATTERN)).optional(),
    /**
     * Tracking endpoints the service's code sends its hits to (GA4's `/g/collect`, Meta Pixel's
     * `/tr`); a scan marks requests to them as the service's beacons. Not markers: the banner holds
     * the script that sends them.
     */
    beacons: z.array(z.string().regex(BEACON_SIGNAL_PATTERN)).optional(),
  }),
  /**
   * Domains the service sets cookies on besides those of its signal hosts (Meta Pixel loads from
   * connect.facebook.net but sets `fr` on facebook.com). A cookie on the registrable domain of a
   * signal host or of one of these belongs to the service once the service is found on a site.
   */
  domains: z.array(z.string().regex(HOST_PATTERN)).optional(),
  /**
   * The Google Consent Mode types the service's own tags read (Google Analytics 4:
   * `analytics_storage`; Google's advertising tags: `ad_storage`, from which the banner derives
   * `ad_user_data` and `ad_personalization`). An embedding made from the preset carries them, so
   * the banner grants them when the visitor accepts the service. None for services that do not
   * read Consent Mode, and for Google Tag Manager, which only loads the tags that do.
   */
  googleConsentMode: z
    .array(z.enum(GOOGLE_CONSENT_MODES))
    .refine((types) => new Set(types).size === types.length, 'must not repeat a type')
    .optional(),
});

export type Preset = z.infer<typeof presetSchema>;
export type PresetCookie = z.infer<typeof presetCookieSchema>;
