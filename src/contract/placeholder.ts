import { z } from 'zod';
import { list, text } from './fields.ts';

/** Placeholder: a named text variable of a domain (SERVICE.md §2). */

export const PLACEHOLDER_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,100}$/;

export const placeholderName = z
  .string()
  .regex(PLACEHOLDER_NAME_PATTERN, 'must be 1–100 letters, digits, "_", "-" or "."')
  .meta({ description: 'Unique within the domain: 1–100 letters, digits, `_`, `-` or `.`.' });

const placeholderValue = text().meta({ description: 'The text the placeholder stands for.' });

export const placeholderCreate = z.strictObject({
  name: placeholderName,
  value: placeholderValue,
});

/** On update `name` may be absent or repeat the path's name; the operation checks the latter. */
export const placeholderUpdate = z.strictObject({
  name: placeholderName.optional().meta({ description: "Absent, or the path's name: a placeholder is not renamed." }),
  value: placeholderValue.optional(),
});

/** Bulk replace: the domain's placeholders become exactly these, names unique. */
export const placeholderReplaceAll = list(placeholderCreate).superRefine((items, ctx) => {
  const seen = new Set<string>();
  items.forEach((item, index) => {
    if (seen.has(item.name)) {
      ctx.addIssue({ code: 'custom', path: [index, 'name'], message: `repeats the name "${item.name}"` });
    }
    seen.add(item.name);
  });
});

export type PlaceholderCreate = z.infer<typeof placeholderCreate>;
export type PlaceholderUpdate = z.infer<typeof placeholderUpdate>;

/** A placeholder as the service sends it. */
export const placeholderResponse = z.strictObject({ name: placeholderName, value: placeholderValue });

export type Placeholder = z.output<typeof placeholderResponse>;
