import { viewOf } from '../../kernel/contract/field-view.ts';
import { siteUrl } from '../../kernel/contract/site-address.ts';
import { type Domain, domainFields } from './domain.contract.ts';
import type { DomainRecord } from './domain.entity.ts';
import { managementStructureOf } from './management-structure.ts';

const domainView = viewOf(domainFields, { url: siteUrl, managementStructure: managementStructureOf });

/** A stored domain → its payload: the stored host is its `name`, `url` the whole address. */
export const toDomain = (row: DomainRecord): Domain => domainView(row);
