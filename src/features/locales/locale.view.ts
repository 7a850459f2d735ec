import type { Locale } from './locale.contract.ts';
import { defaultTextsFor } from './default-texts/index.ts';
import type { LocaleRecord } from './locale.entity.ts';

/**
 * A stored locale → its payload. Texts the row lacks (rows the migration made for the domains
 * that existed before locales had texts, a text added since) are its language's defaults.
 */
export function toLocale(row: Pick<LocaleRecord, 'name' | 'active' | 'texts'>): Locale {
  const defaults = defaultTextsFor(row.name);
  const { purposeNames, purposeDescriptions, ...texts } = row.texts;
  return {
    name: row.name,
    active: row.active,
    ...defaults,
    ...texts,
    purposeNames: { ...defaults.purposeNames, ...purposeNames },
    purposeDescriptions: { ...defaults.purposeDescriptions, ...purposeDescriptions },
  };
}
