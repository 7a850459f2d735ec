import { z } from 'zod';

/**
 * `managementStructure`. CCM19 asks visitors per embedding (a script with the cookies it sets);
 * its older per-cookie structure (`cookie`) is outdated and has no API endpoints any more, so no
 * cookie-level records exist here to ask about. New writes of `cookie` are refused; a value stored
 * before reads, and acts, as `embedding`, so a domain read and written back stays valid.
 */
export const COOKIE_STRUCTURE_REFUSED =
  "`cookie` is CCM19's outdated per-cookie structure, which CCM19 no longer serves through its API; consent is asked per embedding: send `embedding`";

export const managementStructureField = <const T extends readonly ['cookie', 'embedding']>(values: T) =>
  ({
    write: z
      .enum(values)
      .refine((value) => value !== 'cookie', { message: COOKIE_STRUCTURE_REFUSED })
      .meta({
        description:
          'How the banner asks: `embedding`, per embedding (grouped by purpose), the only structure that acts. `cookie`, per single cookie, is outdated in CCM19 and refused (400); a domain that stored it reads and acts as `embedding`. Default `embedding`.',
      }),
    read: z.enum(values).meta({ description: 'How the banner asks: always `embedding` (per embedding, grouped by purpose); CCM19\'s outdated `cookie` is read as `embedding`.' }),
    default: 'embedding',
  }) as const;

/** What a stored domain's structure reads as: only `embedding` acts. */
export const managementStructureOf = (): 'embedding' => 'embedding';
