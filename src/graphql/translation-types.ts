import type { z } from 'zod';
import { localeName } from '../kernel/contract/fields.ts';
import { builder } from './builder.ts';
import { shapeInputFields, shapeObjectFields } from './field-list.ts';
import type { TranslationEntry } from './translations.ts';

/** The GraphQL types of a translation entry (see translations.ts): `locale` and the contract's per-locale texts. */

type Texts = z.ZodObject<Record<string, z.ZodType>>;

const entryShape = (texts: Texts) => ({ locale: localeName, ...texts.shape });

export const translationEntryType = <T extends Texts>(name: string, texts: T) =>
  builder
    .objectRef<TranslationEntry<z.output<T>>>(name)
    .implement({ fields: (t) => shapeObjectFields(t, entryShape(texts)) });

export const translationEntryInput = (name: string, texts: Texts) =>
  builder.inputType(name, { fields: (t) => shapeInputFields(t, entryShape(texts)) });
