import { z } from 'zod';
import { localeName, readOnly, text, uniqueList } from './fields.ts';
import { parseSiteAddress } from './site-address.ts';

/** Domain: one website of a client (management, beyond the seed). */

const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

export const CONSENT_STORAGES = ['cookie', 'localStorage', 'sessionStorage'] as const;

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
  .nullable();

const domainFields = {
  id: readOnly(),
  name: siteName,
  path: readOnly(),
  url: readOnly(),
  country,
  locales: uniqueList(localeName).min(1, 'must name at least one locale'),
  consentStorage: z.enum(CONSENT_STORAGES),
};

export const domainCreate = z.strictObject(domainFields).partial().required({ name: true });
export const domainUpdate = z.strictObject(domainFields).partial();

export const domainDefaults = {
  country: null,
  locales: ['de_DE', 'en_US'],
  consentStorage: 'localStorage' as const,
};

export type DomainCreate = z.infer<typeof domainCreate>;
export type DomainUpdate = z.infer<typeof domainUpdate>;

export type Domain = {
  id: string;
  name: string;
  path: string;
  url: string;
  country: string | null;
  locales: string[];
  consentStorage: (typeof CONSENT_STORAGES)[number];
};
