import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { timestamps } from '../../db/timestamps.ts';
import type { ClientFeature } from './client.contract.ts';

/** How many of the client's domains match `condition` (SQL over the domain alias `d`), read with the client. */
const domainsOfClient = (condition: string) =>
  p
    .integer()
    .formula((cols) => `(select count(*)::int from "domain" d where d."client_id" = ${cols.id}${condition})`);

export const ClientEntity = defineEntity({
  name: 'Client',
  tableName: 'client',
  properties: {
    id: p.uuid().primary(),
    username: p.text().unique(),
    /** bcrypt hash of the password; null only for clients made before passwords were stored. */
    passwordHash: p.text().nullable(),
    emailAddress: p.text(),
    firstName: p.text(),
    lastName: p.text(),
    company: p.text(),
    active: p.boolean(),
    domainMaxCount: p.integer().default(0),
    whitelabelMaxCount: p.integer().default(0),
    widgetDisplayMaxCount: p.integer().default(0),
    autoCreateDomains: p.boolean().default(false),
    /** The switches set to true or false; a switch not named here has its default (FEATURE_DEFAULTS). */
    features: p.json<Partial<Record<ClientFeature, boolean>>>(),
    /** Read with the client (not stored): how many domains it has, and how many of them are whitelabel. */
    domainCount: domainsOfClient(''),
    whitelabelCount: domainsOfClient(' and d."whitelabel"'),
    /** Banner loads of this calendar month (UTC), counted by the banner feature. */
    widgetDisplayCount: p
      .integer()
      .formula(
        (cols) =>
          `(select coalesce(sum(w."count"), 0)::int from "widget_display" w where w."client_id" = ${cols.id} and w."month" = to_char(now() at time zone 'utc', 'YYYY-MM'))`,
      ),
    ...timestamps(),
  },
});

export type ClientRow = InferEntity<typeof ClientEntity>;
