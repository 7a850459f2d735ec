import { viewOf } from '../../kernel/contract/field-view.ts';
import { type Client, clientFields, FEATURE_DEFAULTS } from './client.contract.ts';
import type { ClientRow } from './client.entity.ts';

/** What the view reads of a stored client: the counts are read with it (formulas), or 0 for a new one. */
type StoredClient = Omit<ClientRow, 'domainCount' | 'whitelabelCount' | 'widgetDisplayCount'> & {
  domainCount?: number;
  whitelabelCount?: number;
  widgetDisplayCount?: number;
};

const clientView = viewOf(clientFields, {
  domainCount: (row: { domainCount?: number }) => row.domainCount ?? 0,
  whitelabelCount: (row: { whitelabelCount?: number }) => row.whitelabelCount ?? 0,
  widgetDisplayCount: (row: { widgetDisplayCount?: number }) => row.widgetDisplayCount ?? 0,
  features: (row: Pick<ClientRow, 'features'>) => ({ ...FEATURE_DEFAULTS, ...row.features }),
});

/** A stored client → its payload (never its password hash). */
export const toClient = (row: StoredClient): Client => clientView(row);
