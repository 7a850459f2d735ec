import { defineEntity, p } from '@mikro-orm/core';
import { ClientEntity } from '../clients/client.entity.ts';

/**
 * Banners of a domain shown in one calendar month (UTC), `YYYY-MM` — a visitor counts once a day
 * (display-counter.ts) — kept with the domain's client: the client's `widgetDisplayCount` is their
 * sum for the current month. Written in batches.
 */
export const WidgetDisplayEntity = defineEntity({
  name: 'WidgetDisplay',
  tableName: 'widget_display',
  properties: {
    client: () => p.manyToOne(ClientEntity).primary().deleteRule('cascade'),
    /** Not a reference: the loads of a deleted domain still count for its client's month. */
    domainId: p.uuid().primary(),
    month: p.text().primary(),
    count: p.bigint('number'),
  },
});
