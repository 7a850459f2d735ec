import { z } from 'zod';
import { createSchema, fieldList, responseSchema, updateSchema } from '../../kernel/contract/field-list.ts';
import { list, text } from '../../kernel/contract/fields.ts';

/** Placeholder: a named text variable of a domain (SERVICE.md §2). */

/**
 * 1–100 letters, digits, `_`, `-` or `.`, but not `.` or `..`: those are path steps to every URL
 * parser (browsers, fetch, curl), so `DELETE …/placeholder/..` would reach the server as
 * `DELETE …/domain/{id}`. A name its own address cannot carry is refused, so no name can ever
 * address another resource.
 */
const PLACEHOLDER_NAME_PATTERN = /^(?!\.\.?$)[A-Za-z0-9_.-]{1,100}$/;

/** Whether `name` can be a placeholder's name (and so the path segment that addresses one). */
export const isPlaceholderName = (name: string): boolean => PLACEHOLDER_NAME_PATTERN.test(name);

const placeholderName = z
  .string()
  .regex(PLACEHOLDER_NAME_PATTERN, 'must be 1–100 letters, digits, "_", "-" or ".", and not "." or ".." (URLs read those as path steps)')
  .meta({ description: 'Unique within the domain: 1–100 letters, digits, `_`, `-` or `.`; not `.` or `..`.' });

const placeholderValue = text().meta({ description: 'The text the placeholder stands for.' });

export const placeholderFields = fieldList({
  name: {
    write: placeholderName,
    /** The operation checks that it repeats the name of the placeholder being updated. */
    update: placeholderName.meta({
      description: 'Absent, or equal to the name of the placeholder being updated: placeholders are not renamed.',
    }),
    required: true,
  },
  value: { write: placeholderValue, required: true },
});

export const placeholderCreate = createSchema(placeholderFields).meta({
  id: 'PlaceholderCreate',
  examples: [{ name: 'Firma_Web', value: 'https://www.example.org' }],
});
export const placeholderUpdate = updateSchema(placeholderFields).meta({ id: 'PlaceholderUpdate', examples: [{ value: 'https://www.example.org/' }] });
/** A placeholder as the service sends it. */
export const placeholderResponse = responseSchema(placeholderFields).meta({ id: 'Placeholder' });

/** Bulk replace: the domain's placeholders become exactly these, names unique. */
export const placeholderReplaceAll = list(placeholderCreate).superRefine((items, ctx) => {
  const seen = new Set<string>();
  items.forEach((item, index) => {
    if (seen.has(item.name)) {
      ctx.addIssue({ code: 'custom', path: [index, 'name'], message: `repeats the name "${item.name}"` });
    }
    seen.add(item.name);
  });
}).meta({
  examples: [
    [
      { name: 'FIRMA', value: 'Example GmbH' },
      { name: 'Firma_Datenschutz', value: 'https://www.example.org/datenschutz' },
    ],
  ],
});

export type PlaceholderCreate = z.infer<typeof placeholderCreate>;
export type PlaceholderUpdate = z.infer<typeof placeholderUpdate>;
export type Placeholder = z.output<typeof placeholderResponse>;
