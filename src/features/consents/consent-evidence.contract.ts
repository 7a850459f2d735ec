import { z } from 'zod';
import { CATEGORY_OF_PURPOSE, type CategoryKey, type PurposeId } from '../banner/banner-config.ts';
import { STORAGE_TYPES } from '../embeddings/embedding-asset.contract.ts';
import type { ConsentEvidence } from './consent-evidence.ts';
import { consentRecord } from './consent-log.contract.ts';
import { MAX_HISTORY } from './consent-log.ts';
import { decodedPrivacyStrings } from './privacy-strings.contract.ts';

/** The evidence of one consent record as the API sends it (consent-evidence.ts builds it). */

const html = (description: string) => z.string().meta({ description: `${description} HTML, as the banner rendered it.` });
const optionalHtml = (description: string) => html(description).nullable();

const evidenceTexts = z.strictObject({
  consentModal: z.strictObject({
    title: html('The heading.'),
    description: html('The text.'),
    acceptAllButton: optionalHtml('The accept-all button; null: not shown.'),
    acceptNecessaryButton: optionalHtml('The decline button; null: not shown.'),
    preferencesButton: optionalHtml('The settings button; null: not shown.'),
    closeIconLabel: optionalHtml('The close icon (it declines); null: not shown.'),
    footer: optionalHtml('The links under the text.'),
  }),
  preferencesModal: z.strictObject({
    title: html('The heading.'),
    acceptAllButton: optionalHtml('The accept-all button.'),
    acceptNecessaryButton: optionalHtml('The decline button.'),
    saveButton: html('The save button.'),
    closeIconLabel: html('The close icon.'),
    sections: z.array(
      z.strictObject({
        title: optionalHtml('The section heading.'),
        description: optionalHtml('The section text.'),
        category: z.string().nullable().meta({ description: 'The category the section switches, if any.' }),
      }),
    ),
  }),
});

const evidenceService = z.strictObject({
  id: z.string().meta({ description: "The embedding's id, as the record's `services` name it." }),
  name: html('The label beside its switch.'),
  vendor: z.string(),
  privacyPolicyUrl: z.string().nullable(),
  accepted: z.boolean(),
  storage: z.array(
    z.strictObject({
      name: z.string(),
      dynamic: z.boolean(),
      storageType: z.enum(STORAGE_TYPES),
      lifetime: z.string(),
      description: z.string(),
    }),
  ),
});

export const consentEvidenceResponse = z
  .strictObject({
    record: consentRecord.omit({ id: true }),
    revision: z.strictObject({
      number: z.int(),
      hash: z.string(),
      createdAt: z.string(),
      legal: z.boolean(),
      keyName: z.string().nullable().meta({ description: 'The API key whose write made the configuration; null: none recorded.' }),
      configurationVerified: z.boolean().meta({ description: "The stored configuration hashes to the record's revision: the texts are what the visitor was shown." }),
    }),
    domain: z.strictObject({ id: z.string(), name: z.string(), url: z.string() }),
    locale: z.strictObject({
      recorded: z.string(),
      shown: z.string(),
      fellBack: z.boolean().meta({ description: 'The revision lacked the recorded locale; the banner spoke its first one.' }),
    }),
    texts: evidenceTexts,
    categories: z.array(
      z.strictObject({
        key: z.enum(Object.values(CATEGORY_OF_PURPOSE) as [CategoryKey, ...CategoryKey[]]),
        purpose: z.enum(Object.keys(CATEGORY_OF_PURPOSE) as [PurposeId, ...PurposeId[]]),
        title: html('The category heading in the settings.'),
        accepted: z.boolean(),
        services: z.array(evidenceService),
      }),
    ),
    unknownServices: z.array(z.string()).meta({ description: 'Accepted service ids the revision has no service for (should be empty).' }),
    unknownCategories: z.array(z.string()).meta({ description: 'Accepted categories the revision does not have (should be empty).' }),
    privacyStrings: decodedPrivacyStrings.meta({
      description: "The record's IAB strings (`record.tcString`, `record.acString`, `record.gppString`) decoded by the service with the IAB libraries: what the visitor accepted in each framework.",
    }),
    history: z.array(consentRecord).meta({
      description:
        `Every record of the consent id, oldest first (at most ${MAX_HISTORY}: the first and the newest), \`record\` among them. Records come unauthenticated from visitors' browsers: ` +
        'anyone who knows a consent id can add one, so a later record is added to the history and never replaces what came before.',
    }),
  })
  .meta({
    id: 'ConsentEvidence',
    description:
      "What one visitor was shown and what they accepted of it: the record and the configuration revision it names, with the consent's whole history. " +
      "`record.originMatches` says whether the page was on the domain's site; the record itself is what a browser sent, not proof of who sent it.",
  });

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const agree = <_T extends true>() => undefined;
agree<Same<ConsentEvidence, z.output<typeof consentEvidenceResponse>>>();

export const consentEvidenceQuery = z
  .strictObject({
    record: z.uuid('must be the id of one of the consent’s records').optional().meta({ description: 'Which record of the consent (default: its newest).' }),
  })
  .meta({ description: 'The query of the evidence.' });
