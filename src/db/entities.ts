import { ApiKeyEntity } from '../features/api-keys/api-key.entity.ts';
import { ClientEntity } from '../features/clients/client.entity.ts';
import { DomainEntity } from '../features/domains/domain.entity.ts';
import { EmbeddingAssetEntity, EmbeddingEntity } from '../features/embeddings/embedding.entity.ts';
import { PlaceholderEntity } from '../features/placeholders/placeholder.entity.ts';
import { ImportedCookieEntity, ImportedServiceEntity } from '../features/catalog/imported.entity.ts';
import { TcfVendorEntity } from '../features/tcf-vendors/tcf-vendor.entity.ts';
import { ThemeEntity } from '../features/themes/theme.entity.ts';

/** Every stored entity, listed once for the ORM. */
export const entities = [
  ClientEntity,
  DomainEntity,
  PlaceholderEntity,
  EmbeddingEntity,
  EmbeddingAssetEntity,
  ThemeEntity,
  ImportedServiceEntity,
  ImportedCookieEntity,
  ApiKeyEntity,
  TcfVendorEntity,
];
