import { z } from 'zod';
import { localeName, uniqueList } from '../../kernel/contract/fields.ts';
import { CATEGORY_OF_PURPOSE } from '../banner/banner-config.ts';
import { decodeAcString } from './ac-string.ts';
import { decodeGppString } from './gpp-string.ts';
import { MAX_AC_STRING, MAX_GPP_STRING, MAX_TC_STRING } from './privacy-strings.contract.ts';
import { decodeTcString } from './tc-string.ts';

/** What the banner sends for each choice a visitor makes (POST /consent): nothing that identifies the visitor. */

/** An IAB framework's string: at most `max` characters, and one its decoder reads (tc-string.ts, ac-string.ts, gpp-string.ts). */
const privacyString = (max: number, decodes: (text: string) => unknown, rule: string, description: string) =>
  z
    .string()
    .max(max, { message: `must be at most ${max} characters`, abort: true })
    .refine((text) => decodes(text) !== null, rule)
    .optional()
    .meta({ description });

const CATEGORY_KEYS = Object.values(CATEGORY_OF_PURPOSE) as [string, ...string[]];

/** A browser's privacy signal a choice can come from. */
export const privacySignal = z.enum(['gpc', 'dnt']);

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
    signal: privacySignal
      .optional()
      .meta({
        description:
          "The choice was the browser's privacy signal, not a click: `gpc` (Global Privacy Control) or `dnt` (Do Not Track), answered with only what is necessary (the theme's `complyWithDoNotTrack`). Absent: the visitor chose.",
      }),
    manipulationPrevention: z
      .boolean()
      .optional()
      .meta({
        description:
          "The banner had the theme's `manipulationPrevention` on: clicks a script simulated could not consent, and a banner removed or hidden before a choice came back. Absent: false.",
      }),
    tcString: privacyString(
      MAX_TC_STRING,
      decodeTcString,
      'must be a TC string of IAB TCF 2.2 (base64url segments) that decodes',
      `The TC string of IAB TCF 2.2 the banner wrote for this choice (at most ${MAX_TC_STRING} characters). Absent: the banner did not speak TCF.`,
    ),
    acString: privacyString(
      MAX_AC_STRING,
      decodeAcString,
      "must be a Google Additional Consent string: `2~<ids>~dv.<ids>` or `1~<ids>`, ids dot-separated",
      `Google's Additional Consent string written with the TC string (at most ${MAX_AC_STRING} characters). Absent: none.`,
    ),
    gppString: privacyString(
      MAX_GPP_STRING,
      decodeGppString,
      'must be a GPP string (header and sections, `~`-separated) that decodes, without a tcfcav1 section',
      `The string of the IAB Global Privacy Platform the banner wrote for this choice (at most ${MAX_GPP_STRING} characters). Absent: the banner did not speak GPP.`,
    ),
  })
  .meta({
    id: 'ConsentIntake',
    examples: [
      {
        domain: '0193a1b2-7c4d-7e5f-8a9b-0c1d2e3f4a5b',
        consentId: '6f1c2d3e-4b5a-4c6d-9e8f-7a6b5c4d3e2f',
        choice: 'custom',
        categories: ['necessary', 'analytics'],
        services: ['0193a1b2-7c4d-7e5f-8a9b-1c2d3e4f5a6b'],
        revision: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
        locale: 'de_DE',
        url: 'https://www.example.org/shop/',
      },
    ],
  });

export type ConsentIntake = z.infer<typeof consentIntake>;

/** The intake's body limit: a record is a few hundred bytes, a thousand services about 40 KiB, the IAB strings at most 28 KiB. */
export const CONSENT_BODY_LIMIT = 72 * 1024;
