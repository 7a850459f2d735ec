import { z } from 'zod';
import {
  createSchema,
  defaultsOf,
  fieldList,
  generatedId,
  responseSchema,
  updateSchema,
} from '../../kernel/contract/field-list.ts';
import { localeName, readOnly, text, uniqueList } from '../../kernel/contract/fields.ts';
import { parseSiteAddress } from '../../kernel/contract/site-address.ts';

/** Domain: one website of a client (management, beyond the seed). */

const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

const CONSENT_STORAGES = ['cookie', 'localStorage', 'sessionStorage'] as const;

const siteName = text()
  .max(2048)
  .superRefine((value, ctx) => {
    const parsed = parseSiteAddress(value);
    if ('problem' in parsed) ctx.addIssue({ code: 'custom', message: parsed.problem });
  });

const country = z
  .string()
  .refine((code) => /^[A-Z]{2}$/.test(code) && regionNames.of(code) !== undefined, {
    message: 'must be an ISO 3166-1 alpha-2 country code (ZZ for unknown)',
  })
  // What the refinement checks first, for the JSON schema (zod cannot see into a refinement).
  .meta({ pattern: '^[A-Z]{2}$' })
  .nullable();

/** The domain's address is stored in parts: `name` is its host, `url` all of it. */
export const domainFields = fieldList({
  id: generatedId(),
  name: {
    write: siteName.meta({
      description:
        'A host name, optionally with scheme, port and path (`www.example.org`, `https://www.example.org/shop/`, `http://127.0.0.1:8080/`). ' +
        'On update a full address (with scheme) replaces scheme, port and path; a bare host changes only the host.',
    }),
    read: z.string().meta({ description: 'The bare host name, e.g. `www.example.org`.' }),
    required: true,
    stored: 'host',
  },
  path: {
    write: readOnly().meta({ readOnly: true, description: 'Read-only: ignored in writes.' }),
    read: z.string().regex(/^\//).meta({ description: 'The path of the site on its host (default `/`).' }),
    readOnly: true,
  },
  url: {
    write: readOnly().meta({ readOnly: true, description: 'Read-only: ignored in writes.' }),
    read: z.url({ protocol: /^https?$/ }).meta({ description: 'The whole site address a scan opens: scheme, host, port and path.' }),
    readOnly: true,
  },
  country: {
    write: country.meta({ description: 'ISO 3166-1 alpha-2 (`ZZ` for unknown), or null. Default null.' }),
    default: null,
  },
  locales: {
    write: uniqueList(localeName)
      .min(1, 'must name at least one locale')
      .meta({ description: 'The active locale names, each at most once. Default `["de_DE", "en_US"]`.' }),
    default: ['de_DE', 'en_US'],
  },
  consentStorage: {
    write: z.enum(CONSENT_STORAGES).meta({ description: 'Where the consent is kept. Default `localStorage`.' }),
    default: 'localStorage',
  },
});

export const domainCreate = createSchema(domainFields).meta({ id: 'DomainCreate' });
export const domainUpdate = updateSchema(domainFields).meta({ id: 'DomainUpdate' });
/** A domain as the service sends it: the bare host in `name`, its path and whole address beside it. */
export const domainResponse = responseSchema(domainFields).meta({ id: 'Domain' });

export const domainDefaults = defaultsOf(domainFields);

export type DomainCreate = z.infer<typeof domainCreate>;
export type DomainUpdate = z.infer<typeof domainUpdate>;
export type Domain = z.output<typeof domainResponse>;
