import { z } from 'zod';
import { localeName, uniqueList } from '../../kernel/contract/fields.ts';
import { CATEGORY_OF_PURPOSE } from '../banner/banner-config.ts';

/** What the banner sends for each choice a visitor makes (POST /consent): nothing that identifies the visitor. */

const CATEGORY_KEYS = Object.values(CATEGORY_OF_PURPOSE) as [string, ...string[]];

export const consentIntake = z
  .strictObject({
    domain: z.uuid('must be the id of a domain').meta({ description: 'The domain whose banner the visitor answered.' }),
    consentId: z.uuid('must be a UUID').meta({ description: 'A random id the banner keeps with the choice; the same id for later changes of it.' }),
    choice: z.enum(['all', 'necessary', 'custom']).meta({ description: 'Accept all, reject all (only what is necessary), or a choice of categories and services.' }),
    categories: uniqueList(z.enum(CATEGORY_KEYS)).max(CATEGORY_KEYS.length).meta({ description: 'The accepted categories.' }),
    services: uniqueList(z.uuid('must be the id of an embedding')).max(1000).meta({ description: 'The accepted services (embedding ids).' }),
    revision: z
      .string()
      .regex(/^[0-9a-f]{64}$/, 'must be the 64 hex digits of the configuration revision the banner showed')
      .meta({ description: 'The content revision of the configuration the visitor was shown.' }),
    locale: localeName.meta({ description: 'The locale the banner spoke.' }),
    url: z
      .url({ protocol: /^https?$/, error: 'must be the http(s) address of the page' })
      .max(2048)
      .meta({ description: 'The page the choice was made on; only its origin and path are kept.' }),
  })
  .meta({ id: 'ConsentIntake' });

export type ConsentIntake = z.infer<typeof consentIntake>;

/** The intake's body limit: a record is a few hundred bytes, a thousand services about 40 KiB. */
export const CONSENT_BODY_LIMIT = 48 * 1024;
