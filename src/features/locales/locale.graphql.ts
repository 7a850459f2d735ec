import { z } from 'zod';
import { type Locale, localeCreate, localeFields, localeUpdate, PURPOSE_IDS, type PurposeTexts } from './locale.contract.ts';
import { list, purposeId, text } from '../../kernel/contract/fields.ts';
import { domainArgs } from '../../graphql/args.ts';
import { builder } from '../../graphql/builder.ts';
import { payloadInputFields, payloadObjectFields } from '../../graphql/field-list.ts';
import { DomainType, scopeOf } from '../domains/domain.graphql.ts';
import { createLocale, deleteLocale, getLocale, listLocales, updateLocale } from './locale.operations.ts';
import { declareList, declareTable, prefetched } from '../../graphql/selection-sql/index.ts';
import { LocaleEntity } from './locale.entity.ts';
import { toLocale } from './locale.view.ts';

/**
 * Purpose ids start with digits, which GraphQL names may not, so `purposeNames` and
 * `purposeDescriptions` (purpose id → text in REST) are lists of `{ purpose, text }` here.
 */
type PurposeText = { purpose: string; text: string };

const PurposeTextType = builder.objectRef<PurposeText>('LocalePurposeText').implement({
  description: 'The text of a locale for one purpose.',
  fields: (t) => ({
    purpose: t.exposeString('purpose', { description: 'The purpose id.' }),
    text: t.exposeString('text'),
  }),
});

const PurposeTextInput = builder.inputType('LocalePurposeTextInput', {
  fields: (t) => ({
    purpose: t.string({ required: true, description: 'The purpose id.' }),
    text: t.string({ required: true }),
  }),
});

const toPurposeEntries = (texts: PurposeTexts): PurposeText[] => PURPOSE_IDS.map((purpose) => ({ purpose, text: texts[purpose] }));

/** The list of entries, checked (each purpose at most once) and turned into the contract's map. */
const purposeEntries = list(z.strictObject({ purpose: purposeId, text: text() }))
  .superRefine((entries, ctx) => {
    const seen = new Set<string>();
    entries.forEach((entry, index) => {
      if (seen.has(entry.purpose)) ctx.addIssue({ code: 'custom', path: [index, 'purpose'], message: `repeats the purpose ${entry.purpose}` });
      seen.add(entry.purpose);
    });
  })
  .transform((entries) => Object.fromEntries(entries.map(({ purpose, text: value }) => [purpose, value])) as Partial<PurposeTexts>)
  .optional();

const graphqlPurposeFields = { purposeNames: purposeEntries, purposeDescriptions: purposeEntries };
const graphqlLocaleCreate = localeCreate.extend(graphqlPurposeFields);
const graphqlLocaleUpdate = localeUpdate.extend(graphqlPurposeFields);

const LocaleType = builder.objectRef<Locale>('Locale').implement({
  description: "The texts of a domain's consent banner in one language.",
  fields: (t) =>
    payloadObjectFields(t, localeFields, {
      purposeNames: t.field({
        type: [PurposeTextType],
        description: 'The name of each purpose.',
        resolve: (locale) => toPurposeEntries(locale.purposeNames),
      }),
      purposeDescriptions: t.field({
        type: [PurposeTextType],
        description: 'What each purpose means, for visitors.',
        resolve: (locale) => toPurposeEntries(locale.purposeDescriptions),
      }),
    }),
});

const purposeInputs = (t: PothosSchemaTypes.InputFieldBuilder<typeof builder.$inferSchemaTypes, 'InputObject'>) => ({
  purposeNames: t.field({ type: [PurposeTextInput], description: 'Names of purposes; those not sent keep theirs.' }),
  purposeDescriptions: t.field({ type: [PurposeTextInput], description: 'Descriptions of purposes; those not sent keep theirs.' }),
});

const LocaleCreateInput = builder.inputType('LocaleCreateInput', {
  fields: (t) => payloadInputFields(t, localeFields, 'create', purposeInputs(t)),
});
const LocaleUpdateInput = builder.inputType('LocaleUpdateInput', {
  fields: (t) => payloadInputFields(t, localeFields, 'update', purposeInputs(t)),
});

// ── compiled selections (src/graphql/selection-sql): a domain's locales ──

declareTable({
  type: 'Locale',
  entity: LocaleEntity,
  fields: localeFields,
  // Every text is the view's, from the stored texts over the defaults of the locale's language (its name).
  reads: Object.fromEntries(
    Object.keys(localeFields)
      .filter((key) => key !== 'name' && key !== 'active')
      .map((key) => [key, ['texts']]),
  ),
  always: ['name'],
  toNode: (row) => toLocale({ name: row.name as string, active: row.active as boolean, texts: (row.texts ?? {}) as Parameters<typeof toLocale>[0]['texts'] }),
});

const byName = (a: Locale, b: Locale) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

// Read by id, as localesOfDomainLoader reads them, then sorted by name as listLocales sorts them.
declareList({
  parent: 'Domain',
  field: 'localeTexts',
  child: 'Locale',
  foreignKey: 'domain',
  orderBy: 'id',
  arrange: (nodes) => (nodes as Locale[]).sort(byName),
});

builder.objectFields(DomainType, (t) => ({
  localeTexts: t.field({
    type: [LocaleType],
    description: 'Every locale of the domain with its texts, active or not, by name (`locales` names the active ones).',
    resolve: (domain, _, ctx) => prefetched<Locale>(domain, 'localeTexts') ?? listLocales(ctx, scopeOf(domain)),
  }),
  locale: t.field({
    type: LocaleType,
    description: 'One locale of the domain with its texts.',
    args: { name: t.arg.string({ required: true }) },
    resolve: (domain, { name }, ctx) => getLocale(ctx, scopeOf(domain), name),
  }),
}));

builder.mutationFields((t) => ({
  createLocale: t.field({
    type: LocaleType,
    description: "Adds a locale; it starts from its language's default texts (English for a language without its own).",
    args: { ...domainArgs(t), input: t.arg({ type: LocaleCreateInput, required: true }).validate(graphqlLocaleCreate) },
    resolve: (_, { input, ...scope }, ctx) => createLocale(ctx, scope, input),
  }),
  updateLocale: t.field({
    type: LocaleType,
    args: {
      ...domainArgs(t),
      name: t.arg.string({ required: true }),
      input: t.arg({ type: LocaleUpdateInput, required: true }).validate(graphqlLocaleUpdate),
    },
    resolve: (_, { name, input, ...scope }, ctx) => updateLocale(ctx, scope, name, input),
  }),
  deleteLocale: t.string({
    description: 'Deletes the locale; returns its name.',
    args: { ...domainArgs(t), name: t.arg.string({ required: true }) },
    resolve: async (_, { name, ...scope }, ctx) => {
      await deleteLocale(ctx, scope, name);
      return name;
    },
  }),
}));
