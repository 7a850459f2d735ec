import { z } from 'zod';
import { nameText, readOnly, text } from './fields.ts';

/** Client: a customer account (management, same shape as the real API's). */

const clientFields = {
  id: readOnly(),
  username: nameText(180),
  emailAddress: z.email('must be an e-mail address').max(320),
  firstName: text().max(255),
  lastName: text().max(255),
  company: text().max(255),
  active: z.boolean(),
};

export const clientCreate = z.strictObject(clientFields).partial().required({ username: true, emailAddress: true });
export const clientUpdate = z.strictObject(clientFields).partial();

export const clientDefaults = { firstName: '', lastName: '', company: '', active: false };

export type ClientCreate = z.infer<typeof clientCreate>;
export type ClientUpdate = z.infer<typeof clientUpdate>;

export type Client = {
  id: string;
  username: string;
  emailAddress: string;
  firstName: string;
  lastName: string;
  company: string;
  active: boolean;
};
