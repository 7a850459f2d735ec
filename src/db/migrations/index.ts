import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261122193136 } from './Migration20261122193136.ts';

/** Every migration, oldest first. Add new ones at the end; never edit one that has shipped. */
export const migrationsList: MigrationObject[] = [
  { name: 'Migration20261122193136', class: Migration20261122193136 },
];
