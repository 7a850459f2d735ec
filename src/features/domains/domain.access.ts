import { domainChecks } from '../../kernel/access.ts';
import { lockById } from '../../db/row-lock.ts';
import { ClientEntity } from '../clients/client.entity.ts';
import { DomainEntity, type DomainRow } from './domain.entity.ts';
import { domainLoader, domainOwnerLoader, type OwnedDomainRecord } from './domain.reads.ts';

/** The kernel's domain checks (kernel/access.ts), over the client and domain tables. */
export const { readDomain, reachDomain, requireDomain, itemsOfDomain, missingDomain } = domainChecks<DomainRow, OwnedDomainRecord>({
  clientExists: async (em, id) => (await em.count(ClientEntity, { id })) > 0,
  // By primary key, so that the many fields of one GraphQL query that each need the domain
  // cost one query between them (the identity map answers the others).
  findDomain: (em, id, lock) => (lock ? lockById(em, DomainEntity, id) : em.findOne(DomainEntity, id)),
  readDomain: (ctx, id) => domainLoader(ctx).load(id),
  ownerOfDomain: (ctx, id) => domainOwnerLoader(ctx).load(id),
  clientIdOf: (domain) => ('clientId' in domain ? domain.clientId : domain.client.id),
});
