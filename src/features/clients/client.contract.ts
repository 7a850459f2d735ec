import { z } from 'zod';
import {
  createSchema,
  defaultsOf,
  fieldList,
  generatedId,
  responseSchema,
  updateSchema,
} from '../../kernel/contract/field-list.ts';
import { nameText, text } from '../../kernel/contract/fields.ts';

/** Client: a customer account (management, same shape as the real API's). */

export const clientFields = fieldList({
  id: generatedId(),
  username: { write: nameText(180).meta({ description: 'Unique across clients.' }), required: true },
  emailAddress: { write: z.email('must be an e-mail address').max(320), required: true },
  firstName: { write: text().max(255), default: '' },
  lastName: { write: text().max(255), default: '' },
  company: { write: text().max(255), default: '' },
  active: { write: z.boolean().meta({ description: 'Default false.' }), default: false },
});

export const clientCreate = createSchema(clientFields).meta({ id: 'ClientCreate' });
export const clientUpdate = updateSchema(clientFields).meta({ id: 'ClientUpdate' });
/** A client as the service sends it: every field, defaults filled in. */
export const clientResponse = responseSchema(clientFields).meta({ id: 'Client' });

export const clientDefaults = defaultsOf(clientFields);

export type ClientCreate = z.infer<typeof clientCreate>;
export type ClientUpdate = z.infer<typeof clientUpdate>;
export type Client = z.output<typeof clientResponse>;
