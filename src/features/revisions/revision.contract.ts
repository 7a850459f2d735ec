import { z } from 'zod';
import { domainResponse } from '../domains/domain.contract.ts';
import { embeddingResponse } from '../embeddings/embedding.contract.ts';
import { localeResponse } from '../locales/locale.contract.ts';
import { placeholderResponse } from '../placeholders/placeholder.contract.ts';
import { themeResponse } from '../themes/theme.contract.ts';

/** The revisions of a domain's published configuration, as operators read them (REST and GraphQL). */

const revisionNumber = z.int().min(1).max(2_147_483_647);

/** A revision's number in an address or a query parameter (a string of digits). */
export const revisionNumberText = z
  .string()
  .regex(/^[1-9]\d{0,9}$/, 'must be a revision number (1, 2, …)')
  .transform(Number)
  .pipe(revisionNumber);

export const revisionResponse = z
  .strictObject({
    number: revisionNumber.meta({ description: "The revision's number within its domain: 1 for the first, counting up." }),
    hash: z.string().meta({ description: 'SHA-256 (hex) of the configuration: what the banner reports and consent records name as the revision shown.' }),
    legalHash: z.string().meta({ description: 'SHA-256 (hex) of what is legally relevant: services, purposes, vendors, what they store, privacy policies.' }),
    legal: z.boolean().meta({ description: 'Whether it changed what is legally relevant (a banner that asks again on legal changes asks again); false: cosmetic.' }),
    createdAt: z.string().meta({ description: 'When the write that made it committed (ISO 8601).' }),
    key: z
      .strictObject({
        id: z.string().nullable().meta({ description: 'The id of the API key; null for the administrator key of the settings or the command line.' }),
        name: z.string().meta({ description: 'Its name.' }),
      })
      .nullable()
      .meta({ description: 'The API key whose write made it (never the key itself).' }),
    restoredFrom: revisionNumber.nullable().meta({ description: 'The revision a restore made this one equal to; null for any other write.' }),
  })
  .meta({ id: 'Revision' });

export type Revision = z.output<typeof revisionResponse>;

const tcfIds = z.array(z.int());

/** A TCF domain's part (tcf-vendors/published-tcf.ts). */
const publishedTcfResponse = z
  .strictObject({
    vendorListVersion: z.int().meta({ description: 'The Global Vendor List version the vendors and texts come from.' }),
    policyVersion: z.int().meta({ description: "The list's TCF policy version." }),
    listHash: z.string().meta({ description: 'Of the list as imported (the first 16 hex digits of its SHA-256).' }),
    vendors: z
      .array(
        z.strictObject({
          id: z.int(),
          purposes: tcfIds,
          legIntPurposes: tcfIds,
          flexiblePurposes: tcfIds,
          specialPurposes: tcfIds,
          features: tcfIds,
          specialFeatures: tcfIds,
        }),
      )
      .meta({ description: 'The vendors the banner asks for, ascending, with what each declares in the list.' }),
    translations: z
      .record(z.string(), z.strictObject({ vendorListVersion: z.int(), hash: z.string() }))
      .meta({ description: "Language of a domain locale → the imported translation of the list's texts shown (none: English)." }),
  })
  .meta({ id: 'PublishedTcf', description: 'IAB TCF: present for a domain with `tcfEnabled` once a Global Vendor List is imported.' });

export const publishedConfigurationResponse = z
  .strictObject({
    clientId: z.string(),
    domain: domainResponse,
    embeddings: z.array(embeddingResponse).meta({ description: 'The active embeddings, with their assets.' }),
    placeholders: z.array(placeholderResponse),
    theme: themeResponse.nullable().meta({ description: 'The theme the banner wore: the default one, else the first; null: none.' }),
    locales: z.array(localeResponse).meta({ description: 'The active locales, in the order of the domain’s `locales`.' }),
    tcf: publishedTcfResponse.optional(),
  })
  .meta({ id: 'PublishedConfiguration', description: 'What the domain published to its visitors.' });

export const revisionDetailResponse = revisionResponse
  .extend({ configuration: publishedConfigurationResponse })
  .meta({ id: 'RevisionDetail' });

export const revisionPageResponse = z
  .strictObject({
    revisions: z.array(revisionResponse).meta({ description: 'Newest first.' }),
    nextCursor: z.string().nullable().meta({ description: 'Pass as `before` for the next page; null: no older revisions.' }),
  })
  .meta({ id: 'RevisionPage' });

export const revisionListQuery = z
  .strictObject({
    before: revisionNumberText.optional().meta({ description: 'Only revisions numbered below this (the `nextCursor` of the previous page).' }),
    limit: z
      .string()
      .regex(/^\d{1,4}$/, 'must be a number from 1 to 100')
      .transform(Number)
      .pipe(z.int().min(1, 'must be at least 1').max(100, 'must be at most 100'))
      .optional()
      .meta({ description: 'Revisions per page, 1–100 (default 20).' }),
  })
  .meta({ description: 'The query of a revision listing.' });

export const revisionDiffQuery = z
  .strictObject({
    against: revisionNumberText
      .optional()
      .meta({ description: 'The revision to compare with (default: the one before). The patch turns the older of the two into the newer.' }),
  })
  .meta({ description: 'The query of a comparison.' });

const patchOperation = z
  .strictObject({
    op: z.enum(['add', 'remove', 'replace', 'move', 'copy', 'test']),
    path: z.string(),
    from: z.string().optional(),
    value: z.unknown().optional(),
  })
  .meta({ id: 'JsonPatchOperation', description: 'One operation of a JSON Patch (RFC 6902).' });

export const revisionDiffResponse = z
  .strictObject({
    from: revisionNumber.meta({ description: 'The older revision.' }),
    to: revisionNumber.meta({ description: 'The newer revision.' }),
    patch: z.array(patchOperation).meta({ description: "JSON Patch (RFC 6902) that turns the older revision's configuration into the newer's." }),
    changes: z
      .array(
        z.strictObject({
          path: z.string().meta({ description: 'JSON pointer of what changed.' }),
          summary: z.string().meta({ description: 'The change in words, e.g. "embedding YouTube: purpose social_media → marketing".' }),
        }),
      )
      .meta({ description: 'One short summary per change.' }),
  })
  .meta({ id: 'RevisionDiff' });

export type RevisionDiff = z.output<typeof revisionDiffResponse>;
