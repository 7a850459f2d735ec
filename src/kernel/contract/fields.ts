import { z } from 'zod';

/** Building blocks shared by the payload schemas (SERVICE.md §2). */

// A missing required field says so, instead of zod's "expected nonoptional, received undefined".
z.config({
  customError: (issue) => (issue.code === 'invalid_type' && issue.input === undefined ? 'is required' : undefined),
});

/** An array payload or array field holds at most this many items (SERVICE.md §3). */
export const MAX_ITEMS = 1000;

/** The largest integer a stored `integer` column (and GraphQL's Int) holds. */
export const MAX_INT32 = 2_147_483_647;

/** The six purpose ids of SERVICE.md §1, with what they mean. */
export const PURPOSES = {
  '41ba25c': 'technically necessary',
  cdcbd7c: 'ads',
  a717ff5: 'analytics / statistics',
  '7c19e32': 'personalisation',
  '6cd2721': 'social media',
  '15c61c3': 'other',
} as const;
export type PurposeId = keyof typeof PURPOSES;
const PURPOSE_IDS = Object.keys(PURPOSES) as [PurposeId, ...PurposeId[]];

/**
 * Any string the database can keep exactly: PostgreSQL rejects NUL characters, and a lone
 * surrogate would silently turn into U+FFFD on the way in.
 */
export const text = () =>
  z.string().refine((value) => value.isWellFormed() && !value.includes('\u0000'), {
    message: 'must be well-formed Unicode text without NUL characters',
  });

/** A non-empty display name. */
export const nameText = (max = 255) =>
  text().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);

const LOCALE_PATTERN = /^[a-z]{2,3}(?:_[A-Z]{2})?$/;
export const localeName = z
  .string()
  .regex(LOCALE_PATTERN, 'must be a locale name such as de_DE, en_US or a bare language such as zh');

export const purposeId = z.enum(PURPOSE_IDS, {
  error: `must be one of the purpose ids ${PURPOSE_IDS.join(', ')}`,
});

export const isHttpUrl = (value: string): boolean => {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
};

export const httpUrlOrEmpty = () =>
  text().refine((value) => value === '' || isHttpUrl(value), {
    message: 'must be an absolute http(s) URL or empty',
  });

export const color = () => z.string().regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour of the form #rrggbb');

export const list = <T extends z.ZodType>(item: T) =>
  z.array(item).max(MAX_ITEMS, `must have at most ${MAX_ITEMS} items`);

/** A list whose items must all differ (a subset of a closed set, for instance). */
export const uniqueList = <T extends z.ZodType>(item: T) =>
  list(item).refine((items) => new Set(items).size === items.length, {
    message: 'must not repeat a value',
  });

/** locale name → per-locale texts, for at most MAX_ITEMS locales (GraphQL's list of entries holds as many). */
export const translations = <T extends z.ZodType>(value: T) =>
  z.record(localeName, value).refine((entries) => Object.keys(entries).length <= MAX_ITEMS, {
    message: `must have at most ${MAX_ITEMS} locales`,
  });

/** A read-only field (`id`, …): sent in responses, accepted and ignored in writes. */
export const readOnly = () => z.unknown().optional();

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG_SIGNATURE = [0xff, 0xd8, 0xff];
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

const startsWith = (bytes: Buffer, signature: number[]) =>
  bytes.length >= signature.length && signature.every((byte, i) => bytes[i] === byte);

/** Why a base64 string is not an acceptable image, or undefined when it is one. */
function imageProblem(value: string, maxBytes: number): string | undefined {
  if (value === '' || !BASE64.test(value)) return 'must be base64 (standard alphabet, padded)';
  const bytes = Buffer.from(value, 'base64');
  if (!startsWith(bytes, PNG_SIGNATURE) && !startsWith(bytes, JPEG_SIGNATURE)) {
    return 'must be a PNG or JPEG image (checked by its content)';
  }
  if (bytes.length > maxBytes) return `must be at most ${maxBytes / 1024} KiB once decoded`;
  return undefined;
}

/** base64 of a PNG or JPEG of at most `maxBytes` bytes, or null to remove the image. */
export const base64Image = (maxBytes: number) =>
  z
    .string()
    .superRefine((value, ctx) => {
      const problem = imageProblem(value, maxBytes);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .nullable();
