import { viewOf } from '../../kernel/contract/field-view.ts';
import { type Client, clientFields } from './client.contract.ts';
import type { ClientRow } from './client.entity.ts';

const clientView = viewOf(clientFields);

/** A stored client → its payload. */
export const toClient = (row: ClientRow): Client => clientView(row);
