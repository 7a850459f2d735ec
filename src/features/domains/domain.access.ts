import { accessChecks } from '../../kernel/access.ts';
import { lockById } from '../../db/row-lock.ts';
import { ClientEntity, type ClientRow } from '../clients/client.entity.ts';
import { DomainEntity, type DomainRow } from './domain.entity.ts';
import { domainLoader, type OwnedDomainRecord } from './domain.reads.ts';

/** The kernel's access checks (kernel/access.ts), over the client and domain tables. */
export const { requireClient, readDomain, requireDomain, itemsOfDomain } = accessChecks<ClientRow, DomainRow, OwnedDomainRecord>({
  // By primary key: within one request a second lookup is served from the identity map, so the
  // many fields of one GraphQL query that each need the domain cost one query between them.
  findClient: (em, id, lock) => (lock ? lockById(em, ClientEntity, id) : em.findOne(ClientEntity, id)),
  clientExists: async (em, id) => (await em.count(ClientEntity, { id })) > 0,
  findDomain: (em, id, lock) => (lock ? lockById(em, DomainEntity, id) : em.findOne(DomainEntity, id)),
  readDomain: (ctx, id) => domainLoader(ctx).load(id),
  clientIdOf: (domain) => ('clientId' in domain ? domain.clientId : domain.client.id),
});
