import { type Database, type DatabaseOptions, openDatabase } from '../db/orm.ts';
import { entities } from '../features/index.ts';

/** The service's database: every feature's entities, migrated unless told otherwise. */
export const openServiceDatabase = (options: Omit<DatabaseOptions, 'entities'>): Promise<Database> =>
  openDatabase({ ...options, entities });
