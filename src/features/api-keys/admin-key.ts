import type { MikroORM } from '@mikro-orm/postgresql';
import { newId } from '../../kernel/ids.ts';
import { StartupError } from '../../startup-error.ts';
import { ApiKeyEntity } from './api-key.entity.ts';
import { generateKey } from './key-material.ts';

/**
 * Without ADMIN_API_KEY, outside production, the first start creates an administrator key and
 * returns it so it can be printed once; later starts find it stored (as a hash) and return
 * nothing. In production ADMIN_API_KEY must be set. Once it is set, a generated key is retired
 * (deleted), so there is one administrator key, the one the settings name.
 */
export async function ensureAdminKey(
  orm: MikroORM,
  { adminApiKey, environment }: { adminApiKey: string | undefined; environment: string },
): Promise<{ generatedKey?: string; retiredGeneratedKeys?: number }> {
  const em = orm.em.fork();
  if (adminApiKey) {
    const retired = await em.nativeDelete(ApiKeyEntity, { client: null });
    return retired > 0 ? { retiredGeneratedKeys: retired } : {};
  }
  if (environment === 'production') {
    throw new StartupError('ADMIN_API_KEY must be set in production (NODE_ENV=production): set it to a key of at least 16 characters; one is generated only outside production');
  }
  if ((await em.count(ApiKeyEntity, { client: null })) > 0) return {};
  const { key, prefix, hash } = generateKey();
  em.create(ApiKeyEntity, { id: newId(), client: null, name: 'administrator (generated at first start)', prefix, hash });
  await em.flush();
  return { generatedKey: key };
}
