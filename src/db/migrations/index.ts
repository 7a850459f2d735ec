import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261122193136 } from './Migration20261122193136.ts';
import { Migration20261122200450_onboarding } from './Migration20261122200450_onboarding.ts';
import { Migration20261122202429_api_keys } from './Migration20261122202429_api_keys.ts';
import { Migration20261123133841_api_key_created_by } from './Migration20261123133841_api_key_created_by.ts';
import { Migration20261123140103_tcf_vendors } from './Migration20261123140103_tcf_vendors.ts';
import { Migration20261123174000_ccm19_clients_domains } from './Migration20261123174000_ccm19_clients_domains.ts';
import { Migration20261123174100_locales } from './Migration20261123174100_locales.ts';
import { Migration20261123200000_banner } from './Migration20261123200000_banner.ts';
import { Migration20261123210000_consent_records } from './Migration20261123210000_consent_records.ts';
import { Migration20261123230000_revisions } from './Migration20261123230000_revisions.ts';
import { Migration20261124180000_scan_jobs } from './Migration20261124180000_scan_jobs.ts';
import { Migration20261124190000_permanent_scan } from './Migration20261124190000_permanent_scan.ts';
import { Migration20261126100000_changed_tables } from './Migration20261126100000_changed_tables.ts';
import { Migration20261126130000_revision_due } from './Migration20261126130000_revision_due.ts';
import { Migration20261126162551_asset_order } from './Migration20261126162551_asset_order.ts';
import { Migration20261126190000_revision_round } from './Migration20261126190000_revision_round.ts';
import { Migration20261126200000_quiet_tables } from './Migration20261126200000_quiet_tables.ts';
import { Migration20261126210000_lz4_parts } from './Migration20261126210000_lz4_parts.ts';
import { Migration20261127000000_after_domain_lock } from './Migration20261127000000_after_domain_lock.ts';
import { Migration20261127120000_bucket_deltas } from './Migration20261127120000_bucket_deltas.ts';
import { Migration20261128034214_compliance_scans } from './Migration20261128034214_compliance_scans.ts';

/** Every migration, oldest first. Add new ones at the end; never edit one that has shipped. */
export const migrationsList: MigrationObject[] = [
  { name: 'Migration20261122193136', class: Migration20261122193136 },
  { name: 'Migration20261122200450_onboarding', class: Migration20261122200450_onboarding },
  { name: 'Migration20261122202429_api_keys', class: Migration20261122202429_api_keys },
  { name: 'Migration20261123133841_api_key_created_by', class: Migration20261123133841_api_key_created_by },
  { name: 'Migration20261123140103_tcf_vendors', class: Migration20261123140103_tcf_vendors },
  { name: 'Migration20261123174000_ccm19_clients_domains', class: Migration20261123174000_ccm19_clients_domains },
  { name: 'Migration20261123174100_locales', class: Migration20261123174100_locales },
  { name: 'Migration20261123200000_banner', class: Migration20261123200000_banner },
  { name: 'Migration20261123210000_consent_records', class: Migration20261123210000_consent_records },
  { name: 'Migration20261123230000_revisions', class: Migration20261123230000_revisions },
  { name: 'Migration20261124180000_scan_jobs', class: Migration20261124180000_scan_jobs },
  { name: 'Migration20261124190000_permanent_scan', class: Migration20261124190000_permanent_scan },
  { name: 'Migration20261126100000_changed_tables', class: Migration20261126100000_changed_tables },
  { name: 'Migration20261126130000_revision_due', class: Migration20261126130000_revision_due },
  { name: 'Migration20261126162551_asset_order', class: Migration20261126162551_asset_order },
  { name: 'Migration20261126190000_revision_round', class: Migration20261126190000_revision_round },
  { name: 'Migration20261126200000_quiet_tables', class: Migration20261126200000_quiet_tables },
  { name: 'Migration20261126210000_lz4_parts', class: Migration20261126210000_lz4_parts },
  { name: 'Migration20261127000000_after_domain_lock', class: Migration20261127000000_after_domain_lock },
  { name: 'Migration20261127120000_bucket_deltas', class: Migration20261127120000_bucket_deltas },
  { name: 'Migration20261128034214_compliance_scans', class: Migration20261128034214_compliance_scans },
];
