import { clientChecks } from '../../kernel/access.ts';
import { lockById } from '../../db/row-lock.ts';
import { ClientEntity, type ClientRow } from './client.entity.ts';

/** The kernel's client check (kernel/access.ts), over the client table. */
export const { requireClient } = clientChecks<ClientRow>({
  // By primary key: within one request a second lookup is served from the identity map.
  findClient: (em, id, lock) => (lock ? lockById(em, ClientEntity, id) : em.findOne(ClientEntity, id)),
});
